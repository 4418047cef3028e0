// Bits of a counter against sinusoids of period 2^(k+1), and the morph to a model's frequencies.
#include "core/encodings/binary_analogy.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/base/limits.hpp"

namespace peviz {

int bits_for(int positions) {
  int bits = 1;
  while (bits < 30 && (1 << bits) < positions) ++bits;
  return bits;
}

void compute_binary_analogy(int positions, const std::vector<double>& model_frequencies, double morph,
                            BinaryAnalogy& out) {
  check_int(limits::binary_positions, positions);
  check_real(limits::binary_morph, morph);
  out.positions = positions;
  out.bits = bits_for(positions);
  const int K = out.bits;
  out.ladder.assign(K, 0.0);
  out.model.assign(K, std::nan(""));
  out.frequency.assign(K, 0.0);
  for (int k = 0; k < K; ++k) {
    out.ladder[k] = std::numbers::pi / std::ldexp(1.0, k);
    if (k < int(model_frequencies.size()) && model_frequencies[k] > 0.0) out.model[k] = model_frequencies[k];
    const double target = std::isnan(out.model[k]) ? out.ladder[k] : out.model[k];
    out.frequency[k] = std::exp((1.0 - morph) * std::log(out.ladder[k]) + morph * std::log(target));
  }
  out.bit.assign(std::size_t(positions) * K, 0);
  out.negative.assign(std::size_t(positions) * K, 0);
  out.agreeing = 0;
  for (int t = 0; t < positions; ++t) {
    for (int k = 0; k < K; ++k) {
      const std::size_t i = std::size_t(t) * K + k;
      out.bit[i] = std::uint8_t((t >> k) & 1);
      out.negative[i] = std::uint8_t(std::sin(out.frequency[k] * (t + 0.5)) < 0.0);
      out.agreeing += out.bit[i] == out.negative[i];
    }
  }
  const int n = out.curve_samples();
  out.curves.resize(std::size_t(K) * n);
  for (int k = 0; k < K; ++k)
    for (int s = 0; s < n; ++s)
      out.curves[std::size_t(k) * n + s] = float(std::sin(out.frequency[k] * (double(s) / out.samples_per_position + 0.5)));
}

}  // namespace peviz
