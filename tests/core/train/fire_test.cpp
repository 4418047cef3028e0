// FIRE's bias: the interpolated distance's closed forms, and its backward against finite differences in double.
#include "core/train/fire.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/train/layers.hpp"
#include "gradient_check.hpp"

using namespace peviz::train;

namespace {

constexpr int kHeads = 2;

// Every FIRE parameter in one vector: w1, b1, w2, c, threshold.
struct FireParams {
  std::vector<double> values = random_values(2 * kFireHidden + kHeads * kFireHidden + 2, 31);
  FireWeights<double> weights() const {
    const double* p = values.data();
    return {.w1 = p, .b1 = p + kFireHidden, .w2 = p + 2 * kFireHidden, .c = p + values.size() - 2,
            .threshold = p + values.size() - 1, .heads = kHeads};
  }
  FireGrads<double> grads(std::vector<double>& g) const {
    double* p = g.data();
    return {.w1 = p, .b1 = p + kFireHidden, .w2 = p + 2 * kFireHidden, .c = p + g.size() - 2, .threshold = p + g.size() - 1};
  }
};

}  // namespace

TEST_CASE("FIRE's interpolated distance: log(c d + 1) / log(c max(L, i) + 1)", "[train][fire]") {
  CHECK(fire_interpolated_distance(1.0, 10.0, 4, 4) == 0.0);                                    // a token and itself
  CHECK(fire_interpolated_distance(1.0, 10.0, 4, 0) == Approx(std::log(5.0) / std::log(11.0)));  // query below L
  CHECK(fire_interpolated_distance(1.0, 10.0, 20, 0) == Approx(1.0));       // past L: the farthest key is at 1
  CHECK(fire_interpolated_distance(2.0, 10.0, 20, 15) == Approx(std::log(11.0) / std::log(41.0)));
  // Progressive interpolation: a query twice as far as any in training still maps every key into [0, 1], and a
  // fixed distance means less the later the query.
  for (int query = 0; query < 80; ++query)
    for (int key = 0; key <= query; ++key) {
      const double u = fire_interpolated_distance(1.0, 40.0, query, key);
      CHECK((u >= 0.0 && u <= 1.0));
    }
  CHECK(fire_interpolated_distance(1.0, 40.0, 79, 69) < fire_interpolated_distance(1.0, 40.0, 50, 40));
  // The floors keep psi defined while c and L train: no NaN at c <= 0 or L <= 0.
  CHECK(std::isfinite(fire_interpolated_distance(-3.0, 10.0, 5, 0)));
  CHECK(fire_interpolated_distance(1.0, -2.0, 0, 0) == 0.0);
  CHECK(fire_interpolated_distance(1.0, -2.0, 3, 0) == Approx(1.0));  // L floored at 1: max(1, 3) = 3
}

TEST_CASE("FIRE backward matches finite differences, below and past the threshold", "[train][fire]") {
  const PackedBatch b = two_sequences();  // lengths 3 and 5: queries at ids 0..4
  const std::vector<int> off = attention_offsets(b, kHeads);
  // L = 0.5 is floored at 1 (no gradient); at 3.5 query 4 is past L, the others below; at 9 every query is below.
  for (double threshold : {0.5, 3.5, 9.0}) {
    INFO("L = " << threshold);
    FireParams p;
    p.values[p.values.size() - 2] = 0.7;  // c
    p.values.back() = threshold;
    const std::vector<double> R = random_values(std::size_t(off.back()), 32);
    std::vector<double> bias(R.size(), 0.0);
    auto loss = [&] {
      fire_forward(bias.data(), b, p.weights());
      return weighted_sum(bias, R);
    };
    loss();
    std::vector<double> g(p.values.size(), 0.0);
    fire_backward(p.grads(g), R.data(), b, p.weights());
    check_gradient(p.values, g, loss);
    CHECK(std::abs(g[g.size() - 2]) > 1e-6);                 // c is trained
    CHECK((std::abs(g.back()) > 1e-6) == (threshold > 1.0));  // L is trained by the queries below it
  }
}

TEST_CASE("FIRE writes one bias per head, query and earlier key of each sequence", "[train][fire]") {
  const PackedBatch b = two_sequences();
  const std::vector<int> off = attention_offsets(b, kHeads);
  FireParams p;
  std::vector<double> bias(std::size_t(off.back()), -7.0);
  fire_forward(bias.data(), b, p.weights());
  // Sequence 2 (5 tokens), head 1: entry (i, j) sits at off[1] + 25 + 5 i + j; above the diagonal nothing is written.
  CHECK(bias[std::size_t(off[1]) + 25 + 5 * 1 + 3] == -7.0);
  // The same ids in both sequences give the same bias: (2, 0) of sequence 1 equals (2, 0) of sequence 2.
  CHECK(bias[0 + 3 * 2 + 0] == bias[std::size_t(off[1]) + 5 * 2 + 0]);
  // A token and itself: u = 0, so the bias is w2 . relu(b1).
  const FireWeights<double> w = p.weights();
  double self = 0;
  for (int k = 0; k < kFireHidden; ++k) self += w.w2[k] * std::max(0.0, w.b1[k]);
  CHECK(bias[std::size_t(off[1]) + 5 * 3 + 3] == Approx(self));
}
