// `peviz export binary-analogy`: the bits of a counter beside the signs of sinusoids of period 2^(k+1).
#include <cmath>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "cli/shared_flags.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/binary_analogy.hpp"
#include "core/base/limits.hpp"

namespace peviz::cli {

namespace {

struct BinaryAnalogyCommand {
  int positions = int(limits::binary_positions.fallback);
  double morph = limits::binary_morph.fallback;
  int d_model = int(limits::d_model.fallback);
  double base = limits::base.fallback;
  OutputOptions out;
};

// Row t: bit_0 .. bit_{K-1} of t, then negative_k = [sin(w_k (t + 1/2)) < 0] for the same k.
NdArray analogy_rows(const BinaryAnalogy& b) {
  const std::size_t k = std::size_t(b.bits);
  std::vector<float> v;
  v.reserve(std::size_t(b.positions) * 2 * k);
  for (int t = 0; t < b.positions; ++t) {
    for (std::size_t j = 0; j < k; ++j) v.push_back(float(b.bit[std::size_t(t) * k + j]));
    for (std::size_t j = 0; j < k; ++j) v.push_back(float(b.negative[std::size_t(t) * k + j]));
  }
  return NdArray::from_floats({std::size_t(b.positions), 2 * k}, std::move(v));
}

nlohmann::json finite_or_null(const std::vector<double>& v) {
  nlohmann::json out = nlohmann::json::array();
  for (double x : v) out.push_back(std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr));
  return out;
}

}  // namespace

void register_binary_analogy(CLI::App& export_cmd) {
  auto c = std::make_shared<BinaryAnalogyCommand>();
  CLI::App* sub = export_cmd.add_subcommand(
      "binary-analogy", "Bits of t beside the signs of sin(w_k (t + 1/2)), [positions, 2 * bits]; morph 0: w_k = pi / 2^k, "
                        "1: the sinusoid's pair-k frequency");
  sub->add_option("--positions", c->positions, "Rows t = 0 .. positions-1, " + range_text(limits::binary_positions))
      ->capture_default_str();
  sub->add_option("--morph", c->morph, "0: the bits' ladder pi / 2^k; 1: the model's frequencies; geometric between")
      ->capture_default_str();
  add_shared_flag(*sub, shared_flags::d_model, c->d_model, limits::d_model)->capture_default_str();
  add_shared_flag(*sub, shared_flags::base, c->base, limits::base)->capture_default_str();
  add_output_flags(*sub, c->out);
  sub->callback([c] {
    check_int(limits::d_model, c->d_model);
    check_real(limits::base, c->base);
    BinaryAnalogy b;
    compute_binary_analogy(c->positions, sinusoid_frequencies(c->d_model, c->base, Layout::interleaved), c->morph, b);
    nlohmann::json columns = nlohmann::json::array();
    for (int k = 0; k < b.bits; ++k) columns.push_back("bit_" + std::to_string(k));
    for (int k = 0; k < b.bits; ++k) columns.push_back("negative_" + std::to_string(k));
    const nlohmann::json params = {{"positions", b.positions}, {"morph", c->morph}, {"d_model", c->d_model}, {"base", c->base}};
    emit(analogy_rows(b), params, c->out,
         {{"columns", columns}, {"bits", b.bits}, {"agreeing", b.agreeing}, {"ladder", finite_or_null(b.ladder)},
          {"model", finite_or_null(b.model)}, {"frequency", finite_or_null(b.frequency)}});
  });
}

}  // namespace peviz::cli
