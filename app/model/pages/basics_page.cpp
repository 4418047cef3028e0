// The Basics page: the sidebar's encoding as a table, its frequencies, its similarity and the binary analogy,
// recomputed through core when dirty whichever page is shown (the other pages read them); its data export is
// the encoding table; its views' options are keys of the state JSON's "view" object.
#include "app/model/pages/basics_page.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <new>
#include <numbers>
#include <sstream>

#include "app/model/app_state.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"
#include "core/encodings/similarity.hpp"

namespace peviz::app {

std::vector<int> default_wave_channels(int d) {
  std::vector<int> out;
  for (int c : {0, 1, 2, 3, d / 2, d - 2, d - 1})
    if (c >= 0 && c < d && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::vector<int>> parse_channel_list(const std::string& text, int d) {
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) continue;
    int lo = 0, hi = 0;
    const char* b = item.data();
    const char* e = b + item.size();
    auto r = std::from_chars(b, e, lo);
    if (r.ec != std::errc()) return std::nullopt;
    hi = lo;
    if (r.ptr != e) {
      if (*r.ptr != '-') return std::nullopt;
      auto r2 = std::from_chars(r.ptr + 1, e, hi);
      if (r2.ec != std::errc() || r2.ptr != e || hi < lo) return std::nullopt;
    }
    if (lo < 0 || hi >= d || hi - lo > 64) return std::nullopt;
    for (int c = lo; c <= hi; ++c)
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  if (out.empty() || out.size() > 32) return std::nullopt;
  return out;
}

int similarity_stride_for(int seq_len, int width, bool toeplitz) {
  if (toeplitz || seq_len <= 1) return 1;
  const double n_max = std::max(2.0, std::floor(std::sqrt(kGeneralSimilarityWork / std::max(width, 1))));
  return std::max(1, int(std::ceil(seq_len / n_max)));
}

namespace basics_local {  // this page's own names (the pages share a unity batch)
namespace {

using plot::Colormap;

double max_abs(const Matrix& m) {
  double v = 0.0;
  for (float x : m.data)
    if (!std::isnan(x)) v = std::max(v, double(std::abs(x)));
  return v;
}

void set_colors(plot::HeatmapImage& img, int choice, Colormap automatic, double vmin, double vmax) {
  img.colormap = choice > 0 ? plot::kAllColormaps[std::clamp(choice - 1, 0, plot::kColormapCount - 1)] : automatic;
  img.vmin = vmin;
  img.vmax = vmax > vmin ? vmax : vmin + 1.0;
}

void update_encoding_colors(BasicsOptions& b) {
  // core's table gives the values' bounds; an encoding without fixed bounds (a learned table) is read.
  const ValueScale scale = encoding_info(b.computed.encoding).scale(b.computed);
  const int choice = b.encoding_view.colormap_choice;
  if (!scale.centred) {
    set_colors(b.encoding_image, choice, Colormap::viridis, scale.low, scale.high);
  } else if (std::isnan(scale.low)) {
    const double m = std::max(max_abs(b.encoding), 1e-12);
    set_colors(b.encoding_image, choice, Colormap::diverging, -m, m);
  } else {
    set_colors(b.encoding_image, choice, Colormap::diverging, scale.low, scale.high);
  }
}

void update_similarity_colors(BasicsOptions& b) {
  if (b.similarity_view.metric == Metric::cosine) {
    set_colors(b.similarity_image, b.similarity_view.colormap_choice, Colormap::diverging, -1, 1);
    return;
  }
  // |p.q| <= max(|p|^2, |q|^2) (Cauchy-Schwarz), so the diagonal holds the largest magnitude.
  double m = 0.0;
  for (std::size_t i = 0; i < plot::value_rows(b.similarity_image.values); ++i) {
    const float v = plot::value_at(b.similarity_image.values, i, i);
    if (!std::isnan(v)) m = std::max(m, double(std::abs(v)));
  }
  m = std::max(m, 1e-12);
  if (!encoding_info(b.computed.encoding).scale(b.computed).centred)  // values >= 0: so are their products
    set_colors(b.similarity_image, b.similarity_view.colormap_choice, Colormap::viridis, 0, m);
  else
    set_colors(b.similarity_image, b.similarity_view.colormap_choice, Colormap::diverging, -m, m);
}

void recompute_encoding(BasicsOptions& b, const EncodingParams& params) {
  EncodingParams p = params;
  validate(p);  // throws ParamError before any cache is touched
  try {
    encode(p, b.encoding, MissingRows::nan);
  } catch (...) {
    b.has_results = false;
    throw;
  }
  b.computed = p;
  b.has_results = true;
  b.frequencies.clear();
  if (std::isfinite(p.base) && p.base > 1.0 && p.d_model >= 1)
    b.frequencies = sinusoid_frequencies(p.d_model, p.base, p.layout);
  b.encoding_image.values = &b.encoding;
  ++b.encoding_image.version;
  const auto periods = encoding_info(p.encoding).channel_periods;
  b.channel_wavelength = periods ? periods(p, b.encoding.cols) : std::vector<float>(b.encoding.cols, std::nanf(""));
  b.channel_log10_wavelength.resize(b.channel_wavelength.size());
  for (std::size_t c = 0; c < b.channel_wavelength.size(); ++c)
    b.channel_log10_wavelength[c] = std::log10(b.channel_wavelength[c]);
}

void similarity_done(BasicsOptions& b) {
  if (b.similarity_toeplitz.size() > 0) b.similarity_image.values = &b.similarity_toeplitz;
  else b.similarity_image.values = &b.similarity;
  b.similarity_image.cell_width = b.similarity_image.cell_height = b.similarity_stride;
  ++b.similarity_image.version;
}

void recompute_similarity(BasicsOptions& b) {
  const EncodingParams& p = b.computed;
  const bool toeplitz = p.encoding == Encoding::sinusoidal;
  b.similarity_stride = similarity_stride_for(p.seq_len, int(b.encoding.cols), toeplitz);
  // Sinusoids keep core's Toeplitz description (O(L)); the views read cells and rows through it.
  b.similarity_toeplitz = ToeplitzSimilarity{};
  if (toeplitz) {
    b.similarity = Matrix{};  // frees any general-path matrix: no L x L floats for sinusoids
    try {
      b.similarity_toeplitz = sinusoidal_similarity_toeplitz(p, b.similarity_view.metric);
    } catch (...) {
      similarity_done(b);  // nothing on screen rather than a stale similarity
      throw;
    }
  } else if (b.similarity_stride == 1) {
    similarity_matrix(b.encoding, b.similarity_view.metric, b.similarity);
  } else {
    const std::size_t stride = std::size_t(b.similarity_stride);
    const std::size_t n = (b.encoding.rows + stride - 1) / stride;
    b.sampled_encoding.reshape(n, b.encoding.cols);
    for (std::size_t i = 0; i < n; ++i)
      std::copy_n(b.encoding.row(i * stride), b.encoding.cols, b.sampled_encoding.row(i));
    similarity_matrix(b.sampled_encoding, b.similarity_view.metric, b.similarity);
  }
  similarity_done(b);
}

std::string summary(const BasicsOptions& b) {
  const EncodingParams& p = b.computed;
  std::ostringstream os;
  os << to_string(p.encoding) << ", d_model " << p.d_model << ", L " << p.seq_len;
  const EncodingInputs& uses = encoding_info(p.encoding).inputs;
  if (uses.base) os << ", base " << p.base;
  if (uses.layout) os << ", " << to_string(p.layout);
  if (uses.table) {
    os << ", seed " << p.seed << ", max_len " << p.max_len;
    if (p.seq_len > p.max_len) os << " (positions >= " << p.max_len << " have no learned row: drawn as missing)";
  }
  if (b.similarity_stride > 1)
    os << "; similarity sampled every " << b.similarity_stride << " positions (general path)";
  return os.str();
}

// The waves view's channel list from its text (defaults when empty or not understood). Returns a note
// for the status line when the text was not understood.
std::string resolve_wave_channels(BasicsOptions& b) {
  const int width = int(b.encoding.cols);
  const auto parsed = parse_channel_list(b.waves.channels_text, width);
  if (!b.waves.channels_text.empty() && parsed) {
    b.wave_channels = *parsed;
    return "";
  }
  b.wave_channels = default_wave_channels(width);
  if (b.waves.channels_text.empty()) return "";
  return "; channels \"" + b.waves.channels_text + "\" not understood (use e.g. 0, 1, 8-11; each < " +
         std::to_string(width) + "): showing defaults";
}

// The page's update: recomputes what its dirty flags name (everything when the page was marked as a whole) and
// writes the status line itself: the summary, or what core refused (the previous results stay). Never throws.
void update(AppState& s) {
  BasicsOptions& b = s.pages.basics;
  if (!b.dirty.any()) b.dirty = BasicsDirty{};
  const auto start = std::chrono::steady_clock::now();
  std::string channel_note;
  try {
    if (b.dirty.encoding) {
      for (int i = 0; i < kPageCount; ++i)  // the pages that follow the sidebar's parameters recompute too
        if (page_models()[std::size_t(i)]->follows_params) s.pages.mark(Page(i));
      recompute_encoding(b, s.params);
      b.dirty.similarity = b.dirty.binary = b.dirty.colors = b.dirty.channels = true;
    }
    if (b.has_results) {
      if (b.dirty.similarity) {
        recompute_similarity(b);
        b.dirty.colors = true;
      }
      if (b.dirty.binary) {
        b.binary_view.positions = std::clamp(b.binary_view.positions, int(limits::binary_positions.min), int(limits::binary_positions.max));
        compute_binary_analogy(b.binary_view.positions, b.frequencies, b.binary_view.morph, b.binary);
      }
      if (b.dirty.colors) {
        update_encoding_colors(b);
        update_similarity_colors(b);
      }
      channel_note = resolve_wave_channels(b);  // cheap; its note stays in the status line
      s.highlight_position = std::clamp(s.highlight_position, 0, b.computed.seq_len - 1);
    }
    s.status = summary(b) + channel_note;
    s.status_is_error = !channel_note.empty();
  } catch (const ParamError& e) {
    s.status = std::string("Not applied: ") + e.what();
    s.status_is_error = true;
  } catch (const std::bad_alloc&) {
    s.status = "Not applied: out of memory for these sizes";
    s.status_is_error = true;
  }
  b.dirty = BasicsDirty{false, false, false, false, false};
  s.last_recompute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  s.change_recompute_ms = s.last_recompute_ms;
}

bool pending(const AppState& s) { return s.pages.basics.dirty.any(); }

void heatmaps(PageStates& pages, std::vector<plot::HeatmapImage*>& out) {
  out.push_back(&pages.basics.encoding_image);
  out.push_back(&pages.basics.similarity_image);
}

// A new position range for the waves replaces the plot's zoom.
// The keys read_extra reads besides the settings table's (PageModel::extra_keys).
inline constexpr const char* kExtraKeys[] = {"waves_first", "waves_last"};

bool read_extra(const nlohmann::json& v, PageStates& pages) {
  if (v.contains("waves_first") || v.contains("waves_last")) pages.basics.waves.range_changed = true;
  return false;
}

void check(const PageStates& pages) {
  const BasicsOptions& b = pages.basics;
  check_range("encoding_colormap", b.encoding_view.colormap_choice, 0, plot::kColormapCount);
  check_range("similarity_colormap", b.similarity_view.colormap_choice, 0, plot::kColormapCount);
}

// Its keys of the state JSON's "view" object, beside the window's own (theme, zoom, layout, highlight).
constexpr PageSetting kSettings[] = {
    {.key = "channels", .help = "The waves' channels, comma-separated (empty: 0, 1, 2, 3, d/2, d-2, d-1)",
     .access = member<&PageStates::basics, &BasicsOptions::waves, &WavesOptions::channels_text>()},
    {.key = "waves_first", .help = "The waves' first position (clamped to [0, L))",
     .access = member<&PageStates::basics, &BasicsOptions::waves, &WavesOptions::first_position>()},
    {.key = "waves_last", .help = "The waves' last position (-1: L - 1)",
     .access = member<&PageStates::basics, &BasicsOptions::waves, &WavesOptions::last_position>()},
    {.key = "metric", .help = "The similarity: dot product or cosine",
     .access = choice_member<kMetricNames, &PageStates::basics, &BasicsOptions::similarity_view, &SimilarityOptions::metric>()},
    {.key = "compare_offset", .help = "The similarity's second row: the highlight + this",
     .access = member<&PageStates::basics, &BasicsOptions::similarity_view, &SimilarityOptions::compare_offset>(),
     .limit = &limits::compare_offset},
    {.key = "encoding_colormap", .help = "The encoding's colour map (0: automatic, else a colour map + 1)",
     .access = member<&PageStates::basics, &BasicsOptions::encoding_view, &EncodingViewOptions::colormap_choice>()},
    {.key = "similarity_colormap", .help = "The similarity's colour map (0: automatic, else a colour map + 1)",
     .access = member<&PageStates::basics, &BasicsOptions::similarity_view, &SimilarityOptions::colormap_choice>()},
    {.key = "binary_positions", .help = "The binary table's rows 0..n-1",
     .access = member<&PageStates::basics, &BasicsOptions::binary_view, &BinaryOptions::positions>(),
     .limit = &limits::binary_positions},
    {.key = "binary_morph", .help = "The binary table from base 2's ladder (0) to the chosen base's frequencies (1)",
     .access = member<&PageStates::basics, &BasicsOptions::binary_view, &BinaryOptions::morph>(),
     .limit = &limits::binary_morph},
};

NdArray export_encoding(const AppState& s) {
  const Matrix& encoding = s.pages.basics.encoding;
  if (encoding.rows == 0 || encoding.cols == 0) throw ParamError("out", "nothing computed yet for the encoding");
  return NdArray::from_matrix(encoding);
}

}  // namespace
}  // namespace basics_local

extern const PageModel basics_page{.name = "basics", .title = "Basics", .json_key = "view", .always_current = true,
                                   .update = basics_local::update, .pending = basics_local::pending,
                                   .export_data = basics_local::export_encoding, .settings = basics_local::kSettings,
                                   .read_extra = basics_local::read_extra, .extra_keys = basics_local::kExtraKeys, .check = basics_local::check, .heatmaps = basics_local::heatmaps};


}  // namespace peviz::app
