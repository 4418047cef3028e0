// `peviz export rope-test-vectors --config FILE`: reference cos, sin and scores per group of a model's layers.
#include <memory>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "cli/rope_flags.hpp"
#include "core/base/errors.hpp"
#include "core/io/atomic_file.hpp"
#include "core/models/model_config.hpp"
#include "core/models/rope_test_vectors.hpp"

namespace peviz::cli {

namespace {

struct Command {
  std::string config, positions, format = "json", out = "-";
  CLI::Option* positions_flag = nullptr;  // to tell an empty --positions "" from none
};

void run(const Command& c) {
  if (c.format != "json" && c.format != "safetensors")
    throw ParamError("format", "must be json or safetensors, got '" + c.format + "'");
  if (c.format == "safetensors" && c.out == "-") throw ParamError("out", "--format safetensors needs --out FILE");
  check_out_extension(c.out, c.format);
  if (c.out != "-") check_can_write(c.out, "out");
  const ModelConfig m = load_model_config(c.config);
  const std::vector<long long> positions = c.positions_flag->count() == 0 ? default_test_positions(m) : parse_whole_number_list(c.positions, "positions");
  const RopeTestVectors v = rope_test_vectors(m, positions);
  const std::string bytes =
      c.format == "json" ? rope_test_vectors_json(m, v).dump(1) + "\n" : rope_test_vectors_safetensors(m, v);
  emit_bytes(c.out, bytes);
}

}  // namespace

void register_rope_test_vectors(CLI::App& export_cmd) {
  auto c = std::make_shared<Command>();
  CLI::App* sub = export_cmd.add_subcommand(
      "rope-test-vectors",
      "Reference RoPE numbers to test an implementation against: per group of a config's layers, inv_freq, the "
      "attention factor, cos and sin at each position as transformers' rotary embedding returns them, and q.k "
      "scores after rotation (docs/model-config.md, 'Test vectors')");
  sub->add_option("--config", c->config, "A model's config.json (Hugging Face)")->required();
  c->positions_flag = sub->add_option("--positions", c->positions,
                  "Comma-separated positions, one sequence (default: 0, 1, 2, 3, then powers of two up to the "
                  "context window)");
  sub->add_option("--format", c->format, "json | safetensors")->capture_default_str();
  sub->add_option("--out", c->out, "Output path, or - for stdout (json only)")->capture_default_str();
  sub->callback([c] { run(*c); });
}

}  // namespace peviz::cli
