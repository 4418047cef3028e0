// Rotary position embedding: default frequencies, rotation of vectors and blocks, decay and wavelengths.
#include "core/rope/rope.hpp"

#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz {

std::string_view to_string(RopePairing p) { return kRopePairingNames[std::size_t(p)]; }

RopePairing parse_pairing(std::string_view name) {
  for (std::size_t i = 0; i < kRopePairingNames.size(); ++i)
    if (name == kRopePairingNames[i]) return RopePairing(i);
  throw ParamError("pairing", "must be halves or interleaved, got " + std::string(name));
}

void validate(const RopeParams& p) {
  check_int(limits::head_dim, p.head_dim);
  if (p.head_dim % 2 != 0) throw ParamError("head-dim", "must be even, got " + std::to_string(p.head_dim));
  if (p.rotary_dim != 0) {
    if (p.rotary_dim > p.head_dim)
      throw ParamError("rotary-dim", "must not exceed --head-dim (" + std::to_string(p.head_dim) + "), got " +
                                         std::to_string(p.rotary_dim));
    if (p.rotary_dim < 2 || p.rotary_dim % 2 != 0)
      throw ParamError("rotary-dim", "must be even and hold at least one pair, got " + std::to_string(p.rotary_dim));
  }
  check_real(limits::rope_base, p.base);
  check_real(limits::rope_proportion, p.rotated_fraction);
}

int rotary_dim(const RopeParams& p) { return p.rotary_dim == 0 ? p.head_dim : p.rotary_dim; }

std::vector<double> rope_inv_freq(const RopeParams& p) {
  validate(p);
  // HF transformers modeling_rope_utils.py, _compute_default_rope_parameters:
  //   inv_freq = 1 / base ** (arange(0, dim, 2) / dim), dim = the rotary dimension.
  // p-RoPE (RopeParams::rotated_fraction): the pairs past the turning ones keep frequency 0.
  const int r = rotary_dim(p);
  const int turning = int(std::floor(p.rotated_fraction * r / 2));
  std::vector<double> inv(std::size_t(r / 2), 0.0);
  for (int j = 0; j < turning; ++j) inv[std::size_t(j)] = std::pow(p.base, -2.0 * j / r);
  return inv;
}

namespace {
// Channel indices (a, b) of pair j: b is rotated towards a by the pair's angle.
struct PairIndex {
  std::size_t a, b;
};
PairIndex pair_index(RopePairing pairing, int r, int j) {
  if (pairing == RopePairing::halves) return {std::size_t(j), std::size_t(j + r / 2)};
  return {std::size_t(2 * j), std::size_t(2 * j + 1)};
}
}  // namespace

void apply_rope(const RopeParams& p, std::span<const double> inv_freq, std::span<const float> x, double position,
                std::span<float> out, double attention_factor) {
  const int r = rotary_dim(p);
  for (std::size_t c = std::size_t(r); c < std::size_t(p.head_dim); ++c) out[c] = x[c];
  for (int j = 0; j < r / 2; ++j) {
    const double angle = position * inv_freq[std::size_t(j)];
    const double c = std::cos(angle) * attention_factor, s = std::sin(angle) * attention_factor;
    const auto [a, b] = pair_index(p.pairing, r, j);
    const double xa = x[a], xb = x[b];
    // HF apply_rotary_pos_emb: q * cos + rotate_half(q) * sin, rotate_half(x) = (-x2, x1).
    out[a] = float(xa * c - xb * s);
    out[b] = float(xb * c + xa * s);
  }
}

void apply_rope(const RopeParams& p, std::span<const double> inv_freq, const Matrix& block, double first_position,
                Matrix& out, double attention_factor) {
  out.reshape(block.rows, block.cols);
  for (std::size_t t = 0; t < block.rows; ++t)
    apply_rope(p, inv_freq, std::span<const float>(block.row(t), block.cols), first_position + double(t),
               std::span<float>(out.row(t), out.cols), attention_factor);
}

double rope_score(const RopeParams& p, std::span<const double> inv_freq, std::span<const float> q,
                  std::span<const float> k, double m, double n) {
  std::vector<float> qr(q.size()), kr(k.size());
  apply_rope(p, inv_freq, q, m, qr);
  apply_rope(p, inv_freq, k, n, kr);
  double s = 0.0;
  for (std::size_t c = 0; c < qr.size(); ++c) s += double(qr[c]) * double(kr[c]);
  return s;
}

std::vector<double> rope_clock_angles(std::span<const double> inv_freq, double position) {
  std::vector<double> out;
  out.reserve(inv_freq.size());
  const double two_pi = 2.0 * std::numbers::pi;
  for (double f : inv_freq) {
    const double a = std::fmod(position * f, two_pi);
    out.push_back(a < 0.0 ? a + two_pi : a);
  }
  return out;
}

Matrix rope_decay(std::span<const double> inv_freq, int head_dim, int max_distance) {
  // RoFormer §3.4.3: with h_i = q_[2i:2i+1] k*_[2i:2i+1] and S_j = sum_{k<j} e^{i r theta_k}, Abel
  // summation bounds |sum_i h_i e^{i r theta_i}| by max|h_{i+1} - h_i| * sum_{i=1..d/2} |S_i|; Figure 2
  // plots the "relative upper bound" (1/(d/2)) * sum_{i=1..d/2} |S_i| against r.
  const std::size_t n = inv_freq.size();
  Matrix out(std::size_t(max_distance) + 1, 3);
  const double pass_through = double(head_dim) - 2.0 * double(n);
  for (int r = 0; r <= max_distance; ++r) {
    std::complex<double> partial(0.0, 0.0);
    double sum_cos = 0.0, sum_abs = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      const double angle = double(r) * inv_freq[k];
      sum_cos += std::cos(angle);
      partial += std::polar(1.0, angle);  // S_{k+1}
      sum_abs += std::abs(partial);
    }
    out.at(std::size_t(r), 0) = float(r);
    out.at(std::size_t(r), 1) = float(2.0 * sum_cos + pass_through);
    out.at(std::size_t(r), 2) = n == 0 ? 0.0f : float(sum_abs / double(n));
  }
  return out;
}

Matrix rope_wavelengths(std::span<const double> default_inv_freq, std::span<const double> scaled_inv_freq,
                        std::span<const double> ramp, double original_len, double target_len) {
  const std::size_t n = default_inv_freq.size();
  Matrix out(n, 6);
  const double two_pi = 2.0 * std::numbers::pi;
  for (std::size_t j = 0; j < n; ++j) {
    const double w0 = two_pi / default_inv_freq[j], w1 = two_pi / scaled_inv_freq[j];
    out.at(j, 0) = float(j);
    out.at(j, 1) = float(w0);
    out.at(j, 2) = float(w1);
    out.at(j, 3) = float(original_len / w0);
    out.at(j, 4) = float(target_len / w1);
    out.at(j, 5) = ramp.empty() ? std::numeric_limits<float>::quiet_NaN() : float(ramp[j]);
  }
  return out;
}

}  // namespace peviz
