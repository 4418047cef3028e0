// Session file: JSON with the parameters, view options and layout.
#include "app/session.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <ostream>

#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"

namespace peviz::app {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path session_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return fs::path(xdg) / "peviz" / "session.json";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".config" / "peviz" / "session.json";
  return {};
}

bool load_session(const fs::path& path, AppState& s, WindowSize& size, std::string& problem) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec)) return true;
  try {
    std::ifstream in(path);
    const json j = json::parse(in);
    AppState loaded = s;
    const json& p = j.at("params");
    EncodingParams& e = loaded.params;
    e.encoding = parse_encoding(p.at("encoding").get<std::string>()).value_or(e.encoding);
    e.layout = parse_layout(p.at("layout").get<std::string>()).value_or(e.layout);
    e.d_model = p.at("d_model").get<int>();
    e.seq_len = p.at("seq_len").get<int>();
    e.base = p.at("base").get<double>();
    e.seed = p.at("seed").get<std::uint64_t>();
    e.max_len = p.at("max_len").get<int>();
    e.signed_bits = p.at("signed_bits").get<bool>();
    validate(e);
    if (e.d_model > kGuiMaxDModel || e.seq_len > kGuiMaxSeqLen) throw ParamError("session", "sizes above the GUI's range");
    // View options: any missing key keeps its default (older session files stay readable).
    const json& v = j.at("view");
    loaded.theme = v.value("theme", std::string("dark")) == "light" ? Theme::light : Theme::dark;
    loaded.ui_zoom = std::clamp(v.value("ui_zoom", loaded.ui_zoom), 0.5f, 3.0f);
    loaded.layout.sidebar_width = v.value("sidebar_width", loaded.layout.sidebar_width);
    loaded.layout.split_x = v.value("split_x", loaded.layout.split_x);
    loaded.layout.split_y = v.value("split_y", loaded.layout.split_y);
    loaded.highlight_position = v.value("highlight", loaded.highlight_position);
    loaded.waves.channels_text = v.value("channels", loaded.waves.channels_text);
    loaded.waves.first_position = std::max(0, v.value("waves_first", loaded.waves.first_position));
    loaded.waves.last_position = std::max(-1, v.value("waves_last", loaded.waves.last_position));
    loaded.similarity_view.metric = parse_metric(v.value("metric", std::string("cosine"))).value_or(Metric::cosine);
    loaded.similarity_view.compare_offset = v.value("compare_offset", loaded.similarity_view.compare_offset);
    loaded.encoding_view.colormap_choice =
        std::clamp(v.value("encoding_colormap", loaded.encoding_view.colormap_choice), 0, plot::kColormapCount);
    loaded.similarity_view.colormap_choice =
        std::clamp(v.value("similarity_colormap", loaded.similarity_view.colormap_choice), 0, plot::kColormapCount);
    loaded.binary_view.positions = v.value("binary_positions", loaded.binary_view.positions);
    loaded.binary_view.morph = v.value("binary_morph", loaded.binary_view.morph);
    const json& w = j.at("window");
    size.width = std::clamp(w.at("width").get<int>(), 320, 16384);
    size.height = std::clamp(w.at("height").get<int>(), 240, 16384);
    s = std::move(loaded);
    s.dirty = DirtyFlags{};
    s.fonts_dirty = true;
    return true;
  } catch (const std::exception& ex) {
    problem = "session " + path.string() + " ignored: " + ex.what();
    return false;
  }
}

bool save_session(const fs::path& path, const AppState& s, const WindowSize& size, std::string& problem) {
  if (path.empty()) {
    problem = "no HOME or XDG_CONFIG_HOME: session not saved";
    return false;
  }
  const EncodingParams& e = s.params;
  json j;
  j["version"] = 1;
  j["params"] = {{"encoding", std::string(to_string(e.encoding))}, {"layout", std::string(to_string(e.layout))},
                 {"d_model", e.d_model}, {"seq_len", e.seq_len}, {"base", e.base}, {"seed", e.seed},
                 {"max_len", e.max_len}, {"signed_bits", e.signed_bits}};
  j["view"] = {{"theme", s.theme == Theme::light ? "light" : "dark"},
               {"ui_zoom", s.ui_zoom},
               {"sidebar_width", s.layout.sidebar_width},
               {"split_x", s.layout.split_x},
               {"split_y", s.layout.split_y},
               {"highlight", s.highlight_position},
               {"channels", s.waves.channels_text},
               {"waves_first", s.waves.first_position},
               {"waves_last", s.waves.last_position},
               {"metric", std::string(to_string(s.similarity_view.metric))},
               {"compare_offset", s.similarity_view.compare_offset},
               {"encoding_colormap", s.encoding_view.colormap_choice},
               {"similarity_colormap", s.similarity_view.colormap_choice},
               {"binary_positions", s.binary_view.positions},
               {"binary_morph", s.binary_view.morph}};
  j["window"] = {{"width", size.width}, {"height", size.height}};
  try {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    write_file_atomically(path.string(), [&](std::ostream& out) { out << j.dump(2) << "\n"; }, "session");
    return true;
  } catch (const std::exception& ex) {
    problem = ex.what();
    return false;
  }
}

}  // namespace peviz::app
