// RoPE and RoPE-scaling flags: declaration, parsing into core parameters, and their JSON record.
#include "cli/rope_flags.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "cli/shared_flags.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/models/model_comparison.hpp"

namespace peviz::cli {

namespace {
bool given(const RopeFlags& f, const std::string& flag) { return f.sub && f.sub->count(flag) > 0; }
}  // namespace

void add_rope_flags(CLI::App& sub, RopeFlags& f) {
  f.sub = &sub;
  sub.add_option("--config", f.config,
                 "A model's config.json (Hugging Face): head_dim, rope_theta, partial rotary, rope_scaling or "
                 "rope_parameters, read as transformers does; flags given beside it override it");
  sub.add_option("--layer-type", f.layer_type,
                 "With --config: whose RoPE (Gemma 3: full_attention | sliding_attention), default full_attention");
  // --head-dim and --base are required without --config (resolve_rope_flags says so).
  add_shared_flag(sub, shared_flags::head_dim, f.rope.head_dim, limits::head_dim);
  add_shared_flag(sub, shared_flags::base, f.rope.base, limits::rope_base);
  sub.add_option("--rotary-dim", f.rope.rotary_dim, "Channels that rotate (partial rotary), even, <= head-dim");
  sub.add_option("--scaling", f.scaling, rope_scaling_names(" | ", " | "))->capture_default_str();
  add_shared_flag(sub, shared_flags::factor, f.factor, limits::factor);
  sub.add_option("--original-max-len", f.original_max_len,
                 "original_max_position_embeddings (dynamic: the training context, HF max_position_embeddings)");
  // Each scaling field's help starts with the scalings that read it (rope_scaling.cpp's tables).
  const auto of = [](ScalingField field, const std::string& text) { return scaling_readers(field) + ": " + text; };
  sub.add_option("--max-len", f.max_len, "Extended max_position_embeddings (factor = max-len / original where not given)");
  sub.add_option("--seq-len", f.seq_len, of(ScalingField::seq_len, "current sequence length"));
  sub.add_option("--beta-fast", f.beta_fast, of(ScalingField::beta_fast, "rotations above which pairs extrapolate (default 32)"));
  sub.add_option("--beta-slow", f.beta_slow, of(ScalingField::beta_slow, "rotations below which pairs interpolate (default 1)"));
  sub.add_option("--low-freq-factor", f.low_freq_factor, of(ScalingField::low_freq_factor, "low-frequency factor (default 1)"));
  sub.add_option("--high-freq-factor", f.high_freq_factor, of(ScalingField::high_freq_factor, "high-frequency factor (default 4)"));
  sub.add_option("--attention-factor", f.attention_factor, of(ScalingField::attention_factor, "attention factor instead of the derived one"));
  sub.add_option("--mscale", f.mscale, of(ScalingField::mscale, "DeepSeek mscale (with --mscale-all-dim)"));
  sub.add_option("--mscale-all-dim", f.mscale_all_dim, of(ScalingField::mscale_all_dim, "DeepSeek mscale_all_dim (with --mscale)"));
  sub.add_flag("--no-truncate", f.no_truncate, of(ScalingField::truncate, "keep the correction range fractional (HF truncate=false)"));
  sub.add_option("--short-factor", f.short_factor, of(ScalingField::short_factor, "rotary-dim/2 comma-separated divisors (short context)"));
  sub.add_option("--long-factor", f.long_factor, of(ScalingField::long_factor, "rotary-dim/2 comma-separated divisors (long context)"));
}

std::vector<double> parse_number_list(const std::string& text, const std::string& param) {
  std::vector<double> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string cell = text.substr(start, end - start);
    char* stop = nullptr;
    errno = 0;
    const double v = std::strtod(cell.c_str(), &stop);
    if (cell.empty() || stop != cell.c_str() + cell.size() || errno == ERANGE)
      throw ParamError(param, "must be a comma-separated list of numbers, got '" + cell + "' in it");
    out.push_back(v);
    start = end + 1;
  }
  return out;
}

std::vector<long long> parse_whole_number_list(const std::string& text, const std::string& param) {
  std::vector<long long> out;
  for (double v : parse_number_list(text, param)) {
    if (v != std::floor(v) || std::abs(v) > 1e15) throw ParamError(param, "must be whole numbers, got " + text);
    out.push_back((long long)v);
  }
  return out;
}

std::optional<ConfigRope> config_rope(const std::string& config, const std::string& layer_type) {
  if (config.empty()) {
    if (!layer_type.empty()) throw ParamError("layer-type", "needs --config FILE");
    return std::nullopt;
  }
  const ModelConfig m = load_model_config(config);
  if (m.scheme != PositionScheme::rope)
    throw ParamError("config", m.name + " (model_type '" + m.model_type + "') uses " + std::string(to_string(m.scheme)) +
                                   " positions, not RoPE");
  const ModelRope contexts = model_rope(m, layer_type);
  return ConfigRope{m.name, layer_type_rope(m, layer_type), m.max_position_embeddings, contexts.original_len,
                    contexts.extended_len, contexts.span, m.pair_axis};
}

