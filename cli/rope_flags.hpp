// The RoPE and RoPE-scaling flags shared by the `peviz export rope-*` subcommands.
#pragma once
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/rope_scaling.hpp"

namespace peviz::cli {

// Raw flag values; the optional ones are read only when their CLI::Option counted a use.
struct RopeFlags {
  RopeParams rope;
  std::string scaling = "none";
  double factor = 1, beta_fast = 32, beta_slow = 1, low_freq_factor = 1, high_freq_factor = 4;
  double attention_factor = 1, mscale = 1, mscale_all_dim = 1;
  int original_max_len = 0, max_len = 0, seq_len = 0;
  bool no_truncate = false;
  std::string short_factor, long_factor;
  CLI::App* sub = nullptr;  // to ask which flags were given
};

// Adds --head-dim (required) --base (required) --rotary-dim --scaling and every scaling flag.
void add_rope_flags(CLI::App& sub, RopeFlags& f);

struct ResolvedRope {
  RopeParams rope;
  RopeScalingParams scaling;
};
// Parses --scaling and the factor lists, keeps only the flags given, and validates. Throws ParamError.
ResolvedRope resolve_rope_flags(const RopeFlags& f);

// Parses "a,b,c" into numbers; throws ParamError(param, ...) on anything else.
std::vector<double> parse_number_list(const std::string& text, const std::string& param);

// {"head_dim", "rotary_dim", "base", "scaling", and the scaling's parameters as used}.
nlohmann::json rope_params_json(const ResolvedRope& r, const ScaledRope& scaled);

}  // namespace peviz::cli
