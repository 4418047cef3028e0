// One "score against relative distance" series per method at the same L, to compare them on one chart.
//
// Distances run over r = j - i = -(L-1) .. L-1 (key - query). Series, in order:
//  - "sinusoidal": PE(0) . PE(|r|) of the sinusoidal table (interleaved, d_model, base); for sinusoids
//    PE(i) . PE(i + r) = sum_k cos(w_k r) depends only on |r|.
//  - "rope": 2 * sum_j cos(r inv_freq_j) + pass-through channels, the RoFormer decay score for
//    q = k = all ones (even in r).
//  - "alibi_h<h>" for every head: -m_h |r| bidirectional; causal: m_h * r for r <= 0, NaN for r > 0.
//  - "t5_bucket": the T5 bucket id of r (bidirectional, or causal when `causal`).
//  - "shaw": clip(r, -k, k).
#pragma once
#include <string>
#include <vector>

#include "core/io/array_stream.hpp"
#include "core/base/matrix.hpp"
#include "core/rope/rope.hpp"
#include "core/rope/rope_scaling.hpp"

namespace peviz {

struct DistanceSeriesParams {
  int seq_len = 128;                 // L, 1..65536
  int d_model = 128;                 // sinusoidal width, 1..16384
  double sinusoid_base = 10000.0;    // sinusoidal base, > 1
  RopeParams rope;                   // RoPE head_dim, rotary_dim, base
  RopeScalingParams rope_scaling;    // RoPE scaling (none by default)
  int heads = 8;                     // ALiBi heads, 1..4096
  bool causal = false;               // ALiBi and T5 in their causal form
  int num_buckets = 32;              // T5 relative_attention_num_buckets
  int max_distance = 128;            // T5 relative_attention_max_distance
  int max_relative = 16;             // Shaw k
};

struct DistanceSeries {
  std::vector<int> distance;         // r = -(L-1) .. L-1
  std::vector<std::string> names;    // one per row of `values`
  Matrix values;                     // names.size() x distance.size()
};

// Each row divided by its largest |value| (NaN kept, all-zero rows stay zero), so that every series lies
// in [-1, 1] and the methods compare on one axis: sinusoidal and RoPE become 1 at r = 0, T5 buckets
// run from 0 up to 1, Shaw from -1 to 1. The ALiBi heads share one divisor (the steepest head's
// largest |bias|): head 0 runs from 0 down to -1 and the others keep their slopes relative to it.
Matrix normalised_series(const DistanceSeries& s);

// True for the series whose values are ids or clipped distances ("t5_bucket", "shaw") rather than attention
// scores: a chart gives them their own axis, in their own units.
bool is_id_series(const std::string& name);

// What every distance needs, computed once: the sinusoidal table, the RoPE decay table, the slopes.
struct DistanceSeriesPlan {
  DistanceSeriesParams params;
  std::vector<double> slopes;       // ALiBi m_h
  std::vector<std::string> names;   // the series, in order
  Matrix pe;                        // sinusoidal table, L x d_model
  Matrix decay;                     // rope_decay rows r = 0 .. L-1
  // The value of every series at distance r (names.size() values into out).
  void values_at(int r, float* out) const;
};
// Validates every part (throws ParamError naming the flag); no memory budget.
DistanceSeriesPlan plan_distance_series(const DistanceSeriesParams& p);

// Validates every part (sinusoid, RoPE and its scaling, ALiBi heads, T5 buckets, Shaw; no memory
// budget): throws ParamError naming the flag.
void validate(const DistanceSeriesParams& p);
// Validates (as above) and computes all series.
DistanceSeries distance_series(const DistanceSeriesParams& p);

// The export's table in memory: rows r = -(L-1) .. L-1 with columns r, then every series at r.
NdArray series_table(const DistanceSeries& s);

// The export's table, streamed: rows r = -(L-1) .. L-1 with columns r, then every series at r.
RowSource distance_series_rows(DistanceSeriesPlan plan);

}  // namespace peviz
