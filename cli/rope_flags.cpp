// RoPE and RoPE-scaling flags: declaration, parsing into core parameters, and their JSON record.
#include "cli/rope_flags.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"

namespace peviz::cli {

namespace {
bool given(const RopeFlags& f, const std::string& flag) { return f.sub && f.sub->count(flag) > 0; }

template <class T>
std::optional<T> if_given(const RopeFlags& f, const std::string& flag, T value) {
  return given(f, flag) ? std::optional<T>(value) : std::nullopt;
}
}  // namespace

void add_rope_flags(CLI::App& sub, RopeFlags& f) {
  f.sub = &sub;
  sub.add_option("--head-dim", f.rope.head_dim, "Channels per attention head, even, 2..16384")->required();
  sub.add_option("--base", f.rope.base, "rope_theta, finite and > 1 (10000 in RoFormer and LLaMA 1/2)")->required();
  sub.add_option("--rotary-dim", f.rope.rotary_dim, "Channels that rotate (partial rotary), even, <= head-dim");
  sub.add_option("--scaling", f.scaling, "none | linear | dynamic | yarn | llama3 | longrope")->capture_default_str();
  sub.add_option("--factor", f.factor, "Context extension factor, >= 1");
  sub.add_option("--original-max-len", f.original_max_len,
                 "original_max_position_embeddings (dynamic: the training context, HF max_position_embeddings)");
  sub.add_option("--max-len", f.max_len, "Extended max_position_embeddings (yarn/longrope: factor = max-len / original)");
  sub.add_option("--seq-len", f.seq_len, "Current sequence length (dynamic, longrope)");
  sub.add_option("--beta-fast", f.beta_fast, "YaRN: rotations above which pairs extrapolate (default 32)");
  sub.add_option("--beta-slow", f.beta_slow, "YaRN: rotations below which pairs interpolate (default 1)");
  sub.add_option("--low-freq-factor", f.low_freq_factor, "Llama 3: low-frequency factor (default 1)");
  sub.add_option("--high-freq-factor", f.high_freq_factor, "Llama 3: high-frequency factor (default 4)");
  sub.add_option("--attention-factor", f.attention_factor, "YaRN/LongRoPE: attention factor instead of the derived one");
  sub.add_option("--mscale", f.mscale, "YaRN: DeepSeek mscale (with --mscale-all-dim)");
  sub.add_option("--mscale-all-dim", f.mscale_all_dim, "YaRN: DeepSeek mscale_all_dim (with --mscale)");
  sub.add_flag("--no-truncate", f.no_truncate, "YaRN: keep the correction range fractional (HF truncate=false)");
  sub.add_option("--short-factor", f.short_factor, "LongRoPE: rotary-dim/2 comma-separated divisors (short context)");
  sub.add_option("--long-factor", f.long_factor, "LongRoPE: rotary-dim/2 comma-separated divisors (long context)");
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

ResolvedRope resolve_rope_flags(const RopeFlags& f) {
  ResolvedRope r;
  r.rope = f.rope;
  const auto kind = parse_rope_scaling(f.scaling);
  if (!kind) throw ParamError("scaling", "must be none, linear, dynamic, yarn, llama3 or longrope, got '" + f.scaling + "'");
  RopeScalingParams& s = r.scaling;
  s.kind = *kind;
  s.factor = if_given(f, "--factor", f.factor);
  s.original_max_len = if_given(f, "--original-max-len", f.original_max_len);
  s.max_len = if_given(f, "--max-len", f.max_len);
  s.seq_len = if_given(f, "--seq-len", f.seq_len);
  s.beta_fast = if_given(f, "--beta-fast", f.beta_fast);
  s.beta_slow = if_given(f, "--beta-slow", f.beta_slow);
  s.low_freq_factor = if_given(f, "--low-freq-factor", f.low_freq_factor);
  s.high_freq_factor = if_given(f, "--high-freq-factor", f.high_freq_factor);
  s.attention_factor = if_given(f, "--attention-factor", f.attention_factor);
  s.mscale = if_given(f, "--mscale", f.mscale);
  s.mscale_all_dim = if_given(f, "--mscale-all-dim", f.mscale_all_dim);
  if (f.no_truncate) s.truncate = false;
  if (given(f, "--short-factor")) s.short_factor = parse_number_list(f.short_factor, "short-factor");
  if (given(f, "--long-factor")) s.long_factor = parse_number_list(f.long_factor, "long-factor");
  validate(r.rope, s);
  return r;
}

nlohmann::json rope_params_json(const ResolvedRope& r, const ScaledRope& scaled) {
  const RopeScalingParams& s = r.scaling;
  nlohmann::json j = {{"head_dim", r.rope.head_dim},
                      {"rotary_dim", rotary_dim(r.rope)},
                      {"base", r.rope.base},
                      {"scaling", to_string(s.kind)}};
  if (s.kind == RopeScaling::none) return j;
  j["factor"] = scaled.factor;
  if (scaled.original_max_len) j["original_max_len"] = scaled.original_max_len;
  if (s.max_len) j["max_len"] = *s.max_len;
  if (s.seq_len) j["seq_len"] = *s.seq_len;
  if (s.kind == RopeScaling::yarn) {
    j["beta_fast"] = s.beta_fast.value_or(32.0);
    j["beta_slow"] = s.beta_slow.value_or(1.0);
    j["truncate"] = s.truncate.value_or(true);
    if (s.mscale) j["mscale"] = *s.mscale;
    if (s.mscale_all_dim) j["mscale_all_dim"] = *s.mscale_all_dim;
  }
  if (s.kind == RopeScaling::llama3) {
    j["low_freq_factor"] = s.low_freq_factor.value_or(1.0);
    j["high_freq_factor"] = s.high_freq_factor.value_or(4.0);
  }
  if (s.kind == RopeScaling::longrope) {
    j["short_factor"] = s.short_factor;
    j["long_factor"] = s.long_factor;
  }
  return j;
}

}  // namespace peviz::cli
