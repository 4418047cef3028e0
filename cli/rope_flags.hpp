// The RoPE and RoPE-scaling flags shared by the `peviz export rope-*` subcommands.
#pragma once
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/models/model_config.hpp"
#include "core/rope/rope_scaling.hpp"

namespace peviz::cli {

// Raw flag values; the optional ones are read only when their CLI::Option counted a use.
struct RopeFlags {
  std::string config;      // --config: a model's config.json (core/models/model_config.hpp); flags beside it override it
  std::string layer_type;  // --layer-type: which of the config's layer types ("" = full_attention)
  RopeParams rope;
  std::string scaling = "none";
  double factor = 1, beta_fast = 32, beta_slow = 1, low_freq_factor = 1, high_freq_factor = 4;
  double attention_factor = 1, mscale = 1, mscale_all_dim = 1;
  int original_max_len = 0, max_len = 0, seq_len = 0;
  bool no_truncate = false;
  std::string short_factor, long_factor;
  CLI::App* sub = nullptr;  // to ask which flags were given
};

// Adds --config --layer-type --head-dim --base --rotary-dim --scaling and every scaling flag. --head-dim and
// --base are required unless --config gives them.
void add_rope_flags(CLI::App& sub, RopeFlags& f);

struct ResolvedRope {
  RopeParams rope;
  RopeScalingParams scaling;
  std::string model;       // the config's model name ("" without --config)
  std::string layer_type;  // the config's layer type used ("" without --config)
  std::vector<RopeAxis> pair_axis;  // the config's M-RoPE axes, while the flags keep its rotary dimension
};
// Starts from --config's layer type when given (else from nothing), then applies every flag given: --scaling
// different from the config's starts that scaling afresh. Parses the factor lists and validates. Throws
// ParamError.
ResolvedRope resolve_rope_flags(const RopeFlags& f);

// --config's RoPE of --layer-type, or ParamError("layer-type") when --layer-type comes without --config.
struct ConfigRope {
  std::string model;
  LayerTypeRope layer;
  int max_position_embeddings = 0;
  int original_len = 0;  // the context it was trained on, and the extended one it serves (core's model_rope)
  int extended_len = 0;
  int span = 0;  // the longest distance its RoPE layers see (core's ModelRope::span)
  std::vector<RopeAxis> pair_axis;  // M-RoPE: one per rotary pair (ModelConfig::pair_axis)
};
std::optional<ConfigRope> config_rope(const std::string& config, const std::string& layer_type);

// Parses "a,b,c" into numbers; throws ParamError(param, ...) on anything else.
std::vector<double> parse_number_list(const std::string& text, const std::string& param);
// The same for whole numbers ("0,1,4096" -> positions); ParamError(param, "must be whole numbers, ...") otherwise.
std::vector<long long> parse_whole_number_list(const std::string& text, const std::string& param);

// {"head_dim", "rotary_dim", "base", "scaling", and the scaling's parameters as used; with --config also
// "model" and "layer_type"}.
nlohmann::json rope_params_json(const ResolvedRope& r, const ScaledRope& scaled);

}  // namespace peviz::cli
