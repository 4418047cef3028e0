// Similarity between every pair of positions (dot or cosine), exact and fast for sinusoids.
#pragma once
#include <cstddef>
#include <vector>

#include "core/io/array_stream.hpp"
#include "core/base/matrix.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/params.hpp"

namespace peviz {

// General path: out[p][q] = sim(pe row p, pe row q), blocked for cache. O(L^2 d).
// Cosine of a zero row with anything is 0. NaN rows (missing positions) give NaN.
void similarity_matrix(const Matrix& pe, Metric metric, Matrix& out);

// The sinusoidal similarity without its L x L matrix: dot(p,q) = t[|p-q|] + u[p] u[q], where
// t[r] = sum_k cos(w_k r) over the sin/cos pairs (a Toeplitz matrix) and u[p] = sin(p w_last) is
// the unpaired sin channel of odd d in the interleaved layout (halves puts a zero column there).
// Cosine divides by |row p| |row q|. O(L) memory; at() and fill_row() read any cell or row.
struct ToeplitzSimilarity {
  Metric metric = Metric::dot;
  std::vector<double> offsets;   // t[r], r = |p - q| in [0, L); t[0] = d/2 (rounded down)
  std::vector<double> unpaired;  // u[p], p in [0, L), for odd d interleaved; else empty
  std::vector<double> norms;     // cosine with an unpaired channel: |row p|; else empty
  double scale = 1.0;            // when norms is empty: 1 for dot, 1 / t[0] for cosine (0 if t[0] = 0)

  std::size_t size() const { return offsets.size(); }  // L
  // sim(p, q), p and q in [0, L).
  double at(std::size_t p, std::size_t q) const {
    double v = offsets[p > q ? p - q : q - p];
    if (!unpaired.empty()) v += unpaired[p] * unpaired[q];
    if (norms.empty()) return v * scale;
    const double den = norms[p] * norms[q];
    return den > 0.0 ? v / den : 0.0;  // a zero row has similarity 0 with everything
  }
  // out[q] = float(at(p, q)) for q in [0, L).
  void fill_row(std::size_t p, float* out) const;
};

// Builds the description above in O(L d). Validates p (ParamError); no L x L memory budget.
ToeplitzSimilarity sinusoidal_similarity_toeplitz(const EncodingParams& p, Metric metric);

// Sinusoidal closed form, materialised: out[p][q] = sinusoidal_similarity_toeplitz(p).at(p, q).
// O(L d + L^2); checks the L x L result against p.memory_budget.
void sinusoidal_similarity(const EncodingParams& p, Metric metric, Matrix& out);

// Rows of the similarity matrix on demand, for exports that stream: the Toeplitz description for
// sinusoids (O(L d) to build), else the encoded table and its row norms (O(L d) memory) and one row of
// dot products at a time. A row has the same bits as the same row of similarity() / similarity_matrix().
struct SimilarityRows {
  Metric metric = Metric::dot;
  std::size_t L = 0;
  int threads = 1;                 // resolved EncodingParams::threads
  ToeplitzSimilarity toeplitz;     // sinusoidal
  std::vector<float> mirrored;     // sinusoidal without an unpaired channel: t[L-1] .. t[0] .. t[L-1]
  Matrix pe;                       // other encodings: the table
  std::vector<float> norms;        // other encodings, cosine: |row p|
  // Rows first .. first + count - 1 into out (count x L floats), on `threads` threads.
  void fill(std::size_t first, std::size_t count, float* out) const;
};
// Validates p; the table (not the L x L result) is checked against p.memory_budget.
SimilarityRows prepare_similarity_rows(const EncodingParams& p, Metric metric,
                                       MissingRows missing = MissingRows::error);

// The [L, L] float32 similarity, streamed through SimilarityRows.
RowSource similarity_row_source(const EncodingParams& p, Metric metric);

// Chooses the closed form for sinusoidal encodings, else encodes and uses the general path.
void similarity(const EncodingParams& p, Metric metric, Matrix& out,
                MissingRows missing = MissingRows::error);

}  // namespace peviz
