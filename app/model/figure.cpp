// Figure naming, captions and PNG metadata.
#include "app/model/figure.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "app/model/page_model.hpp"
#include "app/model/state_json.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz::app {

namespace {

constexpr const char* kBasicNames[] = {"window", "waves", "encoding", "similarity", "binary"};
constexpr const char* kDot = kCaptionDot;

}  // namespace

std::string caption_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string absolute_caption(const EncodingParams& p) {
  // The name, then what the encoding reads (core's encoding table), in one order for all.
  const EncodingInputs& uses = encoding_info(p.encoding).inputs;
  std::string c(to_string(p.encoding));
  if (uses.table) c += p.learned_table ? " (" + p.learned_source + ")" : " (random, seed " + std::to_string(p.seed) + ")";
  if (uses.signed_bits && p.signed_bits) c += " (signed)";
  const auto add = [&c](const std::string& part) { (c += kDot) += part; };
  if (uses.d_model) add("d_model " + std::to_string(p.d_model));
  if (uses.base) add("base " + caption_number(p.base));
  if (uses.table) add("max_len " + std::to_string(p.max_len));
  add("L " + std::to_string(p.seq_len));
  if (uses.layout) add(std::string(to_string(p.layout)));
  return c;
}


std::string figure_view_name(FigureView v) {
  if (v.kind == FigureView::one_page) return std::string(page_name(v.page));
  return kBasicNames[v.kind];
}

std::optional<FigureView> parse_figure_view(std::string_view name) {
  for (int k = 0; k < 5; ++k)
    if (name == kBasicNames[k]) return FigureView{FigureView::Kind(k), Page::basics};
  if (const auto p = parse_page(name); p && *p != Page::basics) return FigureView{FigureView::one_page, *p};
  return std::nullopt;
}

std::vector<FigureView> single_figure_views() {
  std::vector<FigureView> v = {{FigureView::waves}, {FigureView::encoding}, {FigureView::similarity}, {FigureView::binary}};
  for (int i = 1; i < kPageCount; ++i) v.push_back({FigureView::one_page, Page(i)});
  return v;
}

std::string figure_view_names() {
  std::string out = "window";
  for (const FigureView& v : single_figure_views()) out += ", " + figure_view_name(v);
  return out;
}

std::optional<FigureFormat> parse_figure_format(std::string_view name) {
  for (int f = 0; f < 3; ++f)
    if (name == kFigureFormatNames[f]) return FigureFormat(f);
  return std::nullopt;
}

std::optional<FigureFormat> figure_format_of_path(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return std::nullopt;
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) c = char(std::tolower((unsigned char)c));
  return parse_figure_format(ext);
}

void validate(const FigureOptions& o) {
  if (o.scale != 1 && o.scale != 2 && o.scale != 4)
    throw ParamError("scale", "must be 1, 2 or 4, got " + std::to_string(o.scale));
  check_int(limits::figure_width, o.width);
  check_int(limits::figure_height, o.height);
  const long long w = (long long)o.width * o.scale, h = (long long)o.height * o.scale;
  if (w > kMaxFigureWidth || h > kMaxFigureWidth || w * h > (long long)kMaxFigureWidth * kMaxFigureHeight)
    throw ParamError("scale", std::to_string(o.width) + " x " + std::to_string(o.height) + " at " + std::to_string(o.scale) +
                                  "x would be " + std::to_string(w) + " x " + std::to_string(h) + " pixels; the limit is " +
                                  std::to_string(kMaxFigureWidth) + " x " + std::to_string(kMaxFigureHeight));
}

// The binary analogy depends on its rows and, once morphed toward the model's frequencies, on d_model and base.
std::string binary_caption(const AppState& s) {
  const BinaryOptions& o = s.pages.basics.binary_view;
  std::string c = "binary analogy" + std::string(kDot) + std::to_string(o.positions) + " positions, " +
                  std::to_string(s.pages.basics.binary.bits) + " bits";
  if (o.morph > 0.0f)
    c += std::string(kDot) + "morphed " + caption_number(std::round(100.0 * o.morph)) + "% toward d_model " +
         std::to_string(s.params.d_model) + ", base " + caption_number(s.params.base);
  return c;
}

FigureView described_view(const AppState& s, FigureView v) {
  if (v.kind != FigureView::window || s.pages.page == Page::basics) return v;
  return {FigureView::one_page, s.pages.page};
}

std::string figure_caption(const AppState& s, FigureView v) {
  v = described_view(s, v);
  if (v.kind == FigureView::binary) return binary_caption(s);
  if (v.kind != FigureView::one_page) return absolute_caption(s.params);
  const PageModel& page = page_model(v.page);
  return page.caption ? page.caption(s) : absolute_caption(s.params);
}

