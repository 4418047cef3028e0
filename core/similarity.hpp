// Similarity between every pair of positions (dot or cosine), exact and fast for sinusoids.
#pragma once
#include "core/matrix.hpp"
#include "core/absolute_encodings.hpp"
#include "core/params.hpp"

namespace peviz {

// General path: out[p][q] = sim(pe row p, pe row q), blocked for cache. O(L^2 d).
// Cosine of a zero row with anything is 0. NaN rows (missing positions) give NaN.
void similarity_matrix(const Matrix& pe, Metric metric, Matrix& out);

// Sinusoidal closed form: dot(p,q) = sum_k cos(w_k (p-q)) (a Toeplitz matrix), O(L d + L^2).
// Odd d (interleaved) adds the unpaired sin channel's term sin(p w) sin(q w).
void sinusoidal_similarity(const EncodingParams& p, Metric metric, Matrix& out);

// Chooses the closed form for sinusoidal encodings, else encodes and uses the general path.
void similarity(const EncodingParams& p, Metric metric, Matrix& out,
                MissingRows missing = MissingRows::error);

}  // namespace peviz
