// Typed, named reads of a config.json's fields for the model config reader (core/models/model_config*.cpp only).
#pragma once
#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/models/value_origin.hpp"

namespace peviz {
struct ModelConfig;  // core/models/model_config.hpp; the readers below fill it
}  // namespace peviz

namespace peviz::model_config_detail {

// Whether s is one of the names in set.
inline bool in(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// Throws ParamError("config", what).
[[noreturn]] void refuse(const std::string& what);

// A JSON value as the messages show it: one line, at most 60 characters.
std::string shown(const nlohmann::json& v);

// One JSON object of the config and the prefix its field names take in messages ("rope_scaling.").
// A key whose value is null counts as absent, as transformers reads it (config.get(key) is None).
struct Fields {
  const nlohmann::json& object;
  std::string prefix;

  const nlohmann::json* find(std::string_view key) const;
  bool has(std::string_view key) const { return find(key) != nullptr; }
  std::string name(std::string_view key) const { return prefix + std::string(key); }
  // A finite number; refused with the field's name and value otherwise.
  std::optional<double> number(std::string_view key) const;
  // A whole number in [lo, hi] (integral floats such as 4096.0 included).
  std::optional<long long> integer(std::string_view key, long long lo, long long hi) const;
  std::optional<std::string> text(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;
  // A list of finite numbers.
  std::optional<std::vector<double>> numbers(std::string_view key) const;
  // A nested object, or nullopt when absent.
  std::optional<Fields> object_at(std::string_view key) const;
  // The first of `keys` that is present (transformers' attribute_map aliases: n_embd for hidden_size).
  std::optional<long long> integer_alias(std::initializer_list<std::string_view> keys, long long lo, long long hi) const;
};

// Reads the RoPE of the model (core/models/model_config_rope.cpp): head_dim, rotary fraction, base, rope_scaling or
// rope_parameters, per-layer types. `top` is the (text) config.
void read_rope_scheme(const Fields& top, ModelConfig& out);

// The layer map of a RoPE model (core/models/model_config_layers.cpp): layers, NoPE layers, spans, Llama 4's query
// scale. `f` is the (text) config with its class defaults.
void read_layer_map(const Fields& f, ModelConfig& out);

// M-RoPE's pair axes from the rope dict's mrope_section / mrope_interleaved (core/models/model_config_layers.cpp).
void read_pair_axis(const std::optional<Fields>& rope_dict, int rotary_pairs, ModelConfig& out);

// Lists in out.unmodelled the fields of `file` (the file's own object, no defaults) that bear on positions or
// attention spans and that the reader does not model.
void note_unmodelled(const Fields& file, ModelConfig& out);

}  // namespace peviz::model_config_detail
