// Reading the state JSON's fields (see json_fields.hpp).
#include "app/model/json_fields.hpp"

#include <cstdio>

namespace peviz::app {

namespace {
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}
}  // namespace

void check_range(const char* key, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi))
    throw ParamError(key, "must be in [" + number(lo) + ", " + number(hi) + "], got " + number(v));
}

const nlohmann::json& section(const nlohmann::json& j, const char* name) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (!j.contains(name)) return empty;
  if (!j.at(name).is_object()) throw ParamError(name, "must be a JSON object");
  return j.at(name);
}

void read_rope_json(const nlohmann::json& o, RopeParams& r) {
  read(o, "head_dim", r.head_dim);
  read(o, "rotary_dim", r.rotary_dim);
  read(o, "base", r.base);
  std::string pairing(to_string(r.pairing));
  read(o, "pairing", pairing);
  r.pairing = parse_pairing(pairing);
  validate(r);
}

nlohmann::json rope_json(const RopeParams& r) {
  return {{"head_dim", r.head_dim}, {"rotary_dim", r.rotary_dim}, {"base", r.base},
          {"pairing", std::string(to_string(r.pairing))}};
}

}  // namespace peviz::app
