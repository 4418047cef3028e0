// Presets: named partial window states (JSON files) shipped in assets/presets/ and saved by the user in
// $XDG_CONFIG_HOME/peviz/presets/ (else ~/.config/peviz/presets/). Applied through apply_state_json.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/app_state.hpp"

namespace peviz::app {

// The user's preset folder: next to the session file (session_path()), "presets/". Empty when
// neither XDG_CONFIG_HOME nor HOME is set.
std::filesystem::path user_presets_dir();

// Checks a preset document: an object with a non-empty string "name", a string "description" and an
// object "state" that apply_state_json accepts (dry run on a scratch AppState). Throws ParamError
// naming the key ("name", "state", or the state key that failed).
void check_preset_json(const nlohmann::json& j);

// Reads and checks one file. Never throws: a broken file comes back with `error` set (naming the file).
PresetEntry read_preset_file(const std::filesystem::path& path, bool user);

// Every *.json in `shipped_dir` (sorted by file name), then every one in `user_dir`. Missing folders
// are skipped; broken files are listed with their error.
std::vector<PresetEntry> list_presets(const std::filesystem::path& shipped_dir, const std::filesystem::path& user_dir);
// The same over find_data_dir("assets/presets") and user_presets_dir().
std::vector<PresetEntry> list_presets();

// The usable preset whose name or file stem matches `name` (case-insensitive); nullptr when none.
const PresetEntry* find_preset(const std::vector<PresetEntry>& presets, std::string_view name);

// Applies a usable preset (all or nothing) and sets teach.notice. Returns false, with the reason in
// the notice, for a broken preset or a refused state.
bool apply_preset(const PresetEntry& p, AppState& s);

// What a saved preset stores: state_to_json without the window's look and layout (theme, zoom,
// sidebar and splitter sizes) and without a learned file name.
nlohmann::json preset_state_of(const AppState& s);

// "My lecture 3" -> "my-lecture-3": letters and digits kept (lower case), runs of anything else one '-'.
// Empty when the name has no letter or digit.
std::string preset_file_stem(const std::string& name);

// Writes {"name", "description", "state": preset_state_of(s)} atomically to <dir>/<stem>.json
// (creating the folder) and returns the path. Throws ParamError("preset", reason).
std::filesystem::path save_user_preset(const std::string& name, const AppState& s, const std::filesystem::path& dir);

}  // namespace peviz::app
