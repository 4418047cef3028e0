// The binary-counter analogy for sinusoids: bits of t beside the sign of sin at period 2^(k+1).
#pragma once
#include <cstdint>
#include <vector>

namespace peviz {

// Bit k of a binary counter flips every 2^k steps, so it is a square wave of period 2^(k+1).
// The sinusoid with that period, w_k = pi / 2^k, is negative exactly where bit k is 1 when
// sampled half a step late: sin(w_k (t + 1/2)) < 0  <=>  bit k of t = 1 (no sample sits on a
// zero). `morph` slides each frequency geometrically from that ladder (0) to the model's
// frequency for pair k (1): w_k(m) = exp((1 - m) ln(pi / 2^k) + m ln(model_k)). The model's
// ladder falls by base^(-2/d) per pair, not by 1/2, which is where the analogy stops holding.
struct BinaryAnalogy {
  int positions = 0;                  // table rows: t = 0 .. positions-1
  int bits = 0;                       // table columns: k = 0 .. bits-1 (LSB = k 0)
  std::vector<double> ladder;         // pi / 2^k (rad per position), period 2^(k+1)
  std::vector<double> model;          // the model's pair-k frequency (NaN: no such pair)
  std::vector<double> frequency;      // the morphed frequency actually shown
  std::vector<std::uint8_t> bit;      // positions x bits: bit k of t
  std::vector<std::uint8_t> negative; // positions x bits: sin(frequency_k (t + 1/2)) < 0
  int agreeing = 0;                   // cells where negative == bit
  int samples_per_position = 16;      // curve resolution
  std::vector<float> curves;          // bits x (positions * samples_per_position + 1): sin(w_k (x + 1/2))
  int curve_samples() const { return positions * samples_per_position + 1; }
};

// Bits needed to count to positions-1 (at least 1).
int bits_for(int positions);

// Fills `out` for t < positions and the model's pair frequencies (any length). Throws ParamError
// ("positions" | "morph") outside limits::binary_positions / binary_morph.
void compute_binary_analogy(int positions, const std::vector<double>& model_frequencies,
                            double morph, BinaryAnalogy& out);

}  // namespace peviz
