// The absolute position encodings: a [position, channel] matrix for positions 0..L-1.
#pragma once
#include <vector>

#include "core/matrix.hpp"
#include "core/params.hpp"

namespace peviz {

// What to do with positions a learned table has no row for (t >= max_len).
enum class MissingRows { error, nan };

// Fills `out` (reshaped to L x encoding_width) with the encoding chosen in `p`.
// Validates `p` first. Reuses out's memory.
void encode(const EncodingParams& p, Matrix& out, MissingRows missing = MissingRows::error);
Matrix encode(const EncodingParams& p, MissingRows missing = MissingRows::error);

// Angular frequency of each sin/cos pair, in the order of the pairs.
//  interleaved (Vaswani 2017 §3.5): w_i = base^(-2i/d), i < ceil(d/2)
//  halves (tensor2tensor): w_k = exp(-k ln(base) / max(n-1, 1)), k < n = floor(d/2)
std::vector<double> sinusoid_frequencies(int d_model, double base, Layout layout);

// The random GPT-2-style learned table: N(0, 0.02^2), rows = max_len, from `seed`.
Matrix learned_random_table(int max_len, int d_model, std::uint64_t seed);

}  // namespace peviz
