// AVX-512 / AVX2 / baseline builds of the table and dot-product kernels, one source body each.
#include "core/simd/simd_kernels.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace peviz {

namespace {

constexpr std::size_t kLanes = 16;

// The written-out reduction tree of the 16 running sums (see dot_rows in the header).
[[gnu::always_inline]] inline float reduce_lanes(float* acc) {
  for (std::size_t width = kLanes / 2; width >= 1; width /= 2)
    for (std::size_t j = 0; j < width; ++j) acc[j] += acc[j + width];
  return acc[0];
}

// Four dot products against the same `a` at once (each load of `a` is used four times). Lane j of
// row r only ever sees a[k] * b_r[k] for k = j (mod 16), in order: the vector width cannot change it.
[[gnu::always_inline]] inline void dot4_body(const float* __restrict a, const float* __restrict b, std::size_t stride,
                                             std::size_t n, float* out) {
  float acc[4][kLanes] = {};
  const std::size_t body = n - n % kLanes;
  for (std::size_t k = 0; k < body; k += kLanes)
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t j = 0; j < kLanes; ++j) acc[r][j] += a[k + j] * b[r * stride + k + j];
  for (std::size_t r = 0; r < 4; ++r) {
    float s = reduce_lanes(acc[r]);
    for (std::size_t k = body; k < n; ++k) s += a[k] * b[r * stride + k];
    out[r] = s;
  }
}

[[gnu::always_inline]] inline void dot1_body(const float* __restrict a, const float* __restrict b, std::size_t n,
                                             float* out) {
  float acc[kLanes] = {};
  const std::size_t body = n - n % kLanes;
  for (std::size_t k = 0; k < body; k += kLanes)
    for (std::size_t j = 0; j < kLanes; ++j) acc[j] += a[k + j] * b[k + j];
  float s = reduce_lanes(acc);
  for (std::size_t k = body; k < n; ++k) s += a[k] * b[k];
  *out = s;
}

[[gnu::always_inline]] inline void dot_rows_body(const float* a, const float* rows, std::size_t stride,
                                                 std::size_t count, std::size_t n, float* out) {
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) dot4_body(a, rows + i * stride, stride, n, out + i);
  for (; i < count; ++i) dot1_body(a, rows + i * stride, n, out + i);
}

// Eight frequencies at a time as GCC vector types: each target lowers them to its own registers
// (one zmm, two ymm or four xmm per double vector), lane by lane the same IEEE operations.
typedef double v8d __attribute__((vector_size(64)));
typedef float v8f __attribute__((vector_size(32)));
typedef float v16f __attribute__((vector_size(64)));
constexpr std::size_t kGroup = 8;

// How one target's build of the table kernel is laid out; every shape gives the same bits. `in_flight`
// groups of 8 frequencies rotate at once; `half_stores` stores an interleaved group as two 8-float
// halves: AVX2 has no two-source 16-float shuffle, and GCC lowers the 16-wide one lane by lane there.
// Measured on AVX-512 hardware, 512 x 1024 rows on one thread: AVX2 with the 16-wide shuffle 0.55 ms,
// with halves 0.25 (4 in flight), 0.28 (2) or 0.215 (1); the baseline is faster with the 16-wide shuffle
// (0.5 against 0.85 ms), AVX-512 takes 0.08 either way.
struct TableShape {
  std::size_t in_flight;
  bool half_stores;
};
constexpr TableShape kAvx512Table{4, false};  // 16 of AVX-512's 32 registers hold the state
constexpr TableShape kAvx2Table{1, true};      // AVX2's 16 registers: one group's state and factors
constexpr TableShape kBaselineTable{4, false};

