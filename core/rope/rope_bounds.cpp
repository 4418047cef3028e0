// Liu et al. 2023's critical dimension and Men et al. 2024's B(m) bound on the RoPE base.
#include "core/rope/rope_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "core/base/limits.hpp"
#include "core/rope/rope.hpp"

namespace peviz {

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr long long kSearchLimit = 1LL << 24;
constexpr long long kWalkBlock = 512;        // distances walked by rotation between two exact sin/cos
constexpr double kScanStep = 5e-4;           // largest step of the scan in log(base): bases 0.05% apart
constexpr double kRefineWidth = 1e-6;        // the refinement stops when hi / lo - 1 is below this
constexpr double kLowestBase = 1.0000001;    // the scan starts here (the base must be > 1)
constexpr double kHighestBase = 1e12;        // and gives up here: no base up to it holds
constexpr std::size_t kWitnesses = 16;       // distances that made recent bases fail, tried first

std::vector<double> thetas(int head_dim, double base) {
  RopeParams p;
  p.head_dim = head_dim;
  p.base = base;
  return rope_inv_freq(p);
}

struct Negative {
  long long m = 0;     // a distance with B(m) < 0
  double value = 0;    // B(m) there
};

// Walks m = lo..hi with every pair's phasor (cos, sin of m theta_i) rotated one step at a time, exact
// sin/cos again every kWalkBlock steps (the drift stays ~1e-13); the first m with sum cos < 0. The
// buffers live here so that the many short walks of the scan allocate nothing.
struct Walker {
  std::vector<double> c, s, step_c, step_s;

  std::optional<Negative> operator()(const std::vector<double>& theta, long long lo, long long hi) {
    const std::size_t n = theta.size();
    c.resize(n), s.resize(n), step_c.resize(n), step_s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      step_c[i] = std::cos(theta[i]);
      step_s[i] = std::sin(theta[i]);
    }
    for (long long m = lo; m <= hi; ++m) {
      if ((m - lo) % kWalkBlock == 0) reseed(theta, m);
      const double sum = sum_cos();
      if (sum < 0) return Negative{m, sum};
      rotate();
    }
    return std::nullopt;
  }

  void reseed(const std::vector<double>& theta, long long m) {
    for (std::size_t i = 0; i < theta.size(); ++i) {
      c[i] = std::cos(double(m) * theta[i]);
      s[i] = std::sin(double(m) * theta[i]);
    }
  }

  // Four partial sums in a fixed order, so that the loop vectorises and the result is the same everywhere.
  double sum_cos() const {
    double lane[4] = {0, 0, 0, 0};
    std::size_t i = 0;
    for (; i + 4 <= c.size(); i += 4)
      for (std::size_t k = 0; k < 4; ++k) lane[k] += c[i + k];
    for (; i < c.size(); ++i) lane[0] += c[i];
    return (lane[0] + lane[1]) + (lane[2] + lane[3]);
  }

  void rotate() {
    for (std::size_t i = 0; i < c.size(); ++i) {
      const double cn = c[i] * step_c[i] - s[i] * step_s[i];
      s[i] = s[i] * step_c[i] + c[i] * step_s[i];
      c[i] = cn;
    }
  }

  // Some m < L with B(m) < 0, walking blocks from the longest distances down: a base that fails mostly
  // fails far out too, so a failing base is usually found in the first block walked.
  std::optional<Negative> any_negative(const std::vector<double>& theta, long long L) {
    for (long long top = L - 1; top >= 0; top -= kWalkBlock)
      if (auto neg = (*this)(theta, std::max(0LL, top - kWalkBlock + 1), top)) return neg;
    return std::nullopt;
  }
};

double bound_at(const std::vector<double>& theta, long long m) {
  double sum = 0;
  for (double t : theta) sum += std::cos(double(m) * t);
  return sum;
}

// The frequencies at x = log(base) as powers of base^(-2/d) (scan only: the decisions that count use
// rope_inv_freq), and S = sum_i theta_i 2i/d, which bounds |dB(m)/dx| / m for every base >= exp(x).
struct ScanPoint {
  std::vector<double> theta;
  double slope = 0;
};

ScanPoint scan_point(int head_dim, double x) {
  ScanPoint p;
  const double q = std::exp(-2.0 * x / head_dim);
  p.theta.resize(std::size_t(head_dim / 2));
  double t = 1;
  for (std::size_t i = 0; i < p.theta.size(); ++i, t *= q) {
    p.theta[i] = t;
    p.slope += t * 2.0 * double(i) / head_dim;
  }
  return p;
}

