// Rotary position embedding (RoPE): frequencies, rotating a query/key block, scores, decay, wavelengths.
//
// Conventions (every RoPE function in peviz follows them):
//  - Pair j (0 <= j < R/2, R = rotary dimension) turns at the inverse frequency inv_freq_j.
//    Default frequencies: inv_freq_j = base^(-2j/R) (RoFormer eq. 15; HF transformers
//    src/transformers/modeling_rope_utils.py, _compute_default_rope_parameters).
//  - Pairing `halves`: channel j rotates with channel j + R/2 (GPT-NeoX / HF LLaMA `rotate_half`,
//    src/transformers/models/llama/modeling_llama.py, rotate_half + apply_rotary_pos_emb).
//    Pairing `interleaved`: channel 2j rotates with 2j+1 (RoFormer, GPT-J `rotate_every_two`,
//    src/transformers/models/gptj/modeling_gptj.py, rotate_every_two).
//  - Partial rotary: only the first R channels rotate; channels R..head_dim-1 pass through
//    unchanged (HF `partial_rotary_factor`, GPT-NeoX `rotary_pct`, GPT-J `rotary_dim`).
//  - A position p turns pair j by the angle p * inv_freq_j: (x, y) -> (x cos - y sin, y cos + x sin).
//  - Relative position is always key - query: r = n - m for a query at m and a key at n. The score
//    <RoPE(q, m), RoPE(k, n)> depends on m and n only through r.
#pragma once
#include <array>
#include <span>
#include <string_view>
#include <vector>


#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"

namespace peviz {

enum class RopePairing { halves, interleaved };

struct RopeParams {
  int head_dim = 128;        // channels per attention head, even, 2..16384
  int rotary_dim = 0;        // channels that rotate, even, 2..head_dim; 0 = head_dim
  double base = 10000.0;     // rope_theta, finite and > 1
  RopePairing pairing = RopePairing::halves;
  // p-RoPE: the first floor(fraction x rotary_dim / 2) pairs (the fastest) keep base^(-2j/R); the slower ones get
  // frequency 0 and do not turn (Barbero et al. 2024; Gemma's apply_rope pads its rope_proportion's inverse
  // frequencies with zeros the same way). 1 = RoPE.
  double rotated_fraction = limits::rope_proportion.fallback;
  bool operator==(const RopeParams&) const = default;
};

inline constexpr int kMaxHeadDim = int(limits::head_dim.max);  // the limits table's

// "halves" / "interleaved": the one spelling of the pairing (CLI, state JSON, captions), in the enum's order.
inline constexpr std::array<std::string_view, 2> kRopePairingNames = {"halves", "interleaved"};
std::string_view to_string(RopePairing p);
// Throws ParamError("pairing", ...) for any other name.
RopePairing parse_pairing(std::string_view name);

// Throws ParamError("head-dim" | "rotary-dim" | "base", rule).
void validate(const RopeParams& p);
// The number of rotating channels R (rotary_dim, or head_dim when rotary_dim is 0).
int rotary_dim(const RopeParams& p);

// Default (unscaled) frequencies inv_freq_j = base^(-2j/R), j < R/2. Validates p.
std::vector<double> rope_inv_freq(const RopeParams& p);

// Rotates one head vector `x` (head_dim values) for position `position`: out = RoPE(x, position).
// `attention_factor` multiplies cos and sin, as HF does with `attention_scaling` (so a score between
// two rotated vectors is scaled by its square); pass-through channels are copied unscaled, as in HF.
void apply_rope(const RopeParams& p, std::span<const double> inv_freq, std::span<const float> x,
                double position, std::span<float> out, double attention_factor = 1.0);
// Rotates every row of `block` (rows x head_dim); row t sits at position first_position + t.
void apply_rope(const RopeParams& p, std::span<const double> inv_freq, const Matrix& block,
                double first_position, Matrix& out, double attention_factor = 1.0);

// <RoPE(q, m), RoPE(k, n)> computed in double: the attention logit of a query at m and a key at n
// (before the 1/sqrt(d) scaling).
double rope_score(const RopeParams& p, std::span<const double> inv_freq, std::span<const float> q,
                  std::span<const float> k, double m, double n);

// The "clock" of every pair at `position`: the angle position * inv_freq_j wrapped to [0, 2 pi), in
// radians. Fast pairs (small j) spin; slow pairs barely move.
std::vector<double> rope_clock_angles(std::span<const double> inv_freq, double position);

// Long-term decay (RoFormer, Su et al. 2021, §3.4.3 and Figure 2), for r = 0..max_distance.
// Returns a (max_distance+1) x 3 matrix with columns:
//   r, score(r) = <RoPE(1, 0), RoPE(1, r)> for q = k = all ones = 2 * sum_j cos(r inv_freq_j)
//      + (head_dim - R) (the pass-through channels each add 1),
//   relative upper bound (2/R) * sum_{i=1..R/2} |S_i|, S_i = sum_{k<i} exp(i r inv_freq_k).
Matrix rope_decay(std::span<const double> inv_freq, int head_dim, int max_distance);

// Per-pair wavelength table against the original and the target context length.
// Columns: pair j, wavelength 2*pi/inv_freq of the default frequencies, wavelength of the scaled
// frequencies, full turns of the default pair inside original_len, full turns of the scaled pair
// inside target_len, YaRN ramp (NaN when `ramp` is empty). A pair with turns < 1 never completes a
// turn inside that context: it only ever sees part of its circle.
Matrix rope_wavelengths(std::span<const double> default_inv_freq, std::span<const double> scaled_inv_freq,
                        std::span<const double> ramp, double original_len, double target_len);

}  // namespace peviz
