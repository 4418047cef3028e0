// The monkey run's per-frame invariant: core validation of every parameter set, and a state JSON round trip.
#include "app/model/state_check.hpp"

#include <functional>
#include <utility>

#include "app/model/state_json.hpp"
#include "core/encodings/alibi.hpp"
#include "core/models/context_extension.hpp"
#include "core/encodings/distance_series.hpp"
#include "core/base/errors.hpp"
#include "core/rope/rope.hpp"
#include "core/encodings/shaw.hpp"
#include "core/encodings/t5_buckets.hpp"

namespace peviz::app {

using nlohmann::json;

namespace {

RopeParams rope_of(int head_dim, double base) {
  RopeParams r;
  r.head_dim = head_dim;
  r.base = base;
  return r;
}

// Each parameter set of the state with the core validators its update step relies on. A validator
// throws ParamError; `where` names the set in the message.
using Check = std::pair<const char*, std::function<void(const AppState&)>>;

const std::vector<Check>& core_checks() {
  static const std::vector<Check> checks = {
      {"params", [](const AppState& s) { validate(s.params); }},
      {"rope_clocks", [](const AppState& s) { validate(s.pages.rope_clocks.rope); }},
      {"rope_decay", [](const AppState& s) {
         for (double base : kDecayBases) validate(rope_of(s.pages.rope_decay.head_dim, base));
       }},
      {"context_extension", [](const AppState& s) { compare_context_extensions(s.pages.context_extension.params); }},
      {"alibi", [](const AppState& s) { validate_alibi_heads(s.pages.alibi.heads); }},
      {"t5_shaw", [](const AppState& s) {
         const T5ShawOptions& o = s.pages.t5_shaw;
         T5BucketParams t5;
         t5.query_len = t5.key_len = o.seq_len;
         t5.num_buckets = o.num_buckets;
         t5.max_distance = o.max_distance;
         t5.bidirectional = !o.causal;
         validate(t5);
         ShawParams shaw;
         shaw.query_len = shaw.key_len = o.seq_len;
         shaw.max_relative = o.max_relative;
         validate(shaw);
       }},
      {"distance", [](const AppState& s) { validate(s.pages.distance_chart.params); }},
      {"precision", [](const AppState& s) {
         const PrecisionOptions& o = s.pages.precision;
         if (o.use_rope) validate(rope_of(o.head_dim, o.base));
       }},
  };
  return checks;
}

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
  for (const auto& [where, check] : core_checks()) {
    try {
      check(s);
    } catch (const ParamError& e) {
      return std::string(where) + ": " + e.what();
    }
  }
  if (std::string problem = round_trip_problem(s); !problem.empty()) return "round trip: " + problem;
  return "";
}

}  // namespace peviz::app