// Rows [t, t + rows) of frequencies [i, i + 8 G): store (s, c) as floats in the plan's channel order,
// then rotate by w: s' = s cos w + c sin w, c' = c cos w - s sin w. The state stays in registers for
// the whole run of rows; the G groups of 8 are independent chains, so one group's multiply-add latency
// hides behind the others' (one group alone waits on its own previous row).
template <std::size_t G, bool HalfStores>
[[gnu::always_inline]] inline void rotate_groups(double* __restrict s, double* __restrict c,
                                                 const double* __restrict cw, const double* __restrict sw,
                                                 std::size_t i, float* __restrict row, std::size_t rows,
                                                 std::size_t d, std::size_t n, bool interleaved) {
  v8d vs[G], vc[G], vcw[G], vsw[G];
  for (std::size_t g = 0; g < G; ++g) {
    std::memcpy(&vs[g], s + i + kGroup * g, sizeof(v8d));
    std::memcpy(&vc[g], c + i + kGroup * g, sizeof(v8d));
    std::memcpy(&vcw[g], cw + i + kGroup * g, sizeof(v8d));
    std::memcpy(&vsw[g], sw + i + kGroup * g, sizeof(v8d));
  }
  for (std::size_t r = 0; r < rows; ++r, row += d)
    for (std::size_t g = 0; g < G; ++g) {
      const std::size_t k = i + kGroup * g;
      const v8f fs = __builtin_convertvector(vs[g], v8f);
      const v8f fc = __builtin_convertvector(vc[g], v8f);
      if (interleaved) {
        if constexpr (HalfStores) {
          const v8f lo = __builtin_shufflevector(fs, fc, 0, 8, 1, 9, 2, 10, 3, 11);
          const v8f hi = __builtin_shufflevector(fs, fc, 4, 12, 5, 13, 6, 14, 7, 15);
          std::memcpy(row + 2 * k, &lo, sizeof lo);
          std::memcpy(row + 2 * k + kGroup, &hi, sizeof hi);
        } else {
          const v16f both = __builtin_shufflevector(fs, fc, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
          std::memcpy(row + 2 * k, &both, sizeof both);
        }
      } else {
        std::memcpy(row + k, &fs, sizeof fs);
        std::memcpy(row + n + k, &fc, sizeof fc);
      }
      const v8d ns = vs[g] * vcw[g] + vc[g] * vsw[g];
      const v8d nc = vc[g] * vcw[g] - vs[g] * vsw[g];
      vs[g] = ns;
      vc[g] = nc;
    }
  for (std::size_t g = 0; g < G; ++g) {
    std::memcpy(s + i + kGroup * g, &vs[g], sizeof(v8d));
    std::memcpy(c + i + kGroup * g, &vc[g], sizeof(v8d));
  }
}

// The same for one frequency i (the last pairs mod 8, and odd d's unpaired sin channel).
[[gnu::always_inline]] inline void rotate_one(double* __restrict s, double* __restrict c, double cw, double sw,
                                              std::size_t i, float* __restrict row, std::size_t rows,
                                              std::size_t d, std::size_t n, std::size_t pairs, bool interleaved) {
  for (std::size_t r = 0; r < rows; ++r, row += d) {
    if (interleaved) {
      row[2 * i] = float(s[i]);
      if (i < pairs) row[2 * i + 1] = float(c[i]);  // odd d: the unpaired sin channel has no cos
    } else {
      row[i] = float(s[i]);
      row[n + i] = float(c[i]);
    }
    const double ns = s[i] * cw + c[i] * sw;
    const double nc = c[i] * cw - s[i] * sw;
    s[i] = ns;
    c[i] = nc;
  }
}

// Rows of the table that follow from the current (s, c): `rows` rows into out, the state rotated
// past them. Runs of kRowRun rows per group of frequencies keep the state in registers.
constexpr std::size_t kRowRun = 16;
template <TableShape Shape>
[[gnu::always_inline]] inline void store_rows(const SinusoidPlan& plan, double* __restrict s, double* __restrict c,
                                              std::size_t rows, float* __restrict out) {
  const std::size_t n = plan.w.size(), pairs = plan.pairs, d = std::size_t(plan.d_model);
  const bool interleaved = plan.interleaved;
  const std::size_t body = pairs - pairs % kGroup;  // groups of whole (sin, cos) pairs
  for (std::size_t r0 = 0; r0 < rows; r0 += kRowRun) {
    const std::size_t run = std::min(kRowRun, rows - r0);
    float* row = out + r0 * d;
    const double* cw = plan.cos_w.data();
    const double* sw = plan.sin_w.data();
    std::size_t i = 0;  // the shape's groups at a time while they last, then one by one
    for (; i + Shape.in_flight * kGroup <= body; i += Shape.in_flight * kGroup)
      rotate_groups<Shape.in_flight, Shape.half_stores>(s, c, cw, sw, i, row, run, d, n, interleaved);
    for (; i < body; i += kGroup) rotate_groups<1, Shape.half_stores>(s, c, cw, sw, i, row, run, d, n, interleaved);
    for (; i < n; ++i)  // i == body here
      rotate_one(s, c, plan.cos_w[i], plan.sin_w[i], i, row, run, d, n, pairs, interleaved);
    if (!interleaved && d > 2 * n)  // odd d: final zero column
      for (std::size_t r = 0; r < run; ++r) row[r * d + 2 * n] = 0.0f;
  }
}

// sin(t w_i), cos(t w_i) by rotating (c, s) one step of angle w_i per position, in double; each
// block of kSinusoidRestart positions starts from exact sin/cos, so the rotation error stays ~1e-13.
// Rows before `first` in the block are rotated through without being stored.
template <TableShape Shape>
[[gnu::always_inline]] inline void sinusoid_rows_body(const SinusoidPlan& plan, std::size_t first, std::size_t count,
                                                      float* out) {
  const std::size_t n = plan.w.size(), d = std::size_t(plan.d_model);
  std::vector<double> cs(2 * n);
  double* __restrict c = cs.data();
  double* __restrict s = cs.data() + n;
  const double* __restrict cw = plan.cos_w.data();
  const double* __restrict sw = plan.sin_w.data();
  const std::size_t end = first + count;
  std::size_t t = first - first % kSinusoidRestart;
  while (t < end) {
    for (std::size_t i = 0; i < n; ++i) ::sincos(double(t) * plan.w[i], s + i, c + i);  // glibc: one call for both
    const std::size_t block_end = std::min(end, t + kSinusoidRestart);
    for (; t < std::min(first, block_end); ++t)
      for (std::size_t i = 0; i < n; ++i) {
        const double ns = s[i] * cw[i] + c[i] * sw[i];
        const double nc = c[i] * cw[i] - s[i] * sw[i];
        s[i] = ns;
        c[i] = nc;
      }
    store_rows<Shape>(plan, s, c, block_end - t, out + (t - first) * d);
    t = block_end;
  }
}

[[PEVIZ_AVX512]] void dot_rows_avx512(const float* a, const float* rows, std::size_t stride, std::size_t count,
                                      std::size_t n, float* out) {
  dot_rows_body(a, rows, stride, count, n, out);
}
[[PEVIZ_AVX2]] void dot_rows_avx2(const float* a, const float* rows, std::size_t stride, std::size_t count,
                                  std::size_t n, float* out) {
  dot_rows_body(a, rows, stride, count, n, out);
}
void dot_rows_baseline(const float* a, const float* rows, std::size_t stride, std::size_t count, std::size_t n,
                       float* out) {
  dot_rows_body(a, rows, stride, count, n, out);
}

[[PEVIZ_AVX512]] void sinusoid_rows_avx512(const SinusoidPlan& plan, std::size_t first, std::size_t count, float* out) {
  sinusoid_rows_body<kAvx512Table>(plan, first, count, out);
}
[[PEVIZ_AVX2]] void sinusoid_rows_avx2(const SinusoidPlan& plan, std::size_t first, std::size_t count, float* out) {
  sinusoid_rows_body<kAvx2Table>(plan, first, count, out);
}
void sinusoid_rows_baseline(const SinusoidPlan& plan, std::size_t first, std::size_t count, float* out) {
  sinusoid_rows_body<kBaselineTable>(plan, first, count, out);
}

}  // namespace

