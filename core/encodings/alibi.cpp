// ALiBi head slopes and bias tensors.
#include "core/encodings/alibi.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/encodings/relative_matrix.hpp"

namespace peviz {

void validate_alibi_heads(int heads) {
  check_int(limits::alibi_heads, heads);
}

namespace {
// get_slopes_power_of_2: start = 2^(-2^-(log2(n) - 3)) = 2^(-8/n); slope_h = start * start^h.
std::vector<double> power_of_two_slopes(int n) {
  const double start = std::exp2(-8.0 / double(n));
  std::vector<double> s(static_cast<std::size_t>(n));
  for (int h = 0; h < n; ++h) s[std::size_t(h)] = start * std::pow(start, double(h));
  return s;
}
}  // namespace

std::vector<double> alibi_slopes(int heads) {
  validate_alibi_heads(heads);
  int p = 1;
  while (p * 2 <= heads) p *= 2;  // closest_power_of_2 = 2^floor(log2(n))
  std::vector<double> s = power_of_two_slopes(p);
  if (p == heads) return s;
  // get_slopes(2 * closest_power_of_2)[0::2][:n - closest_power_of_2]
  const std::vector<double> twice = alibi_slopes(2 * p);
  for (int h = 0; h < heads - p; ++h) s.push_back(twice[std::size_t(2 * h)]);
  return s;
}

RowSource alibi_bias_rows(int heads, int seq_len, bool bidirectional) {
  validate_alibi_heads(heads);
  check_length(seq_len, "seq-len");
  const std::size_t l = std::size_t(seq_len);
  RowSource src;
  src.shape = {std::size_t(heads), l, l};
  src.fill = [slopes = alibi_slopes(heads), l, bidirectional](std::size_t first, std::size_t count, void* out) {
    const float masked = std::numeric_limits<float>::quiet_NaN();
    for (std::size_t r = first; r < first + count; ++r) {  // row r = h * L + i
      const std::size_t h = r / l, i = r % l;
      float* row = static_cast<float*>(out) + (r - first) * l;
      for (std::size_t j = 0; j < l; ++j) {
        // -m |i - j| written as m * (min - max), so the diagonal is +0, not -0.
        const double neg_dist = double(std::min(i, j)) - double(std::max(i, j));
        row[j] = (!bidirectional && j > i) ? masked : float(slopes[h] * neg_dist);
      }
    }
  };
  return src;
}

NdArray alibi_bias(int heads, int seq_len, bool bidirectional, std::uint64_t budget) {
  validate_alibi_heads(heads);
  check_length(seq_len, "seq-len");
  const std::size_t h_n = std::size_t(heads), l = std::size_t(seq_len);
  check_result_size(h_n * l, l, budget, "the ALiBi bias");
  return materialise(alibi_bias_rows(heads, seq_len, bidirectional));
}

}  // namespace peviz
