// T5 relative-position buckets (Raffel et al. 2020) exactly as HF T5Attention computes them.
//
// Convention: relative position r = key - query = j - i (HF compute_bias: memory_position -
// context_position, both counted from 0). Bidirectional: the upper half of the buckets is for r > 0.
// Causal: r > 0 (a future key) falls into bucket 0; the causal mask itself is applied elsewhere.
#pragma once
#include <cstdint>

#include "core/io/array_stream.hpp"
#include "core/io/nd_array.hpp"
#include "core/encodings/params.hpp"

namespace peviz {

struct T5BucketParams {
  int query_len = 128;      // queries 0..query_len-1, 1..65536
  int key_len = 128;        // keys 0..key_len-1, 1..65536
  int num_buckets = 32;     // HF relative_attention_num_buckets; >= 2 causal, >= 4 bidirectional
  int max_distance = 128;   // HF relative_attention_max_distance; > the exact range
  bool bidirectional = true;
  std::uint64_t memory_budget = kDefaultMemoryBudget;
};

// Throws ParamError("seq-len" | "key-len" | "num-buckets" | "max-distance", rule); validate also
// checks the in-memory matrix against memory_budget ("max-memory"), validate_shape does not.
void validate(const T5BucketParams& p);
void validate_shape(const T5BucketParams& p);
// Square L x L params (the T5/Shaw page and the distance chart): bidirectional = !causal.
T5BucketParams square_t5_params(int seq_len, int num_buckets, int max_distance, bool causal);
// The bounds that depend on the other knobs: at least 2 buckets (causal) or 4 (bidirectional), and
// max_distance above the exact range, max_exact = (buckets after the sign split) / 2 (see below).
int t5_min_buckets(bool bidirectional);
int t5_exact_range(int num_buckets, bool bidirectional);

// HF transformers src/transformers/models/t5/modeling_t5.py, T5Attention._relative_position_bucket:
// |r| < max_exact = (buckets after the sign split) / 2 gets its own bucket; larger distances get
// max_exact + int32(float32(log(float32(|r|) / max_exact)) / float32(log(max_distance / max_exact))
// * (buckets - max_exact)), truncated toward zero and capped at buckets - 1. The float32 steps are
// kept so bucket boundaries match the original (and mesh-tensorflow's) exactly.
int t5_relative_position_bucket(long long relative_position, bool bidirectional, int num_buckets, int max_distance);

// The int32 [query_len, key_len] rows of buckets of r = j - i, streamed (validate_shape first).
RowSource t5_bucket_rows(const T5BucketParams& p);
// The same, in memory. Validates first.
NdArray t5_bucket_matrix(const T5BucketParams& p);

}  // namespace peviz
