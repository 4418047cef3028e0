// `peviz export mrope-positions | mrope-axis-score`: multimodal RoPE's position ids of text + image + text, and the
// score of an offset along each axis with a model's own frequencies and pair axes.
#include <cmath>
#include <memory>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "cli/rope_flags.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/models/mrope.hpp"
#include "core/rope/rope.hpp"

namespace peviz::cli {

namespace {

void register_positions(CLI::App& export_cmd) {
  struct Command {
    MropeSequence seq;
    OutputOptions out;
  };
  auto c = std::make_shared<Command>();
  CLI::App* sub = export_cmd.add_subcommand(
      "mrope-positions", "Rows token, t, h, w, image: M-RoPE's position ids of text + one image + text, as "
                         "transformers' Qwen2-VL get_rope_index gives them");
  sub->add_option("--text-before", c->seq.text_before, "Text tokens before the image, " +
                                                           range_text(limits::mrope_text_before))->capture_default_str();
  sub->add_option("--grid-h", c->seq.grid_h, "The image's rows of tokens (after spatial merging), " +
                                                  range_text(limits::mrope_grid_h))->capture_default_str();
  sub->add_option("--grid-w", c->seq.grid_w, "Its columns, " + range_text(limits::mrope_grid_w))->capture_default_str();
  sub->add_option("--text-after", c->seq.text_after, "Text tokens after it, " +
                                                         range_text(limits::mrope_text_after))->capture_default_str();
  add_output_flags(*sub, c->out);
  sub->callback([c] {
    const MropePositions p = mrope_position_ids(c->seq);
    Matrix rows(p.t.size(), 5);
    for (std::size_t i = 0; i < p.t.size(); ++i) {
      rows.at(i, 0) = float(i);
      rows.at(i, 1) = float(p.t[i]);
      rows.at(i, 2) = float(p.h[i]);
      rows.at(i, 3) = float(p.w[i]);
      rows.at(i, 4) = p.image[i] ? 1.0f : 0.0f;
    }
    emit(NdArray::from_matrix(rows),
         {{"text_before", c->seq.text_before}, {"grid_h", c->seq.grid_h}, {"grid_w", c->seq.grid_w},
          {"text_after", c->seq.text_after}},
         c->out, {{"columns", {"token", "t", "h", "w", "image"}}});
  });
}

void register_axis_score(CLI::App& export_cmd) {
  struct Command {
    std::string config;
    int max_offset = int(limits::mrope_max_offset.fallback);
    OutputOptions out;
  };
  auto c = std::make_shared<Command>();
  CLI::App* sub = export_cmd.add_subcommand(
      "mrope-axis-score", "Rows d, t, h, w: the mean cos(d theta_j) over the pairs that turn with each axis, for an "
                          "M-RoPE model's config.json (empty cells where no pair turns with an axis)");
  sub->add_option("--config", c->config, "An M-RoPE model's config.json (Qwen2-VL, Qwen2.5-VL, Qwen3-VL)")->required();
  sub->add_option("--max-offset", c->max_offset, "Largest offset d, " + range_text(limits::mrope_max_offset))
      ->capture_default_str();
  add_output_flags(*sub, c->out);
  sub->callback([c] {
    const ConfigRope cr = *config_rope(c->config, "");
    if (cr.pair_axis.empty()) throw ParamError("config", cr.model + " has no multimodal RoPE (no mrope_section)");
    const std::vector<double> f = rope_inv_freq(cr.layer.rope);
    check_int(limits::mrope_max_offset, c->max_offset);  // before the rows are sized by it
    Matrix rows(std::size_t(c->max_offset) + 1, 4);
    for (RopeAxis a : {RopeAxis::t, RopeAxis::h, RopeAxis::w}) {
      const std::vector<double> score = mrope_axis_score(f, cr.pair_axis, a, c->max_offset);
      for (std::size_t d = 0; d < rows.rows; ++d)
        rows.at(d, 1 + std::size_t(a)) = score.empty() ? std::nanf("") : float(score[d]);
    }
    for (std::size_t d = 0; d < rows.rows; ++d) rows.at(d, 0) = float(d);
    emit(NdArray::from_matrix(rows), {{"model", cr.model}, {"max_offset", c->max_offset}}, c->out,
         {{"columns", {"d", "t", "h", "w"}}});
  });
}

}  // namespace

void register_mrope_exports(CLI::App& export_cmd) {
  register_positions(export_cmd);
  register_axis_score(export_cmd);
}

}  // namespace peviz::cli
