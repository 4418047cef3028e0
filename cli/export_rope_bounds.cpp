// `peviz export rope-bounds`: Liu et al. 2023's critical dimension and Men et al. 2024's base bound.
#include <cmath>
#include <limits>
#include <memory>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "core/rope_bounds.hpp"

namespace peviz::cli {

void register_rope_bounds(CLI::App& export_cmd) {
  struct Command {
    RopeBoundsParams params;
    OutputOptions out;
  };
  auto c = std::make_shared<Command>();
  CLI::App* sub = export_cmd.add_subcommand(
      "rope-bounds", "One row: d_extra, t_extra (Liu et al. 2023 Eq. 13), first_negative_m, min_base (Men et al. 2024)");
  sub->add_option("--head-dim", c->params.head_dim, "Channels per head d (even)")->capture_default_str();
  sub->add_option("--base", c->params.base, "RoPE base")->capture_default_str();
  sub->add_option("--context-len", c->params.context_len, "Training / context length, 1..2^20")->capture_default_str();
  add_output_flags(*sub, c->out);
  sub->callback([c] {
    const RopeBounds b = rope_bounds(c->params);
    const float first = b.first_negative_m ? float(*b.first_negative_m) : std::numeric_limits<float>::quiet_NaN();
    const NdArray row = NdArray::from_floats({1, 4}, {float(b.d_extra), float(b.t_extra), first, float(b.min_base)});
    const nlohmann::json params = {{"head_dim", c->params.head_dim}, {"base", c->params.base},
                                   {"context_len", c->params.context_len}};
    emit(row, params, c->out,
         {{"columns", {"d_extra", "t_extra", "first_negative_m", "min_base"}},
          {"d_extra", b.d_extra},
          {"t_extra", b.t_extra},
          {"first_negative_m", b.first_negative_m ? nlohmann::json(*b.first_negative_m) : nlohmann::json(nullptr)},
          {"min_base", b.min_base}});
  });
}

}  // namespace peviz::cli
