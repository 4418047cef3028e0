// ALiBi (Press et al. 2022): per-head slopes and the linear attention bias [head, query i, key j].
//
// Conventions: relative position r = j - i (key - query). The causal bias is -m_h * (i - j) = m_h * r
// for j <= i and masked (NaN) above the diagonal (j > i), as in the paper's Figure 3. The bidirectional
// variant is -m_h * |i - j| for every (i, j). The reference implementation adds m_h * j to row i
// instead (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py, buffered_future_mask);
// it differs from -m_h * (i - j) by m_h * i per row, which softmax ignores.
#pragma once
#include <cstdint>
#include <vector>

#include "core/io/array_stream.hpp"
#include "core/base/limits.hpp"
#include "core/io/nd_array.hpp"
#include "core/encodings/params.hpp"

namespace peviz {

inline constexpr int kMaxHeads = int(limits::alibi_heads.max);  // the limits table's

// Throws ParamError("heads", ...) unless 1 <= heads <= 4096.
void validate_alibi_heads(int heads);

// Slopes m_h for h < heads (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py,
// get_slopes): for n a power of two, m_h = 2^(-8(h+1)/n); otherwise the slopes of the largest power of
// two p < n followed by every other slope of 2p (its entries 0, 2, 4, ...), n - p of them.
std::vector<double> alibi_slopes(int heads);

// The [heads, L, L] bias as float32 rows (row h * L + i), streamed; throws ParamError for bad heads
// or seq-len. No memory budget: one row at a time.
RowSource alibi_bias_rows(int heads, int seq_len, bool bidirectional);

// The [heads, L, L] bias as float32 in memory; causal masks j > i with NaN. Throws ParamError for bad heads or
// seq-len, or when the result exceeds `budget` bytes.
NdArray alibi_bias(int heads, int seq_len, bool bidirectional, std::uint64_t budget = kDefaultMemoryBudget);

}  // namespace peviz