namespace {

// Lower-case letters, digits and dots of `text`, every other run as one '-', at most `max` characters (cut at a
// '-'): "RoPE · head_dim 128 · t = 12" -> "rope-head-dim-128-t-12".
std::string slug(const std::string& text, std::size_t max) {
  std::string out;
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '.') out += char(std::tolower(u));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.size() > max) out.erase(std::min(out.size(), out.rfind('-', max)));
  return out;
}

// The caption as a slug, without a first word the view's name starts with ("alibi-8-heads-l-64-causal" for the
// view "alibi": "peviz-alibi-8-heads-l-64-causal").
std::string caption_slug(const AppState& s, FigureView v) {
  std::string c = slug(figure_caption(s, v), 64);
  const std::string view = figure_view_name(v);
  const std::string first = c.substr(0, c.find('-'));
  if (first.size() < c.size() && view.substr(0, view.find('-')) == first) c.erase(0, first.size() + 1);
  return c;
}

// Whether a figure shows the sidebar's encoding and nothing of its own: the window, Basics' views, and a page without
// a caption of its settings (which, when it has one, names the file instead).
bool shows_sidebar_encoding(FigureView v) {
  if (v.kind == FigureView::binary) return false;
  return v.kind != FigureView::one_page || !page_model(v.page).caption;
}

}  // namespace

std::string figure_file_name(const AppState& s, FigureView v, long long unix_seconds) {
  if (s.teach.lesson_active) return lesson_figure_name(s, v) + file_time_stamp(unix_seconds) + ".png";
  std::string name = "peviz-" + figure_view_name(v) + "-";
  v = described_view(s, v);  // the window: the parameters of the page shown
  const std::string sidebar = std::string("d").append(std::to_string(s.params.d_model)).append("-b")
                                  .append(caption_number(s.params.base)).append("-L")
                                  .append(std::to_string(s.params.seq_len));  // appends: GCC 12's -Wrestrict misfires on +
  if (shows_sidebar_encoding(v)) return name + sidebar + file_time_stamp(unix_seconds) + ".png";
  // A page's caption names its settings; one that begins with the sidebar's encoding (it follows it) is named by the
  // short sidebar form and the rest.
  const std::string caption = figure_caption(s, v), encoding = absolute_caption(s.params);
  if (caption.rfind(encoding, 0) == 0) name += sidebar + "-" + slug(caption.substr(encoding.size()), 48);
  else name += caption_slug(s, v);
  return name + file_time_stamp(unix_seconds) + ".png";
}

std::string lesson_figure_name(const AppState& s, FigureView v) {
  char step[24];
  std::snprintf(step, sizeof step, "-step%02d-", s.teach.step + 1);
  const std::string lesson = slug(std::filesystem::path(s.teach.lesson.path).stem().string(), 40);
  const FigureView shown = described_view(s, v);
  const std::string page = shown.kind == FigureView::window ? std::string(page_name(s.pages.page)) : figure_view_name(shown);
  return "peviz-" + lesson + step + (v.kind == FigureView::window ? "window-" : "") + page;
}

std::string counted(long long n, const std::string& noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

std::string file_time_stamp(long long unix_seconds) {
  if (unix_seconds < 0) return "";
  const std::time_t t = std::time_t(unix_seconds);
  std::tm local{};
  localtime_r(&t, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "-%Y%m%d-%H%M%S", &local);
  return stamp;
}

std::map<std::string, std::string> figure_metadata(const AppState& s, FigureView v) {
  const nlohmann::json j = {{"version", 1}, {"view", figure_view_name(v)}, {"state", state_to_json(s)}};
  return {{"peviz", j.dump()}, {"Title", figure_caption(s, v)}, {"Software", "peviz"}};
}

FigureMetadata parse_figure_metadata(const std::map<std::string, std::string>& text) {
  const auto it = text.find("peviz");
  if (it == text.end()) throw ParamError("open", "this figure has no peviz parameters (it was not saved by peviz)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(it->second);
  } catch (const nlohmann::json::exception& e) {
    throw ParamError("open", std::string("the figure's peviz parameters are not valid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("state") || !j.contains("view") || !j.at("view").is_string())
    throw ParamError("open", "the figure's peviz parameters lack \"view\" or \"state\"");
  const auto v = parse_figure_view(j.at("view").get<std::string>());
  if (!v) throw ParamError("open", "the figure names an unknown view: " + j.at("view").get<std::string>());
  return {*v, j.at("state")};
}

}  // namespace peviz::app
