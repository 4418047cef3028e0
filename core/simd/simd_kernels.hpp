// The float kernels of the table and the similarity rows, built for AVX-512, AVX2 and baseline x86-64.
//
// Every kernel fixes its order of operations in the source (independent lanes, a written-out reduction
// tree, no fused multiply-add: core builds with -ffp-contract=off), so each path gives the same bits;
// only the width of the registers differs. The best path the CPU has is picked at run time
// (__builtin_cpu_supports); tests call every path explicitly and compare bits.
#pragma once
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

// The attributes that build one function for a path: [[PEVIZ_AVX512]] void f_avx512(...). GCC keeps 256-bit vectors
// on some AVX-512 tunings unless told; clang has no such target option. Off x86 (the browser build's wasm32) only the
// baseline path exists: compiled with wasm SIMD (-msimd128), the other names are the same code and never chosen
// (simd_path_supported).
#if !defined(__x86_64__) && !defined(__i386__)
#define PEVIZ_AVX512
#define PEVIZ_AVX2
#elif defined(__clang__)
#define PEVIZ_AVX512 gnu::target("avx512f,avx512vl,avx512bw,avx512dq")
#define PEVIZ_AVX2 gnu::target("avx2")
#else
#define PEVIZ_AVX512 gnu::target("avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=512")
#define PEVIZ_AVX2 gnu::target("avx2")
#endif

namespace peviz {

enum class SimdPath { baseline, avx2, avx512 };

std::string_view to_string(SimdPath path);
std::optional<SimdPath> parse_simd_path(std::string_view name);  // "avx512", "avx2", "baseline"
bool simd_path_supported(SimdPath path);  // the CPU can run it
SimdPath best_simd_path();  // the widest supported path, at most the cap below and the environment's PEVIZ_SIMD
SimdPath simd_environment_cap();  // PEVIZ_SIMD's path (avx512 when unset or not a path's name)
// From now on best_simd_path() is at most `widest` (process-wide; `peviz bench --simd` times a narrower
// path on a wider CPU). Every path gives the same bits, so the cap changes only the speed.
void cap_simd_path(SimdPath widest);
// The build of a kernel for `path`, from its AVX-512, AVX2 and baseline builds (the same function type).
template <class Fn>
Fn* on_path(SimdPath path, Fn* avx512, Fn* avx2, Fn* baseline) {
  return path == SimdPath::avx512 ? avx512 : path == SimdPath::avx2 ? avx2 : baseline;
}
// A kernel's three builds from one body: PEVIZ_SIMD_BUILDS(name, (params), (args)) defines name_avx512, name_avx2
// and name_baseline, each calling its own inlined copy of name_body (declared [[gnu::always_inline]]), so each is
// compiled for its instruction set; on_path picks one.
#define PEVIZ_SIMD_BUILDS(name, params, args)                        \
  [[PEVIZ_AVX512]] void name##_avx512 params { name##_body args; } \
  [[PEVIZ_AVX2]] void name##_avx2 params { name##_body args; }     \
  void name##_baseline params { name##_body args; }

// dot(a, b) over n floats in one fixed order: 16 running sums s_j over k = j (mod 16) for the first
// 16 * floor(n / 16) elements, the tree s_j += s_{j+8}, += s_{j+4}, += s_{j+2}, += s_{j+1}, then the
// remaining elements added one by one. So dot(a, b) and dot(b, a) have the same bits.
// out[i] = dot(a, rows + i * stride) for i < count.
void dot_rows(SimdPath path, const float* a, const float* rows, std::size_t stride, std::size_t count,
              std::size_t n, float* out);

// What the sinusoidal table needs for any block of rows: the frequencies and their one-step rotations
// (made by make_sinusoid_plan, core/encodings/absolute_encodings.hpp).
struct SinusoidPlan {
  int d_model = 0;
  bool interleaved = true;     // channels [sin w0, cos w0, sin w1, ...]; else halves [sin w0..w_{n-1}, cos w0..]
  std::vector<double> w;       // angular frequencies (sinusoid_frequencies)
  std::vector<double> cos_w;   // cos(w_i)
  std::vector<double> sin_w;   // sin(w_i)
  std::size_t pairs = 0;       // frequencies carried by both sin and cos (d / 2)
};

// Positions restart from exact sin/cos at multiples of this; a block starting there is cheapest.
inline constexpr std::size_t kSinusoidRestart = 512;

// Rows t = first .. first + count - 1 of the sinusoidal table into out (count x d_model floats).
// (c, s) rotate by w_i per position in double, starting from exact sin/cos at the last multiple of
// kSinusoidRestart at or before t, so a row's bits do not depend on which block asked for it.
void sinusoid_rows(SimdPath path, const SinusoidPlan& plan, std::size_t first, std::size_t count, float* out);

}  // namespace peviz
