// The window's state <-> JSON, validated through core (session, PNG metadata, presets, lessons).
#include "app/model/state_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

using nlohmann::json;

namespace {

// The keys each object of the state holds; a key outside them is refused (a typo must not pass as a default).
// The top level adds the pages' objects (PageModel::json_key); "version", "window" and "recent_files" are the
// session file's.
constexpr const char* kTopKeys[] = {"params", "view", "page", "learned_file", "version", "window", "recent_files"};
constexpr const char* kParamsKeys[] = {"encoding", "layout", "d_model", "seq_len", "base", "seed", "max_len", "signed_bits"};
// "view" adds Basics' settings (its json_key).
constexpr const char* kViewKeys[] = {"theme", "ui_zoom", "sidebar_width", "split_x", "split_y", "panel", "highlight"};

// Throws ParamError(key, ...) for the first key of `object` outside `known`, naming where it is and what is read.
void check_keys(const json& object, const std::vector<std::string>& known, const std::string& where) {
  if (!object.is_object()) return;
  for (const auto& item : object.items())
    if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
      std::string names;
      for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
      throw ParamError(item.key(), "is not a key of " + where + " (it holds " + names + ")");
    }
}

// Every object of the state holds only keys peviz reads: the top level, "params" and each page's object.
void check_known_keys(const json& j) {
  std::vector<std::string> top(std::begin(kTopKeys), std::end(kTopKeys));
  for (const PageModel* page : page_models()) {
    if (!*page->json_key) continue;
    std::vector<std::string> keys(page->extra_keys.begin(), page->extra_keys.end());
    for (const PageSetting& setting : page->settings) keys.emplace_back(setting.key);
    if (std::string_view(page->json_key) == "view") keys.insert(keys.end(), std::begin(kViewKeys), std::end(kViewKeys));
    else top.emplace_back(page->json_key);
    if (j.contains(page->json_key)) check_keys(j.at(page->json_key), keys, "the state's \"" + std::string(page->json_key) + "\"");
  }
  check_keys(j, top, "a peviz state");
  if (j.contains("params"))
    check_keys(j.at("params"), {std::begin(kParamsKeys), std::end(kParamsKeys)}, "the state's \"params\"");
}

void apply_params(const json& p, EncodingParams& e) {
  std::string encoding(to_string(e.encoding)), layout(to_string(e.layout));
  read(p, "encoding", encoding);
  read(p, "layout", layout);
  const auto enc = parse_encoding(encoding);
  if (!enc) throw ParamError("encoding", "must be " + encoding_names() + ", got " + encoding);
  const auto lay = parse_layout(layout);
  if (!lay) throw ParamError("layout", "must be interleaved or halves, got " + layout);
  e.encoding = *enc;
  e.layout = *lay;
  read(p, "d_model", e.d_model);
  read(p, "seq_len", e.seq_len);
  read(p, "base", e.base);
  read(p, "seed", e.seed);
  read(p, "max_len", e.max_len);
  read(p, "signed_bits", e.signed_bits);
  // A table from a file cannot come back from JSON: fall back to the random table of that size.
  if (p.contains("d_model") || p.contains("max_len")) {
    e.learned_table.reset();
    e.learned_source.clear();
  }
  // The window's ranges first: they are the tighter ones, so an error names the range the window allows.
  check_window_int(limits::d_model, e.d_model);
  check_window_int(limits::seq_len, e.seq_len);
  check_window_real(limits::base, e.base);
  check_window_int(limits::max_len, e.max_len);
  validate(e);
}

void apply_view(const json& v, AppState& s) {
  std::string theme = s.theme == Theme::light ? "light" : "dark";
  read(v, "theme", theme);
  if (theme != "light" && theme != "dark") throw ParamError("theme", "must be dark or light, got " + theme);
  s.theme = theme == "light" ? Theme::light : Theme::dark;
  read_limited(v, "ui_zoom", limits::ui_zoom, s.ui_zoom);
  // A width saved by an older version may lie under today's minimum: the layout is clamped, not refused.
  read(v, "sidebar_width", s.layout.sidebar_width);
  s.layout.sidebar_width = std::clamp(s.layout.sidebar_width, float(limits::sidebar_width.min), float(limits::sidebar_width.max));
  read_limited(v, "split_x", limits::pane_split, s.layout.split_x);
  read_limited(v, "split_y", limits::pane_split, s.layout.split_y);
  if (v.contains("panel")) {
    std::string panel;
    read(v, "panel", panel);
    const auto* it = std::find_if(std::begin(kBasicsPanels), std::end(kBasicsPanels),
                                  [&](const BasicsPanelInfo& p) { return panel == p.name; });
    if (it == std::end(kBasicsPanels)) throw ParamError("panel", "must be waves, encoding, similarity or binary, got " + panel);
    s.layout.panel = it->panel;
  }
  read(v, "highlight", s.highlight_position);
  s.highlight_position = std::clamp(s.highlight_position, 0, std::max(s.params.seq_len - 1, 0));
}

