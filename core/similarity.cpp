// Position-similarity matrices: the exact Toeplitz closed form for sinusoids and a blocked general path.
#include "core/similarity.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace peviz {

namespace {

// dot over a contiguous run; kept as a separate function so the compiler vectorises the
// reduction (-fopenmp-simd), with 4 rows of b at once to reuse each load of a.
void dot_1x4(const float* a, const float* b0, const float* b1, const float* b2, const float* b3,
             std::size_t n, float out[4]) {
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
  for (std::size_t k = 0; k < n; ++k) {
    s0 += a[k] * b0[k];
    s1 += a[k] * b1[k];
    s2 += a[k] * b2[k];
    s3 += a[k] * b3[k];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
}

float dot_1x1(const float* a, const float* b, std::size_t n) {
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (std::size_t k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

void normalise_to_cosine(const std::vector<float>& norms, Matrix& out) {
  const std::size_t L = out.rows;
  for (std::size_t p = 0; p < L; ++p) {
    float* row = out.row(p);
    const float np = norms[p];
    for (std::size_t q = 0; q < L; ++q) {
      const float den = np * norms[q];
      // A zero vector has similarity 0 with everything (NaN rows stay NaN).
      row[q] = den > 0.0f ? row[q] / den : (std::isnan(den) ? den : 0.0f);
    }
  }
}

}  // namespace

void similarity_matrix(const Matrix& pe, Metric metric, Matrix& out) {
  const std::size_t L = pe.rows, d = pe.cols;
  out.reshape(L, L);
  // Upper triangle in tiles (tile rows of pe stay in cache), mirrored into the lower triangle.
  constexpr std::size_t kTile = 64;
  for (std::size_t p0 = 0; p0 < L; p0 += kTile) {
    const std::size_t p1 = std::min(L, p0 + kTile);
    for (std::size_t q0 = p0; q0 < L; q0 += kTile) {
      const std::size_t q1 = std::min(L, q0 + kTile);
      for (std::size_t p = p0; p < p1; ++p) {
        const float* a = pe.row(p);
        std::size_t q = std::max(q0, p);
        for (; q + 4 <= q1; q += 4) {
          float r[4];
          dot_1x4(a, pe.row(q), pe.row(q + 1), pe.row(q + 2), pe.row(q + 3), d, r);
          std::memcpy(out.row(p) + q, r, sizeof r);
        }
        for (; q < q1; ++q) out.at(p, q) = dot_1x1(a, pe.row(q), d);
      }
    }
  }
  for (std::size_t p = 1; p < L; ++p)
    for (std::size_t q = 0; q < p; ++q) out.at(p, q) = out.at(q, p);
  if (metric == Metric::cosine) {
    std::vector<float> norms(L);
    for (std::size_t p = 0; p < L; ++p) norms[p] = std::sqrt(out.at(p, p));
    normalise_to_cosine(norms, out);
  }
}

void ToeplitzSimilarity::fill_row(std::size_t p, float* out) const {
  const std::size_t L = size();
  if (unpaired.empty() && norms.empty()) {
    // Row p of a symmetric Toeplitz matrix: t[p], t[p-1] .. t[1], t[0], t[1] .. t[L-1-p].
    for (std::size_t q = 0; q < p; ++q) out[q] = float(offsets[p - q] * scale);
    for (std::size_t q = p; q < L; ++q) out[q] = float(offsets[q - p] * scale);
    return;
  }
  for (std::size_t q = 0; q < L; ++q) out[q] = float(at(p, q));
}

ToeplitzSimilarity sinusoidal_similarity_toeplitz(const EncodingParams& p, Metric metric) {
  validate(p);
  const std::size_t L = std::size_t(p.seq_len);
  const std::vector<double> w = sinusoid_frequencies(p.d_model, p.base, p.layout);
  const std::size_t pairs = std::size_t(p.d_model / 2);
  ToeplitzSimilarity t;
  t.metric = metric;
  // sin(a)sin(b) + cos(a)cos(b) = cos(a - b), so pair k contributes cos(w_k (p - q)):
  // t[r] = sum_k cos(w_k r), summed by rotating e^{i w_k r} in double (exact restart
  // every 512 steps).
  t.offsets.assign(L, 0.0);
  std::vector<double> c(pairs), s(pairs), cw(pairs), sw(pairs);
  for (std::size_t k = 0; k < pairs; ++k) {
    cw[k] = std::cos(w[k]);
    sw[k] = std::sin(w[k]);
  }
  constexpr std::size_t kBlock = 512;
  for (std::size_t r0 = 0; r0 < L; r0 += kBlock) {
    for (std::size_t k = 0; k < pairs; ++k) {
      c[k] = std::cos(double(r0) * w[k]);
      s[k] = std::sin(double(r0) * w[k]);
    }
    for (std::size_t r = r0; r < std::min(L, r0 + kBlock); ++r) {
      double sum = 0.0;
      for (std::size_t k = 0; k < pairs; ++k) {
        sum += c[k];
        const double nc = c[k] * cw[k] - s[k] * sw[k];
        s[k] = s[k] * cw[k] + c[k] * sw[k];
        c[k] = nc;
      }
      t.offsets[r] = sum;
    }
  }
  // Odd d, interleaved layout: the last sin channel has no cos partner and adds the rank-one
  // term u[p] u[q] with u[p] = sin(p w_last). (Halves puts a zero column there instead.)
  if (p.layout == Layout::interleaved && (p.d_model % 2 == 1)) {
    t.unpaired.resize(L);
    for (std::size_t i = 0; i < L; ++i) t.unpaired[i] = std::sin(double(i) * w.back());
  }
  if (metric == Metric::cosine) {
    if (t.unpaired.empty()) {
      // Every row has norm^2 = pairs, so cosine is dot / pairs.
      t.scale = pairs > 0 ? 1.0 / double(pairs) : 0.0;
    } else {
      t.norms.resize(L);
      for (std::size_t i = 0; i < L; ++i) t.norms[i] = std::sqrt(t.offsets[0] + t.unpaired[i] * t.unpaired[i]);
    }
  }
  return t;
}

void sinusoidal_similarity(const EncodingParams& p, Metric metric, Matrix& out) {
  validate(p);
  const std::size_t L = std::size_t(p.seq_len);
  check_result_size(L, L, p.memory_budget, "the similarity matrix");
  const ToeplitzSimilarity t = sinusoidal_similarity_toeplitz(p, metric);
  out.reshape(L, L);
  if (L > 0 && t.unpaired.empty()) {
    // Each row of a symmetric Toeplitz matrix is a window into [row L-1, row 0 from its second
    // cell]: t[L-1] .. t[1], t[0], t[1] .. t[L-1]. One memcpy per row (bound by memory bandwidth).
    std::vector<float> mirrored(2 * L - 1);
    t.fill_row(L - 1, mirrored.data());
    t.fill_row(0, mirrored.data() + (L - 1));  // rewrites the shared t[0] cell with the same value
    for (std::size_t row = 0; row < L; ++row)
      std::memcpy(out.row(row), mirrored.data() + (L - 1 - row), L * sizeof(float));
    return;
  }
  for (std::size_t row = 0; row < L; ++row) t.fill_row(row, out.row(row));
}

void similarity(const EncodingParams& p, Metric metric, Matrix& out, MissingRows missing) {
  if (p.encoding == Encoding::sinusoidal) {
    sinusoidal_similarity(p, metric, out);
    return;
  }
  validate(p);
  check_result_size(std::size_t(p.seq_len), std::size_t(p.seq_len), p.memory_budget,
                    "the similarity matrix");
  Matrix pe;
  encode(p, pe, missing);
  similarity_matrix(pe, metric, out);
}

}  // namespace peviz
