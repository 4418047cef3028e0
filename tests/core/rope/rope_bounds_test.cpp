// RoPE bounds: Liu et al.'s worked example (LLaMA 2: d 128, base 10000, 4096 tokens) and Men et al.'s B(m).
#include "core/rope/rope_bounds.hpp"

#include <cmath>
#include <optional>

#include <catch2/catch.hpp>

#include "tests/core/param_error.hpp"

using namespace peviz;

namespace {

bool holds(double base, long long context_len) { return !first_negative_rope_bound(128, base, context_len - 1); }

// The first two significant digits of x as an integer: 26952 -> 27, 4293 -> 43.
int two_digits(double x) { return int(std::lround(x / std::pow(10.0, std::floor(std::log10(x)) - 1))); }

}  // namespace

TEST_CASE("Liu et al. 2023 Eq. 13: the critical dimension of LLaMA 2", "[rope_bounds]") {
  // log_10000(4096 / 2 pi) = 0.70354..., times 64 = 45.03 -> ceil 46 -> d_extra = 92;
  // T_extra = 2 pi * 10000^(92/128) = 2 pi * 10^2.875 = 4711.8...
  const RopeBounds b = rope_bounds({128, 10000, 4096});
  CHECK(b.d_extra == 92);
  CHECK(b.t_extra == Approx(2 * M_PI * std::pow(10.0, 2.875)));
  CHECK(b.t_extra == Approx(4711.8).margin(0.1));
}

TEST_CASE("Men et al. 2024: B(m) and the first distance where it turns negative", "[rope_bounds]") {
  CHECK(rope_similarity_bound(128, 10000, 0) == 64.0);
  const RopeBounds b = rope_bounds({128, 10000, 4096});
  REQUIRE(b.first_negative_m.has_value());
  const long long m = *b.first_negative_m;
  CHECK(m == 1707);
  CHECK(rope_similarity_bound(128, 10000, m) < 0);
  for (long long k = 0; k < m; ++k) REQUIRE(rope_similarity_bound(128, 10000, k) >= 0);
}

TEST_CASE("Men et al. 2024 Table: the smallest base for 1k, 4k and 8k tokens at d 128", "[rope_bounds]") {
  // The paper gives 4.3e3, 2.7e4 and 8.4e4 (two significant digits), with k = 1024.
  const struct {
    int context_len;
    int paper;  // the paper's value, first two digits
  } rows[] = {{1024, 43}, {4096, 27}, {8192, 84}};
  for (const auto& row : rows) {
    CAPTURE(row.context_len);
    const RopeBounds b = rope_bounds({128, 10000, row.context_len});
    REQUIRE(b.min_base.has_value());
    CHECK(two_digits(*b.min_base) == row.paper);
    CHECK(holds(*b.min_base, row.context_len));
    for (int k = 1; k <= 20; ++k) CHECK_FALSE(holds(*b.min_base * (1 - 1e-5 * k), row.context_len));
  }
}

TEST_CASE("The bases that keep B(m) >= 0 are not an interval: the smallest sits on an island", "[rope_bounds]") {
  // At 4096 tokens the bases 26,952..26,973 hold, the bases above them fail again up to about 28,640,
  // and everything from there holds (a bisection over [1, 1e12] used to land at 39,207).
  const double smallest = *rope_bounds({128, 10000, 4096}).min_base;
  CHECK(smallest == Approx(26952.4).epsilon(1e-5));
  CHECK(holds(26965, 4096));
  CHECK_FALSE(holds(27000, 4096));
  CHECK_FALSE(holds(28000, 4096));
  CHECK(holds(28700, 4096));
  CHECK(holds(39207, 4096));
  // Below the island nothing holds: every base with two significant digits from 1.0e4 up to 2.6e4 fails.
  for (int k = 10; k <= 26; ++k) CHECK_FALSE(holds(k * 1000.0, 4096));
}