// Every page's options object, through its registry entry (all or nothing is apply_state_json's job).
void apply_pages(const json& j, PageStates& a) {
  for (const PageModel* page : page_models())
    if (*page->json_key) read_page_json(*page, section(j, page->json_key), a);
}

}  // namespace

json state_to_json(const AppState& s) {
  const EncodingParams& e = s.params;
  const PageStates& a = s.pages;
  json j;
  j["params"] = {{"encoding", std::string(to_string(e.encoding))}, {"layout", std::string(to_string(e.layout))},
                 {"d_model", e.d_model}, {"seq_len", e.seq_len}, {"base", e.base}, {"seed", e.seed},
                 {"max_len", e.max_len}, {"signed_bits", e.signed_bits}};
  if (e.learned_table) j["learned_file"] = a.learned.loaded_name;
  j["page"] = page_name(a.page);
  j["view"] = {{"theme", s.theme == Theme::light ? "light" : "dark"},
               {"ui_zoom", s.ui_zoom},
               {"sidebar_width", s.layout.sidebar_width},
               {"split_x", s.layout.split_x},
               {"split_y", s.layout.split_y},
               {"panel", kBasicsPanels[int(s.layout.panel)].name},
               // Within the saved length, as reading clamps it: the sidebar may have shortened L this frame, before
               // the update step clamps the highlight.
               {"highlight", std::clamp(s.highlight_position, 0, std::max(s.params.seq_len - 1, 0))}};
  for (const PageModel* page : page_models())
    if (*page->json_key) j[page->json_key].update(write_page_json(*page, a));  // Basics adds its keys to "view"
  return j;
}

namespace {

// Applies `j` to the inputs of `s`; throws on the first bad key (leaving `s` partly changed).
void apply_inputs(const json& j, AppState& s) {
  if (!j.is_object()) throw ParamError("state", "must be a JSON object");
  check_known_keys(j);
  apply_params(section(j, "params"), s.params);
  apply_view(section(j, "view"), s);
  if (j.contains("page")) {
    if (!j.at("page").is_string()) throw ParamError("page", "must be a page name");
    const auto p = parse_page(j.at("page").get<std::string>());
    if (!p) throw ParamError("page", "must be one of " + page_names() + ", got " + j.at("page").get<std::string>());
    s.pages.page = *p;
  }
  apply_pages(j, s.pages);
}

// Basics' inputs alone, without its cached results.
BasicsOptions basics_inputs(const BasicsOptions& b) {
  BasicsOptions inputs;
  inputs.waves = b.waves;
  inputs.encoding_view = b.encoding_view;
  inputs.similarity_view = b.similarity_view;
  inputs.binary_view = b.binary_view;
  inputs.dirty = b.dirty;
  return inputs;
}

}  // namespace

void apply_state_json(const json& j, AppState& s) {
  // Dry run on a copy of the inputs (Basics' big cached results are set aside meanwhile, not copied): an error
  // leaves `s` untouched.
  AppState trial;
  trial.params = s.params;
  trial.theme = s.theme;
  trial.ui_zoom = s.ui_zoom;
  trial.layout = s.layout;
  trial.highlight_position = s.highlight_position;
  BasicsOptions& b = s.pages.basics;
  BasicsOptions cached = std::exchange(b, basics_inputs(b));
  trial.pages = s.pages;
  b = std::move(cached);
  apply_inputs(j, trial);

  const Theme theme = s.theme;
  const float zoom = s.ui_zoom;
  apply_inputs(j, s);  // cannot fail now: same JSON, same starting values
  s.pages.dirty.fill(true);  // everything recomputes: cheap next to loading a file, and always right
  s.pages.basics.dirty = BasicsDirty{};
  if (s.theme != theme || s.ui_zoom != zoom) s.fonts_dirty = true;
}

}  // namespace peviz::app