// Distances that made recent bases fail. A nearby base usually fails at one of them, or close to one
// (the dips of B drift slowly with the base), which costs one sum or a short walk instead of a full one.
struct Witnesses {
  std::deque<long long> m;

  std::optional<Negative> retry(const std::vector<double>& theta) {
    for (std::size_t k = 0; k < m.size(); ++k) {
      const double v = bound_at(theta, m[k]);
      if (v >= 0) continue;
      const Negative neg{m[k], v};
      m.erase(m.begin() + std::ptrdiff_t(k));
      m.push_front(neg.m);
      return neg;
    }
    return std::nullopt;
  }

  std::optional<Negative> near(Walker& walk, const std::vector<double>& theta, long long L) const {
    for (long long w : m) {
      const long long half = std::max(32LL, w / 500);
      if (auto neg = walk(theta, std::max(0LL, w - half), std::min(L - 1, w + half))) return neg;
    }
    return std::nullopt;
  }

  void add(long long w) {
    m.push_front(w);
    if (m.size() > kWitnesses) m.pop_back();
  }
};

// Bisection between a failing and a holding log(base), in either order, one walk a step: the base on the
// holding side of the edge once the two are closer than kRefineWidth.
struct Edge {
  double fail = 0, hold = 0;

  bool done() const { return std::fabs(hold - fail) <= kRefineWidth; }
  void step(Walker& walk, int head_dim, long long L) {
    const double mid = 0.5 * (fail + hold);
    (walk.any_negative(thetas(head_dim, std::exp(mid)), L) ? fail : hold) = mid;
  }
};

double refine(Walker& walk, int head_dim, double fail, double hold, long long L) {
  Edge edge{fail, hold};
  while (!edge.done()) edge.step(walk, head_dim, L);
  return std::exp(edge.hold);
}

// One base of the scan decided: a distance where B(m) < 0, or none (the base holds). The witnesses are tried
// first, then short walks around them, then the whole range.
struct BaseScan {
  int head_dim;
  long long L;
  Witnesses witnesses;
  Walker walk;

  std::optional<Negative> fails(const ScanPoint& p, double x) {
    std::optional<Negative> neg = witnesses.retry(p.theta);
    if (!neg && (neg = witnesses.near(walk, p.theta, L))) witnesses.add(neg->m);
    if (!neg && (neg = walk.any_negative(thetas(head_dim, std::exp(x)), L))) witnesses.add(neg->m);
    return neg;
  }

  // The next log(base) to try after a failing one: every base up to x + v / (m S) fails as well.
  static double skip(const ScanPoint& p, const Negative& neg, double x) {
    const double safe = p.slope > 0 ? 0.99 * -neg.value / (double(neg.m) * p.slope) : kHighestBase;
    return x + std::max(kScanStep, safe);
  }
};

// Smallest base with B(m) >= 0 for every m < L. B(m) is not monotone in the base: the bases that hold form
// islands below the region where every base holds (d 128, L 4096: 26,952..26,973 hold, 26,974..28,641
// fails again), so a bisection over the base lands on an arbitrary edge. The scan walks log(base) upwards
// from just above 1. At a failing base with B(m) = -v at some m, |dB(m)/dx| <= m S, so every base up to
// x + v / (m S) fails as well and is skipped; otherwise the step is kScanStep (0.05%): an island narrower
// than that can be stepped over. The first base that holds is refined by bisection against the last one
// that failed. Men et al. 2024 solve the same condition numerically; their Table at d 128 (1k: 4.3e3,
// 4k: 2.7e4, 8k: 8.4e4) is reproduced at L = 1024, 4096, 8192 (tests/core/rope/rope_bounds_test.cpp).
}  // namespace

std::optional<double> rope_min_base(int head_dim, long long L) {
  BaseScan scan{head_dim, L, {}, {}};
  double last_fail = std::log(kLowestBase);
  for (double x = last_fail; x < std::log(kHighestBase);) {
    const ScanPoint p = scan_point(head_dim, x);
    const std::optional<Negative> neg = scan.fails(p, x);
    if (!neg) return x == std::log(kLowestBase) ? std::exp(x) : refine(scan.walk, head_dim, last_fail, x, L);
    last_fail = x;
    x = BaseScan::skip(p, *neg, x);
  }
  return std::nullopt;
}