TEST_CASE("The bases that hold, as ranges: the island at 4096 tokens and the region above it", "[rope_bounds]") {
  // Each edge is checked by the sum over every m < L of exact cosines (rope_similarity_bound), not the walk.
  const auto holds_by_sum = [](double base) {
    for (long long m = 0; m < 4096; ++m)
      if (rope_similarity_bound(128, base, m) < 0) return false;
    return true;
  };
  const double smallest = *rope_bounds({128, 10000, 4096}).min_base, up_to = 4 * smallest;
  const std::vector<BaseRange> ranges = rope_holding_bases(128, 4096, smallest, up_to);
  REQUIRE(ranges.size() >= 3);
  CHECK(ranges.front().lo == smallest);
  CHECK(ranges.front().hi > 26965);  // the island: 26,952..26,973
  CHECK(ranges.front().hi < 27000);
  CHECK(ranges[1].lo > 28000);  // failing again up to about 28,640
  CHECK(ranges[1].lo < 28700);
  CHECK(ranges.back().hi == up_to);  // everything holds from 2.2x the smallest base on
  CHECK(ranges.back().lo > 2 * smallest);
  CHECK(ranges.back().lo < 2.3 * smallest);
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    CAPTURE(k, ranges[k].lo, ranges[k].hi);
    CHECK(ranges[k].lo < ranges[k].hi);
    CHECK(holds_by_sum(ranges[k].lo));
    CHECK(holds_by_sum(ranges[k].hi));
    if (k > 0) CHECK_FALSE(holds_by_sum(ranges[k].lo * (1 - 1e-5)));
    if (k + 1 < ranges.size()) {
      CHECK_FALSE(holds_by_sum(ranges[k].hi * (1 + 1e-5)));
      CHECK(ranges[k].hi < ranges[k + 1].lo);
    }
  }
  CHECK(rope_holding_bases(128, 4096, smallest, smallest).empty());  // nothing above the smallest base asked for
}

TEST_CASE("The holding-base scan one base at a time ends with the whole scan's ranges", "[rope_bounds]") {
  const double smallest = *rope_min_base(128, 8192), up_to = 1.5 * smallest;
  HoldingBaseScan scan(128, 8192, smallest, up_to);
  CHECK(scan.progress() == 0.0);
  CHECK_FALSE(scan.done());
  int steps = 0;
  double progress = 0;
  std::optional<HoldingBaseScan> copy;
  for (; !scan.done(); ++steps) {
    scan.step();
    CHECK(scan.progress() >= progress);  // never backwards
    progress = scan.progress();
    if (steps == 5) copy = scan;  // a copy carries on from where the scan was
  }
  REQUIRE(copy);
  while (!copy->done()) copy->step();
  CHECK(copy->ranges().size() == scan.ranges().size());
  CHECK(steps > 10);
  CHECK(scan.progress() == 1.0);
  CHECK(scan.up_to() == up_to);
  const std::vector<BaseRange> whole = rope_holding_bases(128, 8192, smallest, up_to);
  REQUIRE(scan.ranges().size() == whole.size());
  CHECK(whole.size() >= 2);
  for (std::size_t k = 0; k < whole.size(); ++k) {
    CHECK(scan.ranges()[k].lo == whole[k].lo);
    CHECK(scan.ranges()[k].hi == whole[k].hi);
  }
  CHECK(HoldingBaseScan(128, 8192, 0, up_to).done());  // no smallest base: nothing to scan
  CHECK(HoldingBaseScan(128, 8192, 0, up_to).ranges().empty());
}

TEST_CASE("Short contexts hold for every base; head-dim 2 never holds beyond two tokens", "[rope_bounds]") {
  // B(1) = sum cos(theta_i) > 0 whenever every theta_i <= 1: one or two tokens hold at any base.
  CHECK(*rope_bounds({128, 10000, 2}).min_base == Approx(1.0000001));
  // With one pair theta_0 = 1 for every base, and B(2) = cos 2 < 0.
  CHECK_FALSE(rope_bounds({2, 10000, 3}).min_base.has_value());
}

TEST_CASE("rope-bounds validation", "[rope_bounds]") {
  CHECK(param_error_of([] { rope_bounds({127, 10000, 4096}); }).rfind("head-dim: ", 0) == 0);
  CHECK(param_error_of([] { rope_bounds({128, 10000, 0}); }) == "context-len: must be an integer in [1, 1048576], got 0");
}
