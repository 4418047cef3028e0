// Measures the criteria of a good position encoding as numbers (see criteria.hpp).
#include "core/encodings/criteria.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/similarity.hpp"

namespace peviz {

namespace {

double row_distance(const Matrix& pe, std::size_t a, std::size_t b) {
  double s = 0.0;
  for (std::size_t c = 0; c < pe.cols; ++c) {
    const double d = double(pe.at(a, c)) - double(pe.at(b, c));
    s += d * d;
  }
  return std::sqrt(s);
}

double max_abs_value(const Matrix& pe) {
  double m = 0.0;
  for (float v : pe.data)
    if (!std::isnan(v)) m = std::max(m, double(std::abs(v)));
  return m;
}

double mean_offset_distance(const Matrix& pe, std::size_t k) {
  double sum = 0.0;
  for (std::size_t t = 0; t + k < pe.rows; ++t) sum += row_distance(pe, t, t + k);
  return pe.rows > k ? sum / double(pe.rows - k) : 0.0;
}

// Unique, from the Gram matrix: |a-b|^2 = |a|^2 + |b|^2 - 2 a.b (exact closed form for sinusoids).
void measure_unique(const EncodingParams& p, const Matrix& pe, CriteriaReport& r) {
  const std::size_t L = pe.rows;
  r.min_distance = std::numeric_limits<double>::infinity();
  if (L > 1) {
    Matrix gram;
    similarity(p, Metric::dot, gram);
    for (std::size_t a = 0; a < L; ++a)
      for (std::size_t b = a + 1; b < L; ++b) {
        const double d2 = double(gram.at(a, a)) + double(gram.at(b, b)) - 2.0 * double(gram.at(a, b));
        if (d2 < r.min_distance) {
          r.min_distance = d2;
          r.closest_p = int(a);
          r.closest_q = int(b);
        }
      }
    // Recompute the winner directly: the Gram identity loses digits when the two rows are close.
    r.min_distance = row_distance(pe, std::size_t(r.closest_p), std::size_t(r.closest_q));
  }
  r.unique = L <= 1 || r.min_distance > 1e-6;
}

// Consistent distance over t: the spread of |PE(t+k) - PE(t)| over t, relative to its mean, worst over k = 1..16.
double spread_over_t(const Matrix& pe) {
  const std::size_t L = pe.rows;
  const std::size_t K = std::min<std::size_t>(16, L > 1 ? L - 1 : 0);
  double worst = 0.0;
  for (std::size_t k = 1; k <= K; ++k) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0, sum = 0.0;
    for (std::size_t t = 0; t + k < L; ++t) {
      const double d = row_distance(pe, t, t + k);
      lo = std::min(lo, d);
      hi = std::max(hi, d);
      sum += d;
    }
    const double mean = sum / double(L - k);
    if (mean > 0) worst = std::max(worst, (hi - lo) / mean);
  }
  return worst;
}

// The encoding's table at another length (capped at kMaxSeqLen; rows a learned table lacks are NaN).
Matrix table_at(const EncodingParams& p, int length) {
  EncodingParams longer = p;
  longer.seq_len = std::min(length, kMaxSeqLen);
  longer.memory_budget = std::max<std::uint64_t>(p.memory_budget, 4ull * longer.seq_len * encoding_width(p));
  return encode(longer, MissingRows::nan);
}

// Consistent over L (offset 1 at L and at 2L) and bounded (the largest magnitude at L, 2L, 4L).
void measure_with_length(const EncodingParams& p, const Matrix& pe, CriteriaReport& r) {
  const bool learned = encoding_info(p.encoding).inputs.table;  // a finite table of rows
  const int known_rows = learned ? (p.learned_table ? int(p.learned_table->rows) : p.max_len) : kMaxSeqLen;
  const Matrix pe2 = table_at(p, 2 * p.seq_len);
  const Matrix pe4 = table_at(p, 4 * p.seq_len);
  if (pe.rows > 1 && 2 * p.seq_len <= known_rows) {
    const double d1 = mean_offset_distance(pe, 1), d2 = mean_offset_distance(pe2, 1);
    r.change_with_length = d1 > 0 ? std::abs(d2 - d1) / d1 : 0.0;
  } else if (pe.rows > 1) {
    r.change_with_length = std::numeric_limits<double>::quiet_NaN();  // the table has no rows at 2L
  }
  r.consistent = r.spread_over_t < 1e-3 && (std::isnan(r.change_with_length) || r.change_with_length < 1e-3);
  r.max_abs = max_abs_value(pe);
  r.max_abs_2l = max_abs_value(pe2);
  r.max_abs_4l = max_abs_value(pe4);
  r.growth = r.max_abs > 0 ? r.max_abs_4l / r.max_abs : (r.max_abs_4l > 0 ? std::numeric_limits<double>::infinity() : 1.0);
  // A learned table is a finite set of trained numbers: bounded by its largest entry, however long
  // the sequence (more random rows only sample that same distribution further).
  r.bounded = learned || r.growth <= 1.0 + 1e-6;
}

}  // namespace

CriteriaReport measure_criteria(const EncodingParams& p) {
  validate(p);
  CriteriaReport r;
  const Matrix pe = encode(p);
  measure_unique(p, pe, r);
  r.spread_over_t = spread_over_t(pe);
  measure_with_length(p, pe, r);

  // Deterministic: the same parameters give the same bits.
  const Matrix again = encode(p);
  r.deterministic = again.data.size() == pe.data.size() &&
                    std::memcmp(again.data.data(), pe.data.data(), pe.data.size() * sizeof(float)) == 0;

  const Extrapolation e = encoding_info(p.encoding).extrapolation(p);
  r.extrapolates = e.defined;
  r.extrapolation_note = e.note;
  return r;
}

}  // namespace peviz
