// Position-similarity matrices: the exact Toeplitz closed form for sinusoids and a blocked general path.
#include "core/encodings/similarity.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/base/parallel.hpp"
#include "core/simd/simd_kernels.hpp"

namespace peviz {

namespace {

// Cosine from dot products: row p divided by |p| |q|. A zero vector has similarity 0 with
// everything; NaN rows stay NaN.
void normalise_row(const std::vector<float>& norms, std::size_t p, float* row) {
  const float np = norms[p];
  for (std::size_t q = 0; q < norms.size(); ++q) {
    const float den = np * norms[q];
    row[q] = den > 0.0f ? row[q] / den : (std::isnan(den) ? den : 0.0f);
  }
}

// |row p| = sqrt(dot(p, p)) with the same kernel as every other cell.
std::vector<float> row_norms(const Matrix& pe, SimdPath path) {
  std::vector<float> norms(pe.rows);
  for (std::size_t p = 0; p < pe.rows; ++p) {
    dot_rows(path, pe.row(p), pe.row(p), pe.cols, 1, pe.cols, &norms[p]);
    norms[p] = std::sqrt(norms[p]);
  }
  return norms;
}

}  // namespace

void similarity_matrix(const Matrix& pe, Metric metric, Matrix& out) {
  const std::size_t L = pe.rows, d = pe.cols;
  const SimdPath path = best_simd_path();
  out.reshape(L, L);
  // Upper triangle in tiles (tile rows of pe stay in cache), mirrored into the lower triangle:
  // dot(p, q) and dot(q, p) have the same bits (simd_kernels.hpp), so this equals row-by-row.
  constexpr std::size_t kTile = 64;
  for (std::size_t p0 = 0; p0 < L; p0 += kTile) {
    const std::size_t p1 = std::min(L, p0 + kTile);
    for (std::size_t q0 = p0; q0 < L; q0 += kTile) {
      const std::size_t q1 = std::min(L, q0 + kTile);
      for (std::size_t p = p0; p < p1; ++p) {
        const std::size_t q = std::max(q0, p);
        if (q < q1) dot_rows(path, pe.row(p), pe.row(q), d, q1 - q, d, out.row(p) + q);
      }
    }
  }
  for (std::size_t p = 1; p < L; ++p)
    for (std::size_t q = 0; q < p; ++q) out.at(p, q) = out.at(q, p);
  if (metric == Metric::cosine) {
    const std::vector<float> norms = row_norms(pe, path);
    for (std::size_t p = 0; p < L; ++p) normalise_row(norms, p, out.row(p));
  }
}

SimilarityRows prepare_similarity_rows(const EncodingParams& p, Metric metric, MissingRows missing) {
  validate(p);
  SimilarityRows rows;
  rows.metric = metric;
  rows.L = std::size_t(p.seq_len);
  rows.threads = resolve_threads(p.threads);
  if (p.encoding == Encoding::sinusoidal) {
    rows.toeplitz = sinusoidal_similarity_toeplitz(p, metric);
    if (rows.toeplitz.unpaired.empty()) {
      // Each row of a symmetric Toeplitz matrix is a window into [row L-1, row 0 from its second
      // cell]: t[L-1] .. t[1], t[0], t[1] .. t[L-1]. One memcpy per row (bound by memory bandwidth).
      rows.mirrored.resize(2 * rows.L - 1);
      rows.toeplitz.fill_row(rows.L - 1, rows.mirrored.data());
      rows.toeplitz.fill_row(0, rows.mirrored.data() + (rows.L - 1));  // rewrites the shared t[0] with the same value
    }
    return rows;
  }
  encode(p, rows.pe, missing);
  if (metric == Metric::cosine) rows.norms = row_norms(rows.pe, best_simd_path());
  return rows;
}

void SimilarityRows::fill(std::size_t first, std::size_t count, float* out) const {
  const SimdPath path = best_simd_path();
  parallel_rows(first, count, 1, threads, [&](std::size_t from, std::size_t n) {
    for (std::size_t row = from; row < from + n; ++row) {
      float* dst = out + (row - first) * L;
      if (!mirrored.empty()) {
        std::memcpy(dst, mirrored.data() + (L - 1 - row), L * sizeof(float));
      } else if (!toeplitz.offsets.empty()) {
        toeplitz.fill_row(row, dst);
      } else {
        dot_rows(path, pe.row(row), pe.data.data(), pe.cols, L, pe.cols, dst);
        if (metric == Metric::cosine) normalise_row(norms, row, dst);
      }
    }
  });
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

RowSource similarity_row_source(const EncodingParams& p, Metric metric) {
  auto rows = std::make_shared<const SimilarityRows>(prepare_similarity_rows(p, metric));
  RowSource src;
  src.shape = {rows->L, rows->L};
  src.fill = [rows](std::size_t first, std::size_t count, void* out) { rows->fill(first, count, static_cast<float*>(out)); };
  return src;
}

void sinusoidal_similarity(const EncodingParams& p, Metric metric, Matrix& out) {
  validate(p);
  const std::size_t L = std::size_t(p.seq_len);
  check_result_size(L, L, p.memory_budget, "the similarity matrix");
  const SimilarityRows rows = prepare_similarity_rows(p, metric);
  out.reshape(L, L);
  rows.fill(0, L, out.data.data());
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
