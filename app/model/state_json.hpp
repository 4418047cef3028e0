// The window's state as JSON: one format for the session file, figure metadata (PNG tEXt), presets
// and lesson steps. Applying is partial (missing keys keep their values) and all-or-nothing.
#pragma once
#include <nlohmann/json.hpp>

#include "app/model/app_state.hpp"

namespace peviz::app {

// Everything that decides what the views show: "params" (the sidebar's encoding parameters), "page",
// "view" (theme, zoom, layout, options of the four Basics views) and one object per other page under its
// PageModel::json_key, written from its settings table. A table loaded from a file is named ("learned_file") but
// not embedded.
nlohmann::json state_to_json(const AppState& s);

// Applies the keys present in `j` to `s`. Every parameter set goes through core's validation (and the
// GUI's ranges); on any error (wrong type, unknown name, a key peviz does not read, out of range) `s` is left
// unchanged and a ParamError names the offending key. Marks what changed dirty.
void apply_state_json(const nlohmann::json& j, AppState& s);

}  // namespace peviz::app