// The same scan continued above the smallest base: holding bases are stepped kScanStep apart, failing ones
// skipped as above, and each change between the two bisected to its edge.
struct HoldingBaseScan::State {
  BaseScan scan;
  double start = 0, end = 0;  // log(base) of the smallest base and of up_to
  double last = 0, x = 0;     // the last base decided, the next one
  bool holding = true;        // the base at `last` holds: the last range is open
  double up_to = 0;
  std::vector<BaseRange> ranges;
  // An edge between the last two bases decided, bisected before the scan goes on: it closes the last range when
  // `holding` turned false, else it opens a new one.
  std::optional<Edge> edge;
};

HoldingBaseScan::HoldingBaseScan(int head_dim, long long L, double smallest, double up_to)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.scan = BaseScan{head_dim, L, {}, {}};
  s.up_to = up_to;
  if (!(smallest > 0) || !(up_to > smallest)) return;  // done at once: start == end
  s.start = s.last = std::log(smallest);
  s.end = std::log(up_to);
  s.x = s.last + kScanStep;
  s.ranges.push_back({smallest, up_to});
}

HoldingBaseScan::HoldingBaseScan(const HoldingBaseScan& other) : state_(std::make_unique<State>(*other.state_)) {}
HoldingBaseScan& HoldingBaseScan::operator=(const HoldingBaseScan& other) {
  state_ = std::make_unique<State>(*other.state_);
  return *this;
}
HoldingBaseScan::HoldingBaseScan(HoldingBaseScan&&) noexcept = default;
HoldingBaseScan& HoldingBaseScan::operator=(HoldingBaseScan&&) noexcept = default;
HoldingBaseScan::~HoldingBaseScan() = default;

bool HoldingBaseScan::done() const { return state_->ranges.empty() || (state_->x >= state_->end && !state_->edge); }
double HoldingBaseScan::up_to() const { return state_->up_to; }
const std::vector<BaseRange>& HoldingBaseScan::ranges() const { return state_->ranges; }

double HoldingBaseScan::progress() const {
  const State& s = *state_;
  return done() ? 1.0 : std::clamp((s.last - s.start) / (s.end - s.start), 0.0, 1.0);
}

void HoldingBaseScan::step() {
  if (done()) return;
  State& s = *state_;
  const int head_dim = s.scan.head_dim;
  const long long L = s.scan.L;
  if (s.edge) {
    s.edge->step(s.scan.walk, head_dim, L);
    if (!s.edge->done()) return;
    const double edge = std::exp(s.edge->hold);
    if (s.holding) s.ranges.push_back({edge, s.up_to});
    else s.ranges.back().hi = edge;
    s.edge.reset();
    return;
  }
  const ScanPoint p = scan_point(head_dim, s.x);
  const std::optional<Negative> neg = s.scan.fails(p, s.x);
  if (s.holding == bool(neg)) s.edge = neg ? Edge{s.x, s.last} : Edge{s.last, s.x};
  s.holding = !neg;
  s.last = s.x;
  s.x = neg ? BaseScan::skip(p, *neg, s.x) : s.x + kScanStep;
}

std::vector<BaseRange> rope_holding_bases(int head_dim, long long L, double smallest, double up_to) {
  HoldingBaseScan scan(head_dim, L, smallest, up_to);
  while (!scan.done()) scan.step();
  return scan.ranges();
}

void validate(const RopeBoundsParams& p) {
  RopeParams r;
  r.head_dim = p.head_dim;
  r.base = p.base;
  validate(r);
  check_int(limits::bounds_context_len, p.context_len);
  check_int(limits::bounds_train_len, p.train_len);
}

int liu_critical_dim(int head_dim, double base, double context_len) {
  // Liu et al. 2023 Eq. 13.
  const double d = head_dim;
  const double raw = 2.0 * std::ceil(d / 2.0 * std::log(context_len / kTwoPi) / std::log(base));
  return int(std::min(d, std::max(0.0, raw)));
}

double rope_similarity_bound(int head_dim, double base, long long m) { return bound_at(thetas(head_dim, base), m); }

std::optional<long long> first_negative_rope_bound(int head_dim, double base, long long limit) {
  Walker walk;
  const auto neg = walk(thetas(head_dim, base), 0, limit);
  return neg ? std::optional<long long>(neg->m) : std::nullopt;
}

RopeBounds rope_bounds(const RopeBoundsParams& p) {
  validate(p);
  RopeBounds b;
  const double d = p.head_dim;
  b.d_extra = liu_critical_dim(p.head_dim, p.base, p.train_len != 0 ? p.train_len : p.context_len);
  b.t_extra = kTwoPi * std::pow(p.base, b.d_extra / d);
  b.first_negative_m = first_negative_rope_bound(p.head_dim, p.base, kSearchLimit);
  b.min_base = rope_min_base(p.head_dim, p.context_len);
  return b;
}

}  // namespace peviz
