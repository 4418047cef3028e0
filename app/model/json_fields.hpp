// Reading the state JSON's fields: typed, range-checked against core's limits table, naming the key.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/rope/rope.hpp"

namespace peviz::app {

// Reads key `k` of object `o` into `v` when present. Numbers are checked before converting:
// nlohmann's get<int>() of 1e300 is undefined behaviour (found by state_json_fuzz).
template <class T>
void read(const nlohmann::json& o, const char* k, T& v) {
  if (!o.is_object() || !o.contains(k)) return;
  const nlohmann::json& x = o.at(k);
  const auto wrong = [&] { return ParamError(k, "has the wrong type: " + x.dump()); };
  if constexpr (std::is_same_v<T, bool>) {
    if (!x.is_boolean()) throw wrong();
    v = x.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!x.is_number()) throw wrong();
    const double d = x.get<double>();
    if (!(d >= double(std::numeric_limits<T>::min()) && d <= double(std::numeric_limits<T>::max())) ||
        d != std::floor(d))
      throw ParamError(k, "must be an integer in the parameter's range, got " + x.dump());
    if (x.is_number_unsigned()) v = T(x.get<std::uint64_t>());
    else if (x.is_number_integer()) v = T(x.get<std::int64_t>());
    else v = T(d);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!x.is_number()) throw wrong();
    const double d = x.get<double>();
    if (!std::isfinite(d) || std::abs(d) > double(std::numeric_limits<T>::max()))
      throw ParamError(k, "must be a finite number, got " + x.dump());
    v = T(d);
  } else {
    if (!x.is_string()) throw wrong();
    v = x.get<T>();
  }
}

// Reads key `k` into `v` and checks it against the limit (ParamError names the limit's name).
template <class T>
void read_limited(const nlohmann::json& o, const char* k, const Limit& l, T& v) {
  read(o, k, v);
  if constexpr (std::is_integral_v<T>) check_int(l, (long long)v);
  else check_real(l, double(v));
}

// Throws ParamError(key, "must be in [lo, hi], got v") outside the closed range (NaN included).
void check_range(const char* key, double v, double lo, double hi);

// Object `name` of `j`, or an empty object when absent; throws when it is not an object.
const nlohmann::json& section(const nlohmann::json& j, const char* name);

// A RoPE parameter set as the state JSON spells it (head_dim, rotary_dim, base, pairing): read
// (validated through core) and written.
void read_rope_json(const nlohmann::json& o, RopeParams& r);
nlohmann::json rope_json(const RopeParams& r);

}  // namespace peviz::app
