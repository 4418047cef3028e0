// Typed reads of config.json fields: every refusal names the field and shows its value.
#include "core/models/model_config_fields.hpp"

#include <cmath>

#include "core/base/errors.hpp"

namespace peviz::model_config_detail {

void refuse(const std::string& what) { throw ParamError("config", what); }

std::string shown(const nlohmann::json& v) {
  const auto text = [](const nlohmann::json& x) { return x.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };
  std::string s;
  if (v.is_string()) s.append(1, '\'').append(v.get<std::string>()).append(1, '\'');
  else s = text(v);
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';  // a string value may hold them; the message is one line
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

const nlohmann::json* Fields::find(std::string_view key) const {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(std::string(key));
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

std::optional<double> Fields::number(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_number()) refuse(name(key) + " " + shown(*v) + " must be a number");
  const double d = v->get<double>();
  if (!std::isfinite(d)) refuse(name(key) + " " + shown(*v) + " must be finite");
  return d;
}

std::optional<long long> Fields::integer(std::string_view key, long long lo, long long hi) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  // Checked as a double first: nlohmann's get<long long>() of 1e300 is undefined behaviour.
  const std::optional<double> d = number(key);
  if (*d != std::floor(*d) || *d < double(lo) || *d > double(hi))
    refuse(name(key) + " " + shown(*v) + " must be a whole number in [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
  return static_cast<long long>(*d);
}

std::optional<std::string> Fields::text(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_string()) refuse(name(key) + " " + shown(*v) + " must be a string");
  return v->get<std::string>();
}

std::optional<bool> Fields::boolean(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) refuse(name(key) + " " + shown(*v) + " must be true or false");
  return v->get<bool>();
}

std::optional<std::vector<double>> Fields::numbers(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_array()) refuse(name(key) + " " + shown(*v) + " must be a list of numbers");
  std::vector<double> out;
  out.reserve(v->size());
  for (const nlohmann::json& x : *v) {
    if (!x.is_number() || !std::isfinite(x.get<double>()))
      refuse(name(key) + " " + shown(*v) + " must be a list of finite numbers, got " + shown(x) + " in it");
    out.push_back(x.get<double>());
  }
  return out;
}

std::optional<Fields> Fields::object_at(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_object()) refuse(name(key) + " " + shown(*v) + " must be an object");
  return Fields{*v, name(key) + "."};
}

std::optional<long long> Fields::integer_alias(std::initializer_list<std::string_view> keys, long long lo,
                                               long long hi) const {
  for (std::string_view k : keys)
    if (has(k)) return integer(k, lo, hi);
  return std::nullopt;
}

}  // namespace peviz::model_config_detail
