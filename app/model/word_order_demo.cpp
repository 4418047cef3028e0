// Token vectors + position vectors for two word orders (pure computation for the lesson panel).
#include "app/model/word_order_demo.hpp"

#include <algorithm>
#include <cstdint>

#include "core/encodings/absolute_encodings.hpp"

namespace peviz::app {

namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Matrix token_matrix(const std::vector<std::string>& words, int d) {
  Matrix m(words.size(), std::size_t(d));
  for (std::size_t r = 0; r < words.size(); ++r) {
    const std::vector<float> v = toy_token_embedding(words[r], d);
    std::copy(v.begin(), v.end(), m.row(r));
  }
  return m;
}

Matrix add(const Matrix& x, const Matrix& y) {
  Matrix out(x.rows, x.cols);
  for (std::size_t i = 0; i < x.data.size(); ++i) out.data[i] = x.data[i] + y.data[i];
  return out;
}

std::vector<std::vector<float>> sorted_rows(const Matrix& m) {
  std::vector<std::vector<float>> rows;
  for (std::size_t r = 0; r < m.rows; ++r) rows.emplace_back(m.row(r), m.row(r) + m.cols);
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

std::vector<float> toy_token_embedding(const std::string& word, int d) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (const unsigned char c : word) h = (h ^ c) * 0x100000001b3ull;
  std::vector<float> v(std::size_t(std::max(d, 0)));
  for (float& x : v) x = float(double(splitmix64(h) >> 11) * 0x1.0p-53 * 2.0 - 1.0);
  return v;
}

WordOrderDemo make_word_order_demo(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  WordOrderDemo d;
  d.words_a = a;
  d.words_b = b;
  d.tokens_a = token_matrix(a, kWordOrderDim);
  d.tokens_b = token_matrix(b, kWordOrderDim);
  EncodingParams p;
  p.d_model = kWordOrderDim;
  p.seq_len = int(std::max(a.size(), b.size()));
  p.base = 10000.0;
  d.positions = encode(p);
  Matrix pos_a = d.positions, pos_b = d.positions;
  pos_a.reshape(a.size(), std::size_t(kWordOrderDim));
  pos_b.reshape(b.size(), std::size_t(kWordOrderDim));
  d.sums_a = add(d.tokens_a, pos_a);
  d.sums_b = add(d.tokens_b, pos_b);
  return d;
}

bool same_bag_of_rows(const Matrix& x, const Matrix& y) {
  return x.rows == y.rows && x.cols == y.cols && sorted_rows(x) == sorted_rows(y);
}

}  // namespace peviz::app
