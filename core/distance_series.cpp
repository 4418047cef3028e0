// The per-method "score against relative distance" series for the comparison chart.
#include "core/distance_series.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/absolute_encodings.hpp"
#include "core/alibi.hpp"
#include "core/errors.hpp"
#include "core/shaw.hpp"
#include "core/t5_buckets.hpp"

namespace peviz {

Matrix normalised_series(const DistanceSeries& s) {
  Matrix out = s.values;
  std::vector<float> peak(out.rows, 0.0f);
  float alibi_peak = 0.0f;  // every ALiBi head shares one scale, so their slopes stay comparable
  for (std::size_t r = 0; r < out.rows; ++r) {
    for (std::size_t c = 0; c < out.cols; ++c)
      if (std::isfinite(out.at(r, c))) peak[r] = std::max(peak[r], std::abs(out.at(r, c)));
    if (r < s.names.size() && s.names[r].starts_with("alibi_h")) alibi_peak = std::max(alibi_peak, peak[r]);
  }
  for (std::size_t r = 0; r < out.rows; ++r) {
    const float scale = r < s.names.size() && s.names[r].starts_with("alibi_h") ? alibi_peak : peak[r];
    if (scale > 0.0f)
      for (std::size_t c = 0; c < out.cols; ++c) out.at(r, c) /= scale;
  }
  return out;
}

namespace {

// The parts of a distance chart as the parameter sets of their own modules.
EncodingParams sinusoid_part(const DistanceSeriesParams& p) {
  EncodingParams enc;
  enc.encoding = Encoding::sinusoidal;
  enc.d_model = p.d_model;
  enc.seq_len = p.seq_len;
  enc.base = p.sinusoid_base;
  enc.layout = Layout::interleaved;
  return enc;
}

T5BucketParams t5_part(const DistanceSeriesParams& p) {
  T5BucketParams t5;
  t5.query_len = t5.key_len = p.seq_len;
  t5.num_buckets = p.num_buckets;
  t5.max_distance = p.max_distance;
  t5.bidirectional = !p.causal;
  return t5;
}

ShawParams shaw_part(const DistanceSeriesParams& p) {
  ShawParams shaw;
  shaw.query_len = shaw.key_len = p.seq_len;
  shaw.max_relative = p.max_relative;
  return shaw;
}

}  // namespace

void validate(const DistanceSeriesParams& p) {
  validate(sinusoid_part(p));  // seq-len, d-model, base
  validate(p.rope, p.rope_scaling);
  validate_alibi_heads(p.heads);
  validate(t5_part(p));
  validate(shaw_part(p));
}

DistanceSeries distance_series(const DistanceSeriesParams& p) {
  validate(p);
  const EncodingParams enc = sinusoid_part(p);
  const ScaledRope rope = rope_scaled_inv_freq(p.rope, p.rope_scaling);
  const std::vector<double> slopes = alibi_slopes(p.heads);

  const int L = p.seq_len;
  const std::size_t n = std::size_t(2 * L - 1);
  DistanceSeries out;
  for (int r = -(L - 1); r <= L - 1; ++r) out.distance.push_back(r);
  out.names = {"sinusoidal", "rope"};
  for (std::size_t h = 0; h < slopes.size(); ++h) out.names.push_back("alibi_h" + std::to_string(h));
  out.names.push_back("t5_bucket");
  out.names.push_back("shaw");
  out.values = Matrix(out.names.size(), n);

  const Matrix pe = encode(enc);
  const Matrix decay = rope_decay(rope.inv_freq, p.rope.head_dim, L - 1);
  for (std::size_t c = 0; c < n; ++c) {
    const int r = out.distance[c];
    const std::size_t a = std::size_t(std::abs(r));
    double dot = 0.0;
    for (std::size_t k = 0; k < pe.cols; ++k) dot += double(pe.at(0, k)) * double(pe.at(a, k));
    out.values.at(0, c) = float(dot);
    out.values.at(1, c) = decay.at(a, 1);
    for (std::size_t h = 0; h < slopes.size(); ++h)
      out.values.at(2 + h, c) = (p.causal && r > 0) ? std::numeric_limits<float>::quiet_NaN()
                                                    : float(slopes[h] * (0.0 - double(a)));  // +0 at r = 0
    out.values.at(2 + slopes.size(), c) = float(t5_relative_position_bucket(r, !p.causal, p.num_buckets, p.max_distance));
    out.values.at(3 + slopes.size(), c) = float(shaw_clip(r, p.max_relative));
  }
  return out;
}

}  // namespace peviz
