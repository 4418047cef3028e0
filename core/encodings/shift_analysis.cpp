// Channel frequencies and the shift matrix R(k) of the sinusoidal encoding, with its measured error.
#include "core/encodings/shift_analysis.hpp"

#include <algorithm>
#include <cmath>

#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz {

std::vector<ChannelFrequency> channel_frequencies(int d_model, double base, Layout layout) {
  const std::vector<double> w = sinusoid_frequencies(d_model, base, layout);
  const int n = int(w.size());
  const int pairs = d_model / 2;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  std::vector<ChannelFrequency> out(w.size());
  for (int i = 0; i < n; ++i) {
    ChannelFrequency& f = out[std::size_t(i)];
    f.pair = i;
    f.w = w[std::size_t(i)];
    f.wavelength = kTwoPi / f.w;
    if (layout == Layout::interleaved) {
      f.sin_channel = 2 * i;
      f.cos_channel = i < pairs ? 2 * i + 1 : -1;
    } else {
      f.sin_channel = i;
      f.cos_channel = n + i;
    }
  }
  return out;
}

Matrix shift_matrix(int d_model, double base, Layout layout, double k) {
  Matrix r{std::size_t(d_model), std::size_t(d_model), 0.0f};
  for (const ChannelFrequency& f : channel_frequencies(d_model, base, layout)) {
    const float c = float(std::cos(k * f.w)), s = float(std::sin(k * f.w));
    const auto si = std::size_t(f.sin_channel);
    if (f.cos_channel < 0) {
      r.at(si, si) = c;
      continue;
    }
    const auto ci = std::size_t(f.cos_channel);
    r.at(si, si) = c;
    r.at(si, ci) = s;
    r.at(ci, si) = -s;
    r.at(ci, ci) = c;
  }
  return r;
}

void apply_matrix(const Matrix& r, const float* x, float* y) {
  for (std::size_t i = 0; i < r.rows; ++i) {
    const float* row = r.row(i);
    double acc = 0.0;
    for (std::size_t j = 0; j < r.cols; ++j) acc += double(row[j]) * double(x[j]);
    y[i] = float(acc);
  }
}

ShiftCheck measure_shift_identity(const EncodingParams& p, int k) {
  if (p.encoding != Encoding::sinusoidal)
    throw ParamError("encoding", "the shift matrix R(k) exists for sinusoidal encodings only");
  check_int(Limit{.name = "shift", .min = 0, .max = double(p.seq_len - 1), .fallback = 0}, k);  // a position
  const Matrix pe = encode(p);
  const Matrix r = shift_matrix(p.d_model, p.base, p.layout, double(k));
  const int count = p.seq_len - k;
  // Dense R x is O(d^2) per position: stride over p to keep the check near 1e8 multiply-adds.
  const double per_position = double(p.d_model) * double(p.d_model);
  const int stride = std::max(1, int(per_position * count / 1e8));
  ShiftCheck check;
  std::vector<float> y(std::size_t(p.d_model));
  for (int t = 0; t < count; t += stride) {
    apply_matrix(r, pe.row(std::size_t(t)), y.data());
    const float* target = pe.row(std::size_t(t + k));
    for (std::size_t c = 0; c < y.size(); ++c)
      check.max_abs_error = std::max(check.max_abs_error, std::abs(double(target[c]) - double(y[c])));
    ++check.positions_checked;
  }
  return check;
}

}  // namespace peviz
