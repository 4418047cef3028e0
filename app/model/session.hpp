// Remembering the session between runs: parameters, view options, layout and recent files, as JSON in the
// per-user config folder (never the working directory).
#pragma once
#include <filesystem>
#include <string>

#include "app/model/app_state.hpp"
#include "core/base/limits.hpp"

namespace peviz::app {

// $XDG_CONFIG_HOME/peviz/session.json, else $HOME/.config/peviz/session.json; empty when neither
// variable is set.
std::filesystem::path session_path();

struct WindowSize {
  int width = int(limits::window_width.fallback), height = int(limits::window_height.fallback);
};

// Reads the session into `s` and `size`. Missing file: returns true and changes nothing. A bad
// file or invalid parameters (checked by core's validate): keeps the defaults and returns false
// with a reason in `problem`.
bool load_session(const std::filesystem::path& path, AppState& s, WindowSize& size, std::string& problem);

// Writes atomically (creating the folder). Returns false with a reason on failure.
bool save_session(const std::filesystem::path& path, const AppState& s, const WindowSize& size, std::string& problem);

}  // namespace peviz::app
