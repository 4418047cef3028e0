// Tests for core/encodings/similarity: the Toeplitz closed form against the general path, cosine edge cases.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/similarity.hpp"

using namespace peviz;

static double max_diff(const Matrix& a, const Matrix& b) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  double m = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) m = std::max(m, double(std::abs(a.data[i] - b.data[i])));
  return m;
}

TEST_CASE("closed form and its Toeplitz description equal the general path: both layouts, odd and even d") {
  for (Layout layout : {Layout::interleaved, Layout::halves})
    for (int d : {1, 2, 7, 16, 33})
      for (Metric metric : {Metric::dot, Metric::cosine}) {
        EncodingParams p;
        p.d_model = d;
        p.seq_len = 97;
        p.base = 100.0;
        p.layout = layout;
        INFO("d=" << d << " layout=" << to_string(layout) << " metric=" << to_string(metric));
        Matrix fast, slow;
        sinusoidal_similarity(p, metric, fast);
        similarity_matrix(encode(p), metric, slow);
        CHECK(max_diff(fast, slow) < 2e-5 * std::max(1, d / 2));
        // The description reads exactly the materialised cells, cell by cell and row by row.
        const ToeplitzSimilarity t = sinusoidal_similarity_toeplitz(p, metric);
        REQUIRE(t.size() == 97);
        CHECK(t.unpaired.empty() == !(layout == Layout::interleaved && d % 2 == 1));
        std::vector<float> row(97);
        for (std::size_t a = 0; a < 97; a += 6) {
          t.fill_row(a, row.data());
          for (std::size_t b = 0; b < 97; ++b) {
            REQUIRE(float(t.at(a, b)) == fast.at(a, b));
            REQUIRE(row[b] == fast.at(a, b));
          }
        }
      }
}

TEST_CASE("sinusoidal dot similarity is Toeplitz: depends on p - q only") {
  EncodingParams p;
  p.d_model = 64;
  p.seq_len = 300;
  Matrix s;
  similarity(p, Metric::dot, s);
  for (std::size_t a = 1; a < s.rows; ++a)
    for (std::size_t b = 1; b < s.cols; ++b) REQUIRE(s.at(a, b) == s.at(a - 1, b - 1));
  CHECK(s.at(0, 0) == Approx(32.0));
  CHECK(s.at(5, 5) == Approx(32.0));
  double expected = 0;
  for (int k = 0; k < 32; ++k) expected += std::cos(17.0 * std::pow(10000.0, -2.0 * k / 64));
  CHECK(s.at(3, 20) == Approx(expected).margin(1e-4));
}

TEST_CASE("cosine: unit diagonal, zero vector gives 0, NaN rows stay NaN") {
  EncodingParams p;
  p.d_model = 10;
  p.seq_len = 40;
  Matrix s;
  similarity(p, Metric::cosine, s);
  for (std::size_t i = 0; i < s.rows; ++i) CHECK(s.at(i, i) == Approx(1.0f));

  Matrix pe{3, 2, 0.0f};
  pe.at(1, 0) = 3.0f;
  pe.at(1, 1) = 4.0f;
  pe.at(2, 0) = 1.0f;
  similarity_matrix(pe, Metric::cosine, s);
  CHECK(s.at(0, 1) == 0.0f);
  CHECK(s.at(0, 0) == 0.0f);
  CHECK(s.at(1, 2) == Approx(0.6f));
  pe.at(2, 1) = NAN;
  similarity_matrix(pe, Metric::cosine, s);
  CHECK(std::isnan(s.at(1, 2)));
}

TEST_CASE("general path on a learned table matches naive dot products") {
  EncodingParams p;
  p.encoding = Encoding::learned;
  p.d_model = 37;
  p.seq_len = 70;
  p.max_len = 70;
  const Matrix pe = encode(p);
  Matrix s;
  similarity(p, Metric::dot, s);
  for (std::size_t a = 0; a < pe.rows; a += 5)
    for (std::size_t b = 0; b < pe.rows; b += 3) {
      double ref = 0;
      for (std::size_t c = 0; c < pe.cols; ++c) ref += double(pe.at(a, c)) * pe.at(b, c);
      CHECK(s.at(a, b) == Approx(ref).margin(1e-6));
    }
}

TEST_CASE("Toeplitz description: d = 7 interleaved by hand, and no L x L budget") {
  EncodingParams p;
  p.d_model = 7;
  p.seq_len = 20;
  p.base = 100.0;
  const ToeplitzSimilarity dot = sinusoidal_similarity_toeplitz(p, Metric::dot);
  const double w3 = std::pow(100.0, -6.0 / 7);  // the unpaired sin channel's frequency
  double expected = std::sin(4 * w3) * std::sin(11 * w3);
  for (int k = 0; k < 3; ++k) expected += std::cos(7.0 * std::pow(100.0, -2.0 * k / 7));
  CHECK(dot.at(4, 11) == Approx(expected).margin(1e-12));
  CHECK(dot.at(11, 4) == dot.at(4, 11));
  REQUIRE(dot.offsets.size() > 0);
  CHECK(dot.offsets[0] == 3.0);
  const ToeplitzSimilarity cos = sinusoidal_similarity_toeplitz(p, Metric::cosine);
  REQUIRE(cos.norms.size() > 11);
  CHECK(cos.norms[0] == Approx(std::sqrt(3.0)));  // p = 0: three cos channels at 1, every sin at 0
  CHECK(cos.at(9, 9) == Approx(1.0).epsilon(1e-12));
  CHECK(cos.at(4, 11) == Approx(expected / (cos.norms[4] * cos.norms[11])).epsilon(1e-12));

  p.seq_len = 8192;
  p.d_model = 1024;
  p.memory_budget = 64u << 20;  // the 32 MiB encoding fits, the 256 MiB matrix does not
  CHECK(sinusoidal_similarity_toeplitz(p, Metric::cosine).size() == 8192);
  Matrix m;
  CHECK_THROWS(sinusoidal_similarity(p, Metric::cosine, m));
}
