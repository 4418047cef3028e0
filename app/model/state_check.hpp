// The invariant a monkey run checks after every frame: every parameter set in the state passes core's
// validation, and the state survives a round trip through state JSON. Pure (no ImGui, no GL).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "app/model/app_state.hpp"

namespace peviz::app {

// "" when the state is valid, else one line saying where and what: "<where>: <parameter>: <rule>"
// (where = "params", a page's JSON key, or "round trip"). The checks, in order:
//  1. core validation of every parameter set: the sidebar's EncodingParams (validate), then each page's own
//     check (PageModel::check: the validators its update step calls);
//  2. state JSON: state_to_json -> text -> apply to a default AppState -> state_to_json gives the same
//     JSON (the path of a session save and load), except "learned_file" (a loaded table is named, not
//     embedded). A refusal or any changed value is reported with its JSON path.
std::string check_state(const AppState& s);

// The first difference between two JSON values as "<path>: <a> -> <b>" ("" when equal); the path
// joins object keys and array indices with '.'.
std::string first_json_difference(const nlohmann::json& a, const nlohmann::json& b, const std::string& path = "");

}  // namespace peviz::app
