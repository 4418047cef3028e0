// `peviz export rope-*|alibi-*|t5-buckets|shaw|distance-series`: the relative-position family.
#include <cmath>
#include <memory>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "cli/rope_flags.hpp"
#include "cli/shared_flags.hpp"
#include "core/encodings/alibi.hpp"
#include "core/encodings/distance_series.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/models/model_config.hpp"
#include "core/rope/precision.hpp"
#include "core/rope/rope.hpp"
#include "core/rope/rope_scaling.hpp"
#include "core/encodings/shaw.hpp"
#include "core/encodings/t5_buckets.hpp"

namespace peviz::cli {

namespace {

struct RopeCommand {
  RopeFlags flags;
  OutputOptions out;
  int max_distance = 0;    // rope-decay
  int context_len = 0;     // rope-wavelengths
  int target_len = 0;      // rope-wavelengths
  int max_position = 0;    // rope-precision
  int points = int(limits::precision_points.fallback);  // rope-precision
};

struct AlibiCommand {
  OutputOptions out;
  int heads = 8;
  int seq_len = 0;
  bool bidirectional = false;
};

struct MatrixCommand {  // t5-buckets and shaw
  OutputOptions out;
  int seq_len = 0;
  int key_len = 0;
  CLI::Option* key_len_flag = nullptr;  // --key-len absent: keys = queries
  int num_buckets = 32;
  int max_distance = 128;
  bool causal = false;
  int max_relative = 0;
};

struct SeriesCommand {
  OutputOptions out;
  DistanceSeriesParams params;
};

// Adds --seq-len (queries) and --key-len (keys, default: as many as queries).
void add_length_flags(CLI::App& sub, MatrixCommand& c, const char* key_help) {
  add_shared_flag(sub, shared_flags::seq_len, c.seq_len, limits::t5_shaw_seq_len)->required();
  c.key_len_flag = sub.add_option("--key-len", c.key_len, key_help);
}
// Without --key-len the keys are the queries: a bad --seq-len is named as such, not as the key length it became.
int key_len_of(const MatrixCommand& c) {
  if (c.key_len_flag->count()) return c.key_len;
  check_int(limits::t5_shaw_seq_len, c.seq_len);
  return c.seq_len;
}

NdArray column(const std::vector<double>& values) {
  return NdArray::from_floats({values.size(), 1}, std::vector<float>(values.begin(), values.end()));
}

nlohmann::json floats_json(const std::vector<double>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) a.push_back(x);
  return a;
}

// rope-inv-freq's JSON keys beside the table. With --config also the frequencies in full double precision and
// the RoPE they come from, rope_type spelt as transformers does ("default" for none).
nlohmann::json inv_freq_extra(const ResolvedRope& r, const ScaledRope& s) {
  nlohmann::json extra = {{"columns", {"inv_freq"}}, {"attention_factor", s.attention_factor}};
  if (r.model.empty()) return extra;
  extra["inv_freq"] = floats_json(s.inv_freq);
  extra["rotary_dim"] = rotary_dim(r.rope);
  extra["base"] = r.rope.base;
  extra["rope_type"] = std::string(rope_scaling_row(r.scaling.kind).rope_type);
  extra["model"] = r.model;
  extra["layer_type"] = r.layer_type;
  if (!r.pair_axis.empty()) {  // M-RoPE: the position axis each pair turns with
    nlohmann::json axes = nlohmann::json::array();
    for (RopeAxis a : r.pair_axis) axes.push_back(to_string(a));
    extra["pair_axis"] = axes;
  }
  return extra;
}

// A subcommand with the RoPE flags and output flags, running `body` on the resolved flags.
template <class Body>
CLI::App* rope_subcommand(CLI::App& export_cmd, const char* name, const char* help,
                          const std::shared_ptr<RopeCommand>& cmd, Body body) {
  CLI::App* sub = export_cmd.add_subcommand(name, help);
  add_rope_flags(*sub, cmd->flags);
  add_output_flags(*sub, cmd->out);
  sub->callback([cmd, body] {
    const ResolvedRope r = resolve_rope_flags(cmd->flags);
    body(*cmd, r, rope_scaled_inv_freq(r.rope, r.scaling));
  });
  return sub;
}

// rope-wavelengths: per pair, the wavelengths before and after scaling, the turns in the original and target
// context, YaRN's ramp.
void emit_rope_wavelengths(const RopeCommand& c, const ResolvedRope& r, const ScaledRope& s) {
  int context = c.context_len ? c.context_len : s.original_max_len;
  if (context < 1 || context > limits::context_len.max)  // the message says when it is required
    throw ParamError("context-len", "must be an integer in " + range_text(limits::context_len) +
                                        " (required unless the scaling has an original length), got " +
                                        std::to_string(context));
  const double target = c.target_len ? double(c.target_len) : std::round(double(context) * s.factor);
  if (target < 1 || target > limits::context_len.max)
    throw ParamError("target-len", "must be an integer in " + range_text(limits::context_len) + ", got " +
                                       std::to_string(c.target_len));
  const std::vector<double> base_freq = rope_inv_freq(r.rope);
  nlohmann::json params = rope_params_json(r, s);
  params["context_len"] = context;
  params["target_len"] = target;
  emit(NdArray::from_matrix(rope_wavelengths(base_freq, s.inv_freq, s.yarn_ramp, context, target)), params,
       c.out,
       {{"columns", {"pair", "wavelength", "scaled_wavelength", "turns_in_context", "scaled_turns_in_target",
                     "yarn_ramp"}},
        {"attention_factor", s.attention_factor}});
}

void register_rope(CLI::App& export_cmd) {
  rope_subcommand(export_cmd, "rope-inv-freq", "One row per RoPE pair: its (scaled) inverse frequency",
                  std::make_shared<RopeCommand>(), [](const RopeCommand& c, const ResolvedRope& r, const ScaledRope& s) {
                    emit(column(s.inv_freq), rope_params_json(r, s), c.out, inv_freq_extra(r, s));
                  });

  auto decay = std::make_shared<RopeCommand>();
  CLI::App* sub = rope_subcommand(
      export_cmd, "rope-decay", "RoFormer long-term decay: rows r = 0..N with r, 2*sum cos(r theta), relative bound",
      decay, [](const RopeCommand& c, const ResolvedRope& r, const ScaledRope& s) {
        check_int(limits::export_max_distance, c.max_distance);
        check_result_size(std::size_t(c.max_distance) + 1, 3, c.out.max_memory, "the decay table");
        nlohmann::json params = rope_params_json(r, s);
        params["max_distance"] = c.max_distance;
        emit(NdArray::from_matrix(rope_decay(s.inv_freq, r.rope.head_dim, c.max_distance)), params, c.out,
             {{"columns", {"r", "score", "relative_bound"}}, {"attention_factor", s.attention_factor}});
      });
  sub->add_option("--max-distance", decay->max_distance, "Largest relative distance N")->required();

  auto wave = std::make_shared<RopeCommand>();
  sub = rope_subcommand(
      export_cmd, "rope-wavelengths",
      "Per pair: wavelengths before/after scaling, full turns in the original and target context, YaRN ramp", wave,
      emit_rope_wavelengths);
  sub->add_option("--context-len", wave->context_len, "Original context (0 = the scaling's original length)");
  sub->add_option("--target-len", wave->target_len, "Target context (0 = context-len * factor)");

  auto prec = std::make_shared<RopeCommand>();
  sub = rope_subcommand(
      export_cmd, "rope-precision",
      "Largest phase error of t*theta over all pairs in fp32, bf16, fp16 against double, log-spaced t", prec,
      [](const RopeCommand& c, const ResolvedRope& r, const ScaledRope& s) {
        const std::vector<double> positions = log_spaced_positions(c.max_position, c.points);
        nlohmann::json params = rope_params_json(r, s);
        params["max_position"] = c.max_position;
        params["points"] = c.points;
        emit(NdArray::from_matrix(rope_phase_error(s.inv_freq, positions)), params, c.out,
             {{"columns", {"t", "fp32", "bf16", "fp16"}}, {"unit", "radians, wrapped to [0, pi]"}});
      });
  sub->add_option("--max-position", prec->max_position, "Largest position t")->required();
  sub->add_option("--points", prec->points, "Number of log-spaced positions from 1 (duplicates dropped)")
      ->capture_default_str();
}

void register_alibi(CLI::App& export_cmd) {
  auto slopes = std::make_shared<AlibiCommand>();
  CLI::App* sub = export_cmd.add_subcommand("alibi-slopes", "One row per head: the ALiBi slope m_h");
  add_shared_flag(*sub, shared_flags::heads, slopes->heads, limits::alibi_heads)->required();
  add_output_flags(*sub, slopes->out);
  sub->callback([slopes] {
    const std::vector<double> m = alibi_slopes(slopes->heads);
    emit(column(m), {{"heads", slopes->heads}}, slopes->out, {{"columns", {"slope"}}});
  });

  auto bias = std::make_shared<AlibiCommand>();
  sub = export_cmd.add_subcommand("alibi-bias",
                                  "ALiBi bias [head, i, j] = -m_h (i - j); causal masks j > i (empty CSV cell, NaN, null)");
  add_shared_flag(*sub, shared_flags::heads, bias->heads, limits::alibi_heads)->required();
  add_shared_flag(*sub, shared_flags::seq_len, bias->seq_len, limits::alibi_seq_len)->required();
  sub->add_flag("--bidirectional", bias->bidirectional, "Symmetric -m_h |i - j|, nothing masked");
  add_output_flags(*sub, bias->out);
  sub->callback([bias] {
    emit_rows(alibi_bias_rows(bias->heads, bias->seq_len, bias->bidirectional), {{"heads", bias->heads}, {"seq_len", bias->seq_len}, {"bidirectional", bias->bidirectional}}, bias->out,
         {{"slopes", floats_json(alibi_slopes(bias->heads))}, {"column_axis", "key"}});
  });
}

void register_matrices(CLI::App& export_cmd) {
  auto t5 = std::make_shared<MatrixCommand>();
  CLI::App* sub = export_cmd.add_subcommand("t5-buckets", "T5 relative-position bucket of r = j - i, [query, key] int32");
  add_length_flags(*sub, *t5, "Keys 0..K-1 (default: seq-len)");
  sub->add_option("--num-buckets", t5->num_buckets, "relative_attention_num_buckets")->capture_default_str();
  sub->add_option("--max-distance", t5->max_distance, "relative_attention_max_distance")->capture_default_str();
  sub->add_flag("--causal", t5->causal, "Decoder buckets (bidirectional=False): the future is bucket 0");
  add_output_flags(*sub, t5->out);
  sub->callback([t5] {
    T5BucketParams p;
    p.query_len = t5->seq_len;
    p.key_len = key_len_of(*t5);
    p.num_buckets = t5->num_buckets;
    p.max_distance = t5->max_distance;
    p.bidirectional = !t5->causal;
    emit_rows(t5_bucket_rows(p), {{"seq_len", p.query_len}, {"key_len", p.key_len}, {"num_buckets", p.num_buckets},
                               {"max_distance", p.max_distance}, {"bidirectional", p.bidirectional}},
         t5->out, {{"column_axis", "key"}});
  });

  auto shaw = std::make_shared<MatrixCommand>();
  sub = export_cmd.add_subcommand("shaw", "Shaw et al. clip(j - i, -k, k), [query, key] int32; queries align to the last keys");
  add_length_flags(*sub, *shaw, "Keys, >= seq-len (default: seq-len)");
  sub->add_option("--max-relative", shaw->max_relative, "Clipping distance k")->required();
  add_output_flags(*sub, shaw->out);
  sub->callback([shaw] {
    ShawParams p;
    p.query_len = shaw->seq_len;
    p.key_len = key_len_of(*shaw);
    p.max_relative = shaw->max_relative;
    emit_rows(shaw_relative_rows(p), {{"seq_len", p.query_len}, {"key_len", p.key_len}, {"max_relative", p.max_relative}},
         shaw->out, {{"embedding_index", "value + max_relative"}, {"column_axis", "key"}});
  });
}

void register_series(CLI::App& export_cmd) {
  auto cmd = std::make_shared<SeriesCommand>();
  DistanceSeriesParams& p = cmd->params;
  CLI::App* sub = export_cmd.add_subcommand(
      "distance-series", "Rows r = -(L-1)..L-1: r, sinusoidal PE(0).PE(r), RoPE decay, ALiBi per head, T5 bucket, Shaw");
  add_shared_flag(*sub, shared_flags::seq_len, p.seq_len, limits::t5_shaw_seq_len)->required();
  add_shared_flag(*sub, shared_flags::d_model, p.d_model, limits::d_model)->capture_default_str();
  sub->add_option("--sinusoid-base", p.sinusoid_base, "Sinusoidal base")->capture_default_str();
  add_shared_flag(*sub, shared_flags::head_dim, p.rope.head_dim, limits::head_dim)->capture_default_str();
  add_shared_flag(*sub, shared_flags::base, p.rope.base, limits::rope_base)->capture_default_str();
  add_shared_flag(*sub, shared_flags::heads, p.heads, limits::alibi_heads)->capture_default_str();
  sub->add_flag("--causal", p.causal, "Causal ALiBi (NaN for r > 0) and causal T5 buckets");
  sub->add_option("--num-buckets", p.num_buckets, "T5 buckets")->capture_default_str();
  sub->add_option("--max-distance", p.max_distance, "T5 max distance")->capture_default_str();
  sub->add_option("--max-relative", p.max_relative, "Shaw clipping distance k")->capture_default_str();
  add_output_flags(*sub, cmd->out);
  sub->callback([cmd] {
    const DistanceSeriesParams& q = cmd->params;
    DistanceSeriesPlan plan = plan_distance_series(q);
    nlohmann::json columns = {"r"};
    for (const std::string& name : plan.names) columns.push_back(name);
    const RowSource rows = distance_series_rows(std::move(plan));
    const nlohmann::json params = {{"seq_len", q.seq_len},        {"d_model", q.d_model},
                                   {"sinusoid_base", q.sinusoid_base}, {"head_dim", q.rope.head_dim},
                                   {"base", q.rope.base},         {"heads", q.heads},
                                   {"causal", q.causal},          {"num_buckets", q.num_buckets},
                                   {"max_distance", q.max_distance}, {"max_relative", q.max_relative}};
    emit_rows(rows, params, cmd->out, {{"columns", columns}});
  });
}

}  // namespace

void register_relative_exports(CLI::App& export_cmd) {
  register_rope(export_cmd);
  register_rope_bounds(export_cmd);
  register_layer_map(export_cmd);
  register_rope_test_vectors(export_cmd);
  register_attention_scale(export_cmd);
  register_reproductions(export_cmd);
  register_model_comparison(export_cmd);
  register_mrope_exports(export_cmd);
  register_alibi(export_cmd);
  register_matrices(export_cmd);
  register_series(export_cmd);
}

}  // namespace peviz::cli