std::string_view to_string(SimdPath path) {
  switch (path) {
    case SimdPath::avx512: return "avx512";
    case SimdPath::avx2: return "avx2";
    default: return "baseline";
  }
}

bool simd_path_supported(SimdPath path) {
#if !defined(__x86_64__) && !defined(__i386__)
  return path == SimdPath::baseline;
#else
  __builtin_cpu_init();
  switch (path) {
    case SimdPath::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
    case SimdPath::avx2: return __builtin_cpu_supports("avx2");
    default: return true;
  }
#endif
}

namespace {
std::atomic<int> g_simd_cap{int(SimdPath::avx512)};  // SimdPath's order: baseline < avx2 < avx512

// The environment's cap: PEVIZ_SIMD=avx2 (or baseline) runs a narrower path in any peviz process, as
// OPENBLAS_CORETYPE and LIBXSMM_TARGET do for those libraries (the suite's forced-AVX2 run sets all three).
// Any other value is ignored, with one line on stderr (once: the first call's answer is kept).
SimdPath read_environment_cap() {
  const char* env = std::getenv("PEVIZ_SIMD");
  if (!env || !*env) return SimdPath::avx512;
  if (const std::optional<SimdPath> path = parse_simd_path(env)) return *path;
  std::fprintf(stderr, "peviz: PEVIZ_SIMD=%s ignored: it must be avx512, avx2 or baseline\n", env);
  return SimdPath::avx512;
}
}  // namespace

SimdPath simd_environment_cap() {
  static const SimdPath cap = read_environment_cap();
  return cap;
}

SimdPath best_simd_path() {
  static const SimdPath best = SimdPath(std::min(int(simd_environment_cap()),
                                                 int(simd_path_supported(SimdPath::avx512) ? SimdPath::avx512
                                                     : simd_path_supported(SimdPath::avx2) ? SimdPath::avx2
                                                                                           : SimdPath::baseline)));
  return SimdPath(std::min(int(best), g_simd_cap.load(std::memory_order_relaxed)));
}

void cap_simd_path(SimdPath widest) { g_simd_cap.store(int(widest), std::memory_order_relaxed); }

std::optional<SimdPath> parse_simd_path(std::string_view name) {
  for (SimdPath path : {SimdPath::baseline, SimdPath::avx2, SimdPath::avx512})
    if (name == to_string(path)) return path;
  return std::nullopt;
}

void dot_rows(SimdPath path, const float* a, const float* rows, std::size_t stride, std::size_t count, std::size_t n,
              float* out) {
  switch (path) {
    case SimdPath::avx512: dot_rows_avx512(a, rows, stride, count, n, out); break;
    case SimdPath::avx2: dot_rows_avx2(a, rows, stride, count, n, out); break;
    default: dot_rows_baseline(a, rows, stride, count, n, out); break;
  }
}

void sinusoid_rows(SimdPath path, const SinusoidPlan& plan, std::size_t first, std::size_t count, float* out) {
  switch (path) {
    case SimdPath::avx512: sinusoid_rows_avx512(plan, first, count, out); break;
    case SimdPath::avx2: sinusoid_rows_avx2(plan, first, count, out); break;
    default: sinusoid_rows_baseline(plan, first, count, out); break;
  }
}

}  // namespace peviz
