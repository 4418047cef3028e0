// The matrix products behind gemm(): LIBXSMM's kernels and OpenBLAS on one thread (the desktop and the command line),
// or Eigen where neither can go (the browser build, PEVIZ_GEMM_EIGEN: header-only, compiled to wasm SIMD by em++).
#include "core/train/gemm.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/train/spare_cores.hpp"

#ifdef PEVIZ_GEMM_EIGEN
#include <Eigen/Core>
#else
#include <cblas.h>  // OpenBLAS's declarations; the library itself is loaded at first use (below)
#include <dlfcn.h>
#include <immintrin.h>
#include <libxsmm.h>  // Debian's libxsmm-dev 1.17, linked statically; it initialises itself at its first dispatch

#include <cstdlib>
#include <stdexcept>
#include <string>
#endif

namespace peviz::train {

#ifdef PEVIZ_GEMM_EIGEN

namespace {
template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ConstView = Eigen::Map<const RowMajor<T>, 0, Eigen::OuterStride<>>;
template <class T>
using View = Eigen::Map<RowMajor<T>, 0, Eigen::OuterStride<>>;

// op(X) of a rows x cols matrix as stored (before the transpose), read in place with its leading dimension.
template <class T>
void eigen_gemm(Op op_a, Op op_b, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c,
                int ldc) {
  View<T> cm(c, m, n, Eigen::OuterStride<>(ldc));
  // BLAS semantics: with beta = 0, C is not read (it may hold anything, NaN included).
  if (beta == T(0)) cm.setZero();
  else if (beta != T(1)) cm *= beta;
  if (m == 0 || n == 0 || k == 0 || alpha == T(0)) return;
  const ConstView<T> am(a, op_a == Op::none ? m : k, op_a == Op::none ? k : m, Eigen::OuterStride<>(lda));
  const ConstView<T> bm(b, op_b == Op::none ? k : n, op_b == Op::none ? n : k, Eigen::OuterStride<>(ldb));
  if (op_a == Op::none && op_b == Op::none) cm.noalias() += alpha * (am * bm);
  else if (op_a == Op::none) cm.noalias() += alpha * (am * bm.transpose());
  else if (op_b == Op::none) cm.noalias() += alpha * (am.transpose() * bm);
  else cm.noalias() += alpha * (am.transpose() * bm.transpose());
}

template <class T>
bool served_by_xsmm(Op, Op, int, int, int, T, int, int, T, int) {
  return false;
}
}  // namespace

void gemm(Op op_a, Op op_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
          float beta, float* c, int ldc) {
  eigen_gemm(op_a, op_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(Op op_a, Op op_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
          double beta, double* c, int ldc) {
  eigen_gemm(op_a, op_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#else

namespace {

// OpenBLAS picks its kernels once, as it loads, from the CPU's model number; a model newer than its table falls back
// to its Prescott (SSE3) kernels: Debian 12's 0.3.21 on an Emerald Rapids Xeon (family 6, model 207) runs the engine's
// products 6-8x slower and a training step 2.3-2.9x slower (docs/benchmarks.md). So the engine loads OpenBLAS itself,
// after naming its kernels from the instruction set the CPU reports (OPENBLAS_CORETYPE: SkylakeX with AVX-512,
// Haswell with AVX2 and FMA; a value already in the environment is kept), and runs it on one thread: OpenBLAS's own
// threads change the rounding.
struct OpenBlas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
};

const char* kernels_for_this_cpu() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
  return nullptr;  // OpenBLAS's own choice
}

template <class Fn>
Fn symbol(void* lib, const char* name) {
  void* f = dlsym(lib, name);
  if (!f) throw std::runtime_error(std::string("OpenBLAS has no ") + name + ": " + dlerror());
  return reinterpret_cast<Fn>(f);
}

OpenBlas load_openblas() {
  // overwrite 0: a value already in the environment is kept (docs/lab-runs/twin's Haswell reproduction).
  if (const char* kernels = kernels_for_this_cpu()) setenv("OPENBLAS_CORETYPE", kernels, 0);
  void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);  // Debian's libopenblas0
  if (!lib) throw std::runtime_error(std::string("cannot load OpenBLAS (libopenblas.so.0): ") + dlerror());
  symbol<void (*)(int)>(lib, "openblas_set_num_threads")(1);
  return {symbol<decltype(&cblas_sgemm)>(lib, "cblas_sgemm"), symbol<decltype(&cblas_dgemm)>(lib, "cblas_dgemm")};
}

const OpenBlas& openblas() {
  static const OpenBlas blas = load_openblas();  // thread-safe, once
  return blas;
}

CBLAS_TRANSPOSE blas_op(Op op) { return op == Op::none ? CblasNoTrans : CblasTrans; }

// LIBXSMM generates a kernel for the exact shape at its first use (JIT, for the CPU's instruction set) and does not
// pack its operands: on the engine's NN and TN shapes it takes 13-46% less time than OpenBLAS (docs/benchmarks.md).
// Its kernels are column-major, so the row-major C = op(A) op(B) is computed as the column-major
// C^T = op(B)^T op(A)^T: B's storage is LIBXSMM's first operand, A's its second, with m and n swapped. LIBXSMM 1.17
// generates only alpha = 1, beta = 0 or 1, and no transposed first operand (a transposed B here: the engine copies W,
// and attention.cpp K and V, transposed first); other products, and any shape it declines (nullptr), go to OpenBLAS.
// Each output element is one sum over k in order, whatever m and n, so a product split by rows between cores gives
// the bits of the whole (gemm_split_align; tests/core/train/spare_cores_test.cpp).
bool xsmm_shape(Op op_b, int m, int n, int k, float alpha, float beta) {
  return op_b == Op::none && alpha == 1.0f && (beta == 0.0f || beta == 1.0f) && m > 0 && n > 0 && k > 0;
}

// LIBXSMM's own registry hashes the whole descriptor at every call, which took 1.5% of a training step on AVX2 (the
// attention's six small products per sequence and head): each thread keeps the kernels of its recent shapes in front
// of it, one slot per hash of the shape.
libxsmm_smmfunction xsmm_kernel(Op op_a, Op op_b, int m, int n, int k, float alpha, int lda, int ldb, float beta,
                                int ldc) {
  if (!xsmm_shape(op_b, m, n, k, alpha, beta)) return nullptr;
  struct Slot {
    std::array<int, 7> shape{};
    libxsmm_smmfunction kernel = nullptr;
  };
  thread_local std::array<Slot, 1024> recent{};
  const std::array<int, 7> shape = {m, n, k, lda, ldb, ldc, int(op_a) * 2 + int(beta != 0.0f)};
  std::uint32_t hash = 2166136261u;  // FNV-1a over the shape's ints
  for (const int v : shape) hash = (hash ^ std::uint32_t(v)) * 16777619u;
  Slot& slot = recent[(hash ^ hash >> 16) % recent.size()];
  if (slot.kernel && slot.shape == shape) return slot.kernel;
  const int flags = op_a == Op::transpose ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
  const libxsmm_blasint first_ld = ldb, second_ld = lda, out_ld = ldc;
  slot = {shape, libxsmm_smmdispatch(n, m, k, &first_ld, &second_ld, &out_ld, &alpha, &beta, &flags, nullptr)};
  return slot.kernel;
}

// LIBXSMM's generated kernels return with the upper halves of the vector registers in use (no vzeroupper). The
// SSE code that runs next (libm's expf, the engine's passes built for baseline x86-64) then pays a transition
// penalty on every instruction: the cross-entropy after the output layer's product took 30 times longer (perf).
[[gnu::target("avx")]] void clear_upper_halves() { _mm256_zeroupper(); }

// Calls fn(first, count) for blocks that cover [0, total) in order: blocks of 256, then one of a multiple of 16, then
// the rest (under 16), so that the blocks of any total have one of 1 + 15 + 15 sizes.
template <class Fn>
void fixed_blocks(int total, Fn fn) {
  int first = 0;
  for (; total - first >= 256; first += 256) fn(first, 256);
  if (const int sixteens = (total - first) / 16 * 16) fn(first, sixteens), first += sixteens;
  if (first < total) fn(first, total - first);
}

// Whether gemm() computes LIBXSMM's products in blocks (below): where LIBXSMM generates AVX2 code or less. Its
// AVX-512 kernels give other bits for some blocks than for the whole (the training run's loss moved in the last bits),
// its AVX2 ones keep them (the same loss to the bit at 150 steps, for rows and for k in blocks).
bool xsmm_in_blocks() {
  static const bool blocks = libxsmm_get_target_archid() < LIBXSMM_X86_AVX512;
  return blocks;
}

// Calls fn(kernel, first row, first k) for each block of a product of the kind LIBXSMM generates, in order (rows, then
// k); a null kernel where LIBXSMM declines a block's shape. LIBXSMM generates a kernel per shape, and the engine's
// products have the batch's token count as m (the forward and the input gradients) or as k (the weight gradients):
// whole, the default model's AVX2 step generated 15 new kernels on average (2208 of more than 64^3 in 150 steps,
// 17 MB of code, LIBXSMM_VERBOSE=2) and ran each new one cold. In blocks (xsmm_in_blocks), an m over 256 goes in
// fixed_blocks of rows (each element is one sum over k in order whatever m: gemm_split_align), and so does a k over
// 256 where beta is 1: a beta-1 kernel starts each element's sum from C's value, so a block of k continues the chain
// of multiply-adds where the block before it stored it. Smaller products (the attention's) stay whole.
template <class Fn>
void for_each_xsmm_block(Op op_a, int m, int n, int k, float beta, int lda, int ldb, int ldc, Fn fn) {
  const bool block_rows = xsmm_in_blocks() && m > 256, block_k = xsmm_in_blocks() && beta == 1.0f && k > 256;
  if (!block_rows && !block_k) return fn(xsmm_kernel(op_a, Op::none, m, n, k, 1.0f, lda, ldb, beta, ldc), 0, 0);
  auto rows_from = [&](int r0, int rows) {
    auto block = [&](int k0, int ks) {
      fn(xsmm_kernel(op_a, Op::none, rows, n, ks, 1.0f, lda, ldb, beta, ldc), r0, k0);
    };
    if (block_k) fixed_blocks(k, block);
    else block(0, k);
  };
  if (block_rows) fixed_blocks(m, rows_from);
  else rows_from(0, m);
}

// A block of a product and LIBXSMM's kernel for it: C's rows from `row` on, the sum over k from `k` on.
struct XsmmBlock {
  libxsmm_smmfunction kernel;
  int row, k;
};

// The blocks of this product in order, each with its kernel, where LIBXSMM serves every block (and so gemm() sends
// the product to LIBXSMM); empty otherwise. One list per thread, rewritten by the next call.
const std::vector<XsmmBlock>& xsmm_blocks(Op op_a, Op op_b, int m, int n, int k, float alpha, int lda, int ldb,
                                          float beta, int ldc) {
  thread_local std::vector<XsmmBlock> blocks;
  blocks.clear();
  if (!xsmm_shape(op_b, m, n, k, alpha, beta)) return blocks;
  bool served = true;
  for_each_xsmm_block(op_a, m, n, k, beta, lda, ldb, ldc, [&](libxsmm_smmfunction kernel, int row, int k0) {
    served = served && kernel != nullptr;
    blocks.push_back({kernel, row, k0});
  });
  if (!served) blocks.clear();
  return blocks;
}

// Whether gemm() sends this product to LIBXSMM (float products it generates a kernel for) or to OpenBLAS.
bool served_by_xsmm(Op op_a, Op op_b, int m, int n, int k, float alpha, int lda, int ldb, float beta, int ldc) {
  return !xsmm_blocks(op_a, op_b, m, n, k, alpha, lda, ldb, beta, ldc).empty();
}
bool served_by_xsmm(Op, Op, int, int, int, double, int, int, double, int) { return false; }

// Whether LIBXSMM generates AVX code (and so needs the clearing above): its own choice of instruction set.
bool xsmm_uses_avx() {
  static const bool avx = libxsmm_get_target_archid() >= LIBXSMM_X86_AVX;
  return avx;
}

}  // namespace

void gemm(Op op_a, Op op_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
          float beta, float* c, int ldc) {
  const std::vector<XsmmBlock>& blocks = xsmm_blocks(op_a, op_b, m, n, k, alpha, lda, ldb, beta, ldc);
  if (!blocks.empty()) {
    const std::size_t la = std::size_t(lda), lb = std::size_t(ldb), lc = std::size_t(ldc);
    for (const XsmmBlock& block : blocks) {
      const std::size_t r = std::size_t(block.row), kb = std::size_t(block.k);
      block.kernel(b + kb * lb, op_a == Op::none ? a + r * la + kb : a + kb * la + r, c + r * lc);
    }
    if (xsmm_uses_avx()) clear_upper_halves();
    return;
  }
  openblas().sgemm(CblasRowMajor, blas_op(op_a), blas_op(op_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(Op op_a, Op op_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
          double beta, double* c, int ldc) {
  openblas().dgemm(CblasRowMajor, blas_op(op_a), blas_op(op_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#endif

namespace {

// Deterministic values in [-1, 1] with three decimals, so that roundings differ between orders of summation.
template <class T>
std::vector<T> probe_values(std::size_t count, std::uint32_t salt) {
  std::vector<T> v(count);
  for (std::size_t i = 0; i < count; ++i)
    v[i] = T(((std::uint32_t(i) + salt) * 2654435761u >> 8) % 2001u) / T(1000) - T(1);
  return v;
}

// The check behind gemm_split_align for one kind of product: a probe of `align` rows plus 53 (so its upper half ends
// in a part tile of any width up to 48), 220 columns and k = 700 (more than one k block of the kernels here, and
// halves above kBlasRegularWork), computed whole and in two halves cut at `align`, each by the library that serves
// the product it stands for.
template <class T>
bool halves_keep_bits(Op op_a, Op op_b, T alpha, T beta, std::size_t align, bool xsmm) {
  const int cut = int(align), m = cut + 53, n = 220, k = 700;
  const int lda = op_a == Op::none ? k : m, ldb = op_b == Op::none ? n : k;
  for (int rows : {m, cut, m - cut})
    if (served_by_xsmm(op_a, op_b, rows, n, k, alpha, lda, ldb, beta, n) != xsmm) return false;
  const std::vector<T> a = probe_values<T>(std::size_t(m) * k, 1), b = probe_values<T>(std::size_t(k) * n, 2);
  std::vector<T> whole = probe_values<T>(std::size_t(m) * n, 3), halves = whole;
  gemm(op_a, op_b, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, whole.data(), n);
  for (const auto& [first, rows] : {std::pair{0, cut}, std::pair{cut, m - cut}}) {
    const T* a_rows = op_a == Op::none ? a.data() + std::size_t(first) * lda : a.data() + first;
    gemm(op_a, op_b, rows, n, k, alpha, a_rows, lda, b.data(), ldb, beta, halves.data() + std::size_t(first) * n, n);
  }
  return std::memcmp(whole.data(), halves.data(), whole.size() * sizeof(T)) == 0;
}

template <class T>
std::size_t split_align(Op op_a, Op op_b, int m, int n, int k, T alpha, int lda, int ldb, T beta, int ldc) {
  const bool xsmm = served_by_xsmm(op_a, op_b, m, n, k, alpha, lda, ldb, beta, ldc);
  const std::size_t align = xsmm ? kXsmmRowAlign : kBlasRowAlign;
  const int cut = int(split_cut(std::size_t(m), align));
  if (cut <= 0 || cut >= m) return align;  // split_rows computes it whole anyway
  for (int rows : {cut, m - cut})  // the halves go to the library the whole product goes to
    if (served_by_xsmm(op_a, op_b, rows, n, k, alpha, lda, ldb, beta, ldc) != xsmm) return 0;
  if (!xsmm && double(std::min(cut, m - cut)) * n * k < kBlasRegularWork) return 0;
  // One verdict per kind of product: 0 unchecked, 1 the halves keep the bits, -1 they do not.
  static std::array<std::atomic<signed char>, 96> verdicts{};
  const int beta_kind = beta == T(0) ? 0 : beta == T(1) ? 1 : 2;
  const int kind = ((((int(std::is_same_v<T, double>) * 2 + int(op_a)) * 2 + int(op_b)) * 2 + int(alpha == T(1))) * 3 +
                    beta_kind) * 2 + int(xsmm);
  signed char verdict = verdicts[std::size_t(kind)].load(std::memory_order_acquire);
  if (verdict == 0) {
    const T probe_alpha = alpha == T(1) ? T(1) : T(0.7), probe_beta = beta_kind == 2 ? T(0.5) : T(beta_kind);
    verdict = halves_keep_bits(op_a, op_b, probe_alpha, probe_beta, align, xsmm) ? 1 : -1;
    verdicts[std::size_t(kind)].store(verdict, std::memory_order_release);
  }
  return verdict > 0 ? align : 0;
}

}  // namespace

std::size_t gemm_split_align(Op op_a, Op op_b, int m, int n, int k, float alpha, int lda, int ldb, float beta,
                             int ldc) {
  return split_align(op_a, op_b, m, n, k, alpha, lda, ldb, beta, ldc);
}

std::size_t gemm_split_align(Op op_a, Op op_b, int m, int n, int k, double alpha, int lda, int ldb, double beta,
                             int ldc) {
  return split_align(op_a, op_b, m, n, k, alpha, lda, ldb, beta, ldc);
}

}  // namespace peviz::train
