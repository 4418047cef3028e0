// `peviz export rope-bounds`: Liu et al. 2023's critical dimension and Men et al. 2024's base bound.
#include <cmath>
#include <limits>
#include <memory>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "cli/rope_flags.hpp"
#include "cli/shared_flags.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/rope/rope_bounds.hpp"

namespace peviz::cli {

void register_rope_bounds(CLI::App& export_cmd) {
  struct Command {
    RopeBoundsParams params;
    OutputOptions out;
    std::string config, layer_type;
    double islands = limits::bounds_islands.fallback;
  };
  auto c = std::make_shared<Command>();
  CLI::App* sub = export_cmd.add_subcommand(
      "rope-bounds", "One row: d_extra, t_extra (Liu et al. 2023 Eq. 13), first_negative_m, min_base (Men et al. 2024)");
  sub->add_option("--config", c->config,
                  "A model's config.json: d = its rotary dimension, base = its rope_theta, train-len = the context it "
                  "was trained on (rope_scaling's original_max_position_embeddings, else max_position_embeddings), "
                  "context-len = the longest distance its RoPE layers see (the extended context it serves, or their window or "
                  "chunk when every one of them slides or attends in chunks), as the window's models-compared table "
                  "takes them "
                  "(flags given beside it override them; its scaling's frequencies are not used)");
  sub->add_option("--layer-type", c->layer_type, "With --config: whose RoPE (Gemma 3: full_attention | sliding_attention)");
  add_shared_flag(*sub, shared_flags::head_dim, c->params.head_dim, limits::head_dim)->capture_default_str();
  add_shared_flag(*sub, shared_flags::base, c->params.base, limits::rope_base)->capture_default_str();
  sub->add_option("--context-len", c->params.context_len, "Context length L for Men et al.'s bound, " +
                                                          range_text(limits::bounds_context_len))->capture_default_str();
  sub->add_option("--train-len", c->params.train_len, "Training length T_train for Liu et al.'s d_extra, " +
                                                      range_text(limits::bounds_train_len) + "; 0: the context length")
      ->capture_default_str();
  sub->add_option("--islands", c->islands, "List the bases that hold (B(m) >= 0 for every m < context-len) as ranges, "
                  "from min_base up to this factor times it, " + range_text(limits::bounds_islands) +
                  "; 0: not listed (JSON: holding_bases; a full walk per holding base, minutes at 131072 tokens)")
      ->capture_default_str();
  add_output_flags(*sub, c->out);
  sub->callback([c, sub] {
    RopeBoundsParams p = c->params;
    nlohmann::json from_config = nlohmann::json::object();
    if (const auto cr = config_rope(c->config, c->layer_type)) {
      // Men et al.'s B(m) sums over the rotating pairs, theta_i = base^(-2i/R): d is the rotary dimension.
      if (!sub->count("--head-dim")) p.head_dim = rotary_dim(cr->layer.rope);
      if (!sub->count("--base")) p.base = cr->layer.rope.base;
      if (!sub->count("--context-len") && cr->span) p.context_len = cr->span;
      if (!sub->count("--train-len") && cr->original_len) p.train_len = cr->original_len;
      from_config = {{"model", cr->model}, {"layer_type", cr->layer.layer_type}};
    }
    check_real(limits::bounds_islands, c->islands);
    if (c->islands != 0 && c->islands <= 1) throw ParamError("islands", "must be 0 or a factor > 1");
    if (c->islands != 0 && c->out.format != "json")
      throw ParamError("islands", "lists ranges, which only --format json carries");
    const RopeBounds b = rope_bounds(p);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float first = b.first_negative_m ? float(*b.first_negative_m) : nan;
    const float base = b.min_base ? float(*b.min_base) : nan;
    const NdArray row = NdArray::from_floats({1, 4}, {float(b.d_extra), float(b.t_extra), first, base});
    nlohmann::json params = {{"head_dim", p.head_dim}, {"base", p.base}, {"context_len", p.context_len},
                             {"train_len", p.train_len != 0 ? p.train_len : p.context_len}};
    params.update(from_config);
    nlohmann::json extra = {
        {"columns", {"d_extra", "t_extra", "first_negative_m", "min_base"}},
        {"d_extra", b.d_extra},
        {"t_extra", b.t_extra},
        {"first_negative_m", b.first_negative_m ? nlohmann::json(*b.first_negative_m) : nlohmann::json(nullptr)},
        {"min_base", b.min_base ? nlohmann::json(*b.min_base) : nlohmann::json(nullptr)}};
    if (c->islands != 0) {
      params["islands"] = c->islands;
      nlohmann::json ranges = nlohmann::json::array();
      if (b.min_base)
        for (const BaseRange& r : rope_holding_bases(p.head_dim, p.context_len, *b.min_base, c->islands * *b.min_base))
          ranges.push_back({r.lo, r.hi});
      extra["holding_bases"] = ranges;
    }
    emit(row, params, c->out, extra);
  });
}

}  // namespace peviz::cli
