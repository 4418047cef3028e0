// `peviz export encoding|similarity|frequencies|criteria|binary-analogy`: the absolute encodings and their analyses.
#include <cmath>
#include <limits>
#include <memory>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/criteria.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/encodings/shift_analysis.hpp"
#include "core/encodings/similarity.hpp"

namespace peviz::cli {

namespace {

struct EncodingCommand {
  EncodingFlags flags;
  OutputOptions out;
};
struct SimilarityCommand {
  EncodingFlags flags;
  OutputOptions out;
  std::string metric = "cosine";
};
struct FrequenciesCommand {
  EncodingFlags flags;
  OutputOptions out;
};

nlohmann::json criteria_json(const CriteriaReport& r) {
  auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  return {
      {"unique", {{"pass", r.unique}, {"min_distance", num(r.min_distance)}, {"closest_positions", {r.closest_p, r.closest_q}}}},
      {"consistent_distance",
       {{"pass", r.consistent}, {"spread_over_t", num(r.spread_over_t)}, {"change_with_length", num(r.change_with_length)}}},
      {"bounded",
       {{"pass", r.bounded}, {"max_abs", num(r.max_abs)}, {"max_abs_2L", num(r.max_abs_2l)}, {"max_abs_4L", num(r.max_abs_4l)},
        {"growth_4L", num(r.growth)}}},
      {"deterministic", {{"pass", r.deterministic}}},
      {"extrapolation", {{"pass", r.extrapolates}, {"note", r.extrapolation_note}}},
  };
}

void register_encoding(CLI::App& export_cmd) {
  auto enc = std::make_shared<EncodingCommand>();
  CLI::App* sub = export_cmd.add_subcommand("encoding", "The [position, channel] table of an absolute encoding");
  add_encoding_flags(*sub, enc->flags);
  add_output_flags(*sub, enc->out);
  sub->callback([enc] {
    // Streamed a block of rows at a time: the table never needs the memory budget.
    enc->flags.params.memory_budget = std::numeric_limits<std::uint64_t>::max();
    enc->flags.params.threads = enc->out.threads;
    const EncodingParams p = resolve_encoding_flags(enc->flags);
    emit_rows(encoding_row_source(p), params_to_json(p), enc->out, {{"column_axis", "dim"}});
  });
}

void register_similarity(CLI::App& export_cmd) {
  auto sim = std::make_shared<SimilarityCommand>();
  CLI::App* sub = export_cmd.add_subcommand("similarity", "Similarity between every pair of positions, [L, L]");
  add_encoding_flags(*sub, sim->flags);
  sub->add_option("--metric", sim->metric, "dot | cosine (a zero vector has cosine 0 with everything)")
      ->capture_default_str();
  add_output_flags(*sub, sim->out);
  sub->callback([sim] {
    const auto metric = parse_metric(sim->metric);
    if (!metric) throw ParamError("metric", "must be dot or cosine, got '" + sim->metric + "'");
    // Streamed: only the encoding table (not for sinusoids: their Toeplitz description) is held in memory.
    const bool sinusoidal = sim->flags.encoding == "sinusoidal";
    sim->flags.params.memory_budget = sinusoidal ? std::numeric_limits<std::uint64_t>::max() : sim->out.max_memory;
    sim->flags.params.threads = sim->out.threads;
    const EncodingParams p = resolve_encoding_flags(sim->flags);
    nlohmann::json params = params_to_json(p);
    params["metric"] = sim->metric;
    emit_rows(similarity_row_source(p, *metric), params, sim->out, {{"column_axis", "position"}});
  });
}

void register_frequencies(CLI::App& export_cmd) {
  auto freq = std::make_shared<FrequenciesCommand>();
  CLI::App* sub = export_cmd.add_subcommand("frequencies",
                                            "One row per sin/cos pair: pair index, angular frequency w, wavelength 2*pi/w");
  add_encoding_flags(*sub, freq->flags);
  add_output_flags(*sub, freq->out);
  sub->callback([freq] {
    freq->flags.params.memory_budget = freq->out.max_memory;
    const EncodingParams p = resolve_encoding_flags(freq->flags);
    if (p.encoding != Encoding::sinusoidal) throw ParamError("encoding", "frequencies exist for sinusoidal only");
    const auto rows = channel_frequencies(p.d_model, p.base, p.layout);
    std::vector<float> values;
    for (const ChannelFrequency& f : rows) values.insert(values.end(), {float(f.pair), float(f.w), float(f.wavelength)});
    nlohmann::json params = {{"d_model", p.d_model}, {"base", p.base}, {"layout", to_string(p.layout)}};
    emit(NdArray::from_floats({rows.size(), 3}, std::move(values)), params, freq->out,
         {{"columns", {"pair", "w", "wavelength"}}});
  });
}

void register_criteria(CLI::App& export_cmd) {
  auto crit = std::make_shared<EncodingCommand>();
  CLI::App* sub = export_cmd.add_subcommand("criteria", "The criteria of a good encoding, measured (JSON)");
  add_encoding_flags(*sub, crit->flags);
  add_output_flags(*sub, crit->out);
  crit->out.format = "json";
  sub->callback([crit] {
    crit->flags.params.memory_budget = crit->out.max_memory;
    const EncodingParams p = resolve_encoding_flags(crit->flags);
    if (crit->out.format != "json") throw ParamError("format", "criteria are written as json only");
    const nlohmann::json report = {{"params", params_to_json(p)}, {"criteria", criteria_json(measure_criteria(p))}};
    emit_bytes(crit->out.out, report.dump(2) + "\n");
  });
}

}  // namespace

void register_absolute_exports(CLI::App& export_cmd) {
  register_encoding(export_cmd);
  register_similarity(export_cmd);
  register_frequencies(export_cmd);
  register_criteria(export_cmd);
  register_binary_analogy(export_cmd);
}

}  // namespace peviz::cli