namespace {

// Every scaling flag given replaces the value it names; the others keep what the config said.
void apply_scaling_flags(const RopeFlags& f, RopeScalingParams& s) {
  const auto take = [&](const char* flag, auto& field, auto value) {
    if (given(f, flag)) field = value;
  };
  take("--factor", s.factor, f.factor);
  take("--original-max-len", s.original_max_len, f.original_max_len);
  take("--max-len", s.max_len, f.max_len);
  take("--seq-len", s.seq_len, f.seq_len);
  take("--beta-fast", s.beta_fast, f.beta_fast);
  take("--beta-slow", s.beta_slow, f.beta_slow);
  take("--low-freq-factor", s.low_freq_factor, f.low_freq_factor);
  take("--high-freq-factor", s.high_freq_factor, f.high_freq_factor);
  take("--attention-factor", s.attention_factor, f.attention_factor);
  take("--mscale", s.mscale, f.mscale);
  take("--mscale-all-dim", s.mscale_all_dim, f.mscale_all_dim);
  if (f.no_truncate) s.truncate = false;
  if (given(f, "--short-factor")) s.short_factor = parse_number_list(f.short_factor, "short-factor");
  if (given(f, "--long-factor")) s.long_factor = parse_number_list(f.long_factor, "long-factor");
}

}  // namespace

ResolvedRope resolve_rope_flags(const RopeFlags& f) {
  ResolvedRope r;
  if (const auto c = config_rope(f.config, f.layer_type)) {
    r.rope = c->layer.rope;
    r.scaling = c->layer.scaling;
    r.model = c->model;
    r.layer_type = c->layer.layer_type;
    r.pair_axis = c->pair_axis;
  } else {
    if (!given(f, "--head-dim")) throw ParamError("head-dim", "is required (or give --config FILE)");
    if (!given(f, "--base")) throw ParamError("base", "is required (or give --config FILE)");
  }
  if (given(f, "--head-dim")) r.rope.head_dim = f.rope.head_dim;
  if (given(f, "--base")) r.rope.base = f.rope.base;
  if (given(f, "--rotary-dim")) r.rope.rotary_dim = f.rope.rotary_dim;
  if (given(f, "--scaling") || f.config.empty()) {
    const auto kind = parse_rope_scaling(f.scaling);
    if (!kind) throw ParamError("scaling", "must be " + rope_scaling_names() + ", got '" + f.scaling + "'");
    if (*kind != r.scaling.kind) r.scaling = RopeScalingParams{};  // another scaling: none of the config's values
    r.scaling.kind = *kind;
  }
  apply_scaling_flags(f, r.scaling);
  validate(r.rope, r.scaling);
  if (std::size_t(rotary_dim(r.rope) / 2) != r.pair_axis.size()) r.pair_axis.clear();  // flags changed the pairs
  return r;
}

nlohmann::json rope_params_json(const ResolvedRope& r, const ScaledRope& scaled) {
  const RopeScalingParams& s = r.scaling;
  nlohmann::json j = {{"head_dim", r.rope.head_dim},
                      {"rotary_dim", rotary_dim(r.rope)},
                      {"base", r.rope.base},
                      {"scaling", to_string(s.kind)}};
  if (!r.model.empty()) {
    j["model"] = r.model;
    j["layer_type"] = r.layer_type;
  }
  if (s.kind == RopeScaling::none) return j;
  j["factor"] = scaled.factor;
  if (scaled.original_max_len) j["original_max_len"] = scaled.original_max_len;
  if (s.max_len) j["max_len"] = *s.max_len;
  if (s.seq_len) j["seq_len"] = *s.seq_len;
  // The fields the scaling reads, with transformers' defaults (the limits table's) where none was given.
  const auto reads = [&](ScalingField f) { return scaling_reads(s.kind, f); };
  if (reads(ScalingField::beta_fast)) j["beta_fast"] = s.beta_fast.value_or(limits::beta_fast.fallback);
  if (reads(ScalingField::beta_slow)) j["beta_slow"] = s.beta_slow.value_or(limits::beta_slow.fallback);
  if (reads(ScalingField::truncate)) j["truncate"] = s.truncate.value_or(true);
  if (s.mscale) j["mscale"] = *s.mscale;
  if (s.mscale_all_dim) j["mscale_all_dim"] = *s.mscale_all_dim;
  if (reads(ScalingField::low_freq_factor))
    j["low_freq_factor"] = s.low_freq_factor.value_or(limits::low_freq_factor.fallback);
  if (reads(ScalingField::high_freq_factor))
    j["high_freq_factor"] = s.high_freq_factor.value_or(limits::high_freq_factor.fallback);
  if (reads(ScalingField::short_factor)) j["short_factor"] = s.short_factor;
  if (reads(ScalingField::long_factor)) j["long_factor"] = s.long_factor;
  return j;
}

}  // namespace peviz::cli
