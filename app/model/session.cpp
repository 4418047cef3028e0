// Session file: the window state as JSON (state_json.hpp) plus the window size.
#include "app/model/session.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/state_json.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

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
    if (!j.is_object() || !j.contains("params")) throw ParamError("session", "has no \"params\" object");
    WindowSize loaded_size = size;
    if (j.contains("window")) {
      const json& w = j.at("window");
      // Read as double and clamp before converting (a huge number is no undefined int conversion).
      loaded_size.width = int(std::clamp(w.at("width").get<double>(), limits::window_width.min, limits::window_width.max));
      loaded_size.height =
          int(std::clamp(w.at("height").get<double>(), limits::window_height.min, limits::window_height.max));
    }
    std::vector<std::string> recent = s.recent_files;
    if (j.contains("recent_files")) recent = j.at("recent_files").get<std::vector<std::string>>();
    if (recent.size() > kMostRecentFiles) recent.resize(kMostRecentFiles);
    apply_state_json(j, s);  // all or nothing, through core's validation
    size = loaded_size;
    s.recent_files = std::move(recent);
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
  json j = state_to_json(s);
  j["version"] = 2;
  j["window"] = {{"width", size.width}, {"height", size.height}};
  j["recent_files"] = s.recent_files;  // File > Open's list; not in state_to_json, which figures and presets carry
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
