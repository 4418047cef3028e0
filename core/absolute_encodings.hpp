// The absolute position encodings: a [position, channel] matrix for positions 0..L-1.
#pragma once
#include <memory>
#include <vector>

#include "core/array_stream.hpp"
#include "core/matrix.hpp"
#include "core/params.hpp"
#include "core/simd_kernels.hpp"

namespace peviz {

// What to do with positions a learned table has no row for (t >= max_len).
enum class MissingRows { error, nan };

// Fills `out` (reshaped to L x encoding_width) with the encoding chosen in `p`.
// Validates `p` first. Reuses out's memory.
void encode(const EncodingParams& p, Matrix& out, MissingRows missing = MissingRows::error);
Matrix encode(const EncodingParams& p, MissingRows missing = MissingRows::error);

// Everything `encode` needs for any block of positions, prepared once (the sinusoid plan, the learned
// table). encode() and the streamed export both fill rows through it, so their bits are the same.
struct EncodingRows {
  EncodingParams params;
  std::size_t width = 0;                 // encoding_width(params)
  SinusoidPlan plan;                     // sinusoidal
  std::shared_ptr<const Matrix> table;   // learned: the given or the random table
  int threads = 1;                       // resolved params.threads
  // Rows t = first .. first + count - 1 into out (count x width floats), on `threads` threads.
  void fill(std::size_t first, std::size_t count, float* out) const;
};
// Validates p (and refuses missing learned rows unless missing == nan). No L x width memory.
EncodingRows prepare_encoding_rows(const EncodingParams& p, MissingRows missing = MissingRows::error);

// The exported table, streamed: float32, or int32 for the whole-number encodings (binary, integer).
RowSource encoding_row_source(const EncodingParams& p);

// Angular frequency of each sin/cos pair, in the order of the pairs.
//  interleaved (Vaswani 2017 §3.5): w_i = base^(-2i/d), i < ceil(d/2)
//  halves (tensor2tensor): w_k = exp(-k ln(base) / max(n-1, 1)), k < n = floor(d/2)
std::vector<double> sinusoid_frequencies(int d_model, double base, Layout layout);

// The random GPT-2-style learned table: N(0, 0.02^2), rows = max_len, from `seed`.
Matrix learned_random_table(int max_len, int d_model, std::uint64_t seed);

}  // namespace peviz
