// The monkey run's per-frame invariant: core validation of every parameter set, and a state JSON round trip.
#include "app/model/state_check.hpp"

#include "app/model/page_model.hpp"
#include "app/model/state_json.hpp"
#include "core/encodings/params.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

using nlohmann::json;

namespace {

std::string round_trip_problem(const AppState& s) {
  json before = state_to_json(s);
  before.erase("learned_file");  // a loaded table is named, not embedded: a fresh state has the random one
  AppState fresh;
  try {
    apply_state_json(json::parse(before.dump()), fresh);
  } catch (const ParamError& e) {
    return std::string("refused: ") + e.what();
  } catch (const json::exception& e) {
    return std::string("not JSON: ") + e.what();
  }
  return first_json_difference(before, state_to_json(fresh));
}

}  // namespace

std::string first_json_difference(const json& a, const json& b, const std::string& path) {
  const std::string here = path.empty() ? "(top)" : path;
  auto join = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (a.type() != b.type() && !(a.is_number() && b.is_number())) return here + ": " + a.dump() + " -> " + b.dump();
  if (a.is_object()) {
    for (const auto& [key, value] : a.items())
      if (!b.contains(key)) return join(key) + ": " + value.dump() + " -> (missing)";
    for (const auto& [key, value] : b.items())
      if (!a.contains(key)) return join(key) + ": (missing) -> " + value.dump();
    for (const auto& [key, value] : a.items())
      if (std::string d = first_json_difference(value, b.at(key), join(key)); !d.empty()) return d;
    return "";
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return here + ": " + a.dump() + " -> " + b.dump();
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::string d = first_json_difference(a[i], b[i], join(std::to_string(i))); !d.empty()) return d;
    return "";
  }
  return a == b ? "" : here + ": " + a.dump() + " -> " + b.dump();
}

std::string check_state(const AppState& s) {
  try {
    validate(s.params);
  } catch (const ParamError& e) {
    return std::string("params: ") + e.what();
  }
  // Each page checks its own settings together (PageModel::check), as reading them does.
  for (const PageModel* page : page_models()) {
    if (!page->check) continue;
    try {
      page->check(s.pages);
    } catch (const ParamError& e) {
      return std::string(page->json_key) + ": " + e.what();
    }
  }
  if (std::string problem = round_trip_problem(s); !problem.empty()) return "round trip: " + problem;
  return "";
}

}  // namespace peviz::app
