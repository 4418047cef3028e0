// The per-method "score against relative distance" series for the comparison chart.
#include "core/encodings/distance_series.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>

#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/alibi.hpp"
#include "core/base/errors.hpp"
#include "core/encodings/shaw.hpp"
#include "core/encodings/t5_buckets.hpp"

namespace peviz {

bool is_id_series(const std::string& name) { return name == "t5_bucket" || name == "shaw"; }

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

}  // namespace

void validate(const DistanceSeriesParams& p) {
  try {
    validate(sinusoid_part(p));  // seq-len, d-model, base
  } catch (const ParamError& e) {  // the sinusoid's base is this command's --sinusoid-base (--base is RoPE's)
    if (e.param != "base") throw;
    throw ParamError("sinusoid-base", e.rule);
  }
  validate(p.rope, p.rope_scaling);
  validate_alibi_heads(p.heads);
  validate_shape(square_t5_params(p.seq_len, p.num_buckets, p.max_distance, p.causal));
  validate_shape(square_shaw_params(p.seq_len, p.max_relative));
}

DistanceSeriesPlan plan_distance_series(const DistanceSeriesParams& p) {
  validate(p);
  const ScaledRope rope = rope_scaled_inv_freq(p.rope, p.rope_scaling);
  DistanceSeriesPlan plan;
  plan.params = p;
  plan.slopes = alibi_slopes(p.heads);
  plan.names = {"sinusoidal", "rope"};
  for (std::size_t h = 0; h < plan.slopes.size(); ++h) plan.names.push_back("alibi_h" + std::to_string(h));
  plan.names.push_back("t5_bucket");
  plan.names.push_back("shaw");
  plan.pe = encode(sinusoid_part(p));
  plan.decay = rope_decay(rope.inv_freq, p.rope.head_dim, p.seq_len - 1);
  return plan;
}

void DistanceSeriesPlan::values_at(int r, float* out) const {
  const DistanceSeriesParams& p = params;
  const std::size_t a = std::size_t(std::abs(r));
  double dot = 0.0;
  for (std::size_t k = 0; k < pe.cols; ++k) dot += double(pe.at(0, k)) * double(pe.at(a, k));
  out[0] = float(dot);
  out[1] = decay.at(a, 1);
  for (std::size_t h = 0; h < slopes.size(); ++h)
    out[2 + h] = (p.causal && r > 0) ? std::numeric_limits<float>::quiet_NaN()
                                     : float(slopes[h] * (0.0 - double(a)));  // +0 at r = 0
  out[2 + slopes.size()] = float(t5_relative_position_bucket(r, !p.causal, p.num_buckets, p.max_distance));
  out[3 + slopes.size()] = float(shaw_clip(r, p.max_relative));
}

DistanceSeries distance_series(const DistanceSeriesParams& p) {
  const DistanceSeriesPlan plan = plan_distance_series(p);
  const int L = p.seq_len;
  DistanceSeries out;
  for (int r = -(L - 1); r <= L - 1; ++r) out.distance.push_back(r);
  out.names = plan.names;
  out.values = Matrix(out.names.size(), out.distance.size());
  std::vector<float> column(out.names.size());
  for (std::size_t c = 0; c < out.distance.size(); ++c) {
    plan.values_at(out.distance[c], column.data());
    for (std::size_t row = 0; row < column.size(); ++row) out.values.at(row, c) = column[row];
  }
  return out;
}

NdArray series_table(const DistanceSeries& s) {
  const std::size_t n = s.distance.size(), k = s.names.size();
  std::vector<float> values(n * (k + 1));
  for (std::size_t c = 0; c < n; ++c) {
    values[c * (k + 1)] = float(s.distance[c]);
    for (std::size_t row = 0; row < k; ++row) values[c * (k + 1) + 1 + row] = s.values.at(row, c);
  }
  return NdArray::from_floats({n, k + 1}, std::move(values));
}

RowSource distance_series_rows(DistanceSeriesPlan plan_in) {
  auto plan = std::make_shared<const DistanceSeriesPlan>(std::move(plan_in));
  const int L = plan->params.seq_len;
  const std::size_t cols = plan->names.size() + 1;
  RowSource src;
  src.shape = {std::size_t(2 * L - 1), cols};
  src.fill = [plan, cols, L](std::size_t first, std::size_t count, void* out) {
    for (std::size_t c = first; c < first + count; ++c) {
      float* row = static_cast<float*>(out) + (c - first) * cols;
      const int r = int(c) - (L - 1);
      row[0] = float(r);
      plan->values_at(r, row + 1);
    }
  };
  return src;
}

}  // namespace peviz
