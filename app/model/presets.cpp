// Preset files: listing, checking, applying and saving (the state inside is state_json's format).
#include "app/model/presets.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <system_error>

#include "app/model/data_files.hpp"
#include "app/model/session.hpp"
#include "app/model/state_json.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

fs::path user_presets_dir() {
  const fs::path session = session_path();
  return session.empty() ? fs::path() : session.parent_path() / "presets";
}

void check_preset_json(const json& j) {
  if (!j.is_object()) throw ParamError("preset", "must be a JSON object with \"name\", \"description\" and \"state\"");
  if (!j.contains("name") || !j.at("name").is_string() || j.at("name").get<std::string>().empty())
    throw ParamError("name", "must be a non-empty string");
  if (!j.contains("description") || !j.at("description").is_string())
    throw ParamError("description", "must be a string");
  if (!j.contains("state") || !j.at("state").is_object()) throw ParamError("state", "must be a JSON object");
  auto scratch = std::make_unique<AppState>();
  apply_state_json(j.at("state"), *scratch);  // throws ParamError naming the bad key
}

PresetEntry read_preset_file(const fs::path& path, bool user) {
  PresetEntry p;
  p.path = path.string();
  p.user = user;
  p.name = path.stem().string();
  try {
    std::ifstream in(path);
    if (!in) throw ParamError("preset", "cannot be read");
    json j;
    try {
      j = json::parse(in);
    } catch (const json::exception& e) {
      throw ParamError("preset", std::string("is not valid JSON (") + e.what() + ")");
    }
    check_preset_json(j);
    p.name = j.at("name").get<std::string>();
    p.description = j.at("description").get<std::string>();
    p.state = j.at("state");
  } catch (const ParamError& e) {
    p.error = path.filename().string() + ": " + e.what();
  }
  return p;
}

std::vector<PresetEntry> list_presets(const fs::path& shipped_dir, const fs::path& user_dir) {
  std::vector<PresetEntry> out;
  for (const fs::path& f : json_files_in(shipped_dir)) out.push_back(read_preset_file(f, false));
  for (const fs::path& f : json_files_in(user_dir)) out.push_back(read_preset_file(f, true));
  return out;
}

std::vector<PresetEntry> list_presets() { return list_presets(find_data_dir("assets/presets"), user_presets_dir()); }

const PresetEntry* find_preset(const std::vector<PresetEntry>& presets, std::string_view name) {
  const std::string want = lower(name);
  for (const PresetEntry& p : presets)
    if (p.error.empty() && (lower(p.name) == want || lower(fs::path(p.path).stem().string()) == want)) return &p;
  return nullptr;
}

bool apply_preset(const PresetEntry& p, AppState& s) {
  if (!p.error.empty()) {
    s.teach.notice = "Preset not applied: " + p.error;
    s.teach.notice_is_error = true;
    return false;
  }
  try {
    apply_state_json(p.state, s);
  } catch (const ParamError& e) {
    s.teach.notice = "Preset " + p.name + " not applied: " + e.what();
    s.teach.notice_is_error = true;
    return false;
  }
  s.teach.notice = "Preset: " + p.name;
  s.teach.notice_is_error = false;
  return true;
}

json preset_state_of(const AppState& s) {
  json j = state_to_json(s);
  j.erase("learned_file");
  for (const char* k : {"theme", "ui_zoom", "sidebar_width", "split_x", "split_y"}) j["view"].erase(k);
  return j;
}

std::string preset_file_stem(const std::string& name) {
  std::string out;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += char(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

fs::path save_user_preset(const std::string& name, const AppState& s, const fs::path& dir) {
  const std::string stem = preset_file_stem(name);
  if (stem.empty()) throw ParamError("preset", "the name needs at least one letter or digit");
  if (dir.empty()) throw ParamError("preset", "no HOME or XDG_CONFIG_HOME: nowhere to save");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw ParamError("preset", "cannot create " + dir.string() + ": " + ec.message());
  const json j = {{"name", name}, {"description", "Saved from the window."}, {"state", preset_state_of(s)}};
  const fs::path path = dir / (stem + ".json");
  write_file_atomically(path.string(), [&](std::ostream& out) { out << j.dump(2) << "\n"; }, "preset");
  return path;
}

}  // namespace peviz::app
