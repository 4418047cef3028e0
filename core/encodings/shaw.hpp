// Shaw et al. 2018 clipped relative positions: clip(j - i, -k, k) for query i and key j.
//
// Convention: relative position r = key - query = j - i. When there are fewer queries than keys, the
// queries are the last ones: query i sits at key position key_len - query_len + i (tensor2tensor
// tensor2tensor/layers/common_attention.py, _generate_relative_positions_matrix, `range_vec_k[-length_q:]`).
// The values are the signed clipped distances in [-k, k]; tensor2tensor's embedding index is value + k.
#pragma once
#include <cstdint>

#include "core/io/array_stream.hpp"
#include "core/io/nd_array.hpp"
#include "core/encodings/params.hpp"

namespace peviz {

struct ShawParams {
  int query_len = 128;      // 1..65536, at most key_len
  int key_len = 128;        // 1..65536
  int max_relative = 16;    // k, 0..65536
  std::uint64_t memory_budget = kDefaultMemoryBudget;
};

// Throws ParamError("seq-len" | "key-len" | "max-relative", rule); validate also checks the in-memory
// matrix against memory_budget ("max-memory"), validate_shape does not.
void validate(const ShawParams& p);
void validate_shape(const ShawParams& p);
// Square L x L params (the T5/Shaw page and the distance chart).
ShawParams square_shaw_params(int seq_len, int max_relative);

// clip(r, -k, k), the one rule shared by the matrix and the distance series.
int shaw_clip(long long relative_position, int max_relative);

// The int32 [query_len, key_len] rows of clipped relative positions, streamed (validate_shape first).
RowSource shaw_relative_rows(const ShawParams& p);
// The same, in memory. Validates first.
NdArray shaw_relative_positions(const ShawParams& p);

}  // namespace peviz
