// The absolute position encodings (sinusoidal in two layouts, learned, binary, normalized, integer).
#include "core/absolute_encodings.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/errors.hpp"
#include "core/parallel.hpp"

namespace peviz {

std::vector<double> sinusoid_frequencies(int d_model, double base, Layout layout) {
  std::vector<double> w;
  if (layout == Layout::interleaved) {
    // Vaswani et al. 2017, §3.5: PE(t,2i) = sin(t / base^(2i/d)), PE(t,2i+1) = cos(t / base^(2i/d)).
    // Odd d: sin gets ceil(d/2) frequencies, cos the first floor(d/2); the exponent still divides by d.
    const int n = (d_model + 1) / 2;
    w.resize(std::size_t(n));
    const double ln_base = std::log(base);
    for (int i = 0; i < n; ++i) w[std::size_t(i)] = std::exp(-2.0 * i * ln_base / d_model);
  } else {
    // tensor2tensor common_attention.get_timing_signal_1d (min_timescale 1, max_timescale = base):
    // log_timescale_increment = ln(base) / max(n-1, 1); inv_timescales = exp(-k * increment).
    const int n = d_model / 2;
    w.resize(std::size_t(n));
    const double inc = std::log(base) / double(std::max(n - 1, 1));
    for (int k = 0; k < n; ++k) w[std::size_t(k)] = std::exp(-k * inc);
  }
  return w;
}

namespace {

// Deterministic on every platform: mt19937_64 is fully specified by the standard, and the normal
// deviates come from our own Box-Muller (std::normal_distribution is implementation-defined).
void fill_random_normal(float* data, std::size_t count, std::uint64_t seed, double stddev) {
  std::mt19937_64 rng(seed);
  auto uniform01 = [&rng] { return (double(rng() >> 11) + 0.5) * 0x1.0p-53; };  // in (0, 1)
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  for (std::size_t i = 0; i < count; i += 2) {
    const double r = std::sqrt(-2.0 * std::log(uniform01()));
    const double a = kTwoPi * uniform01();
    data[i] = float(stddev * r * std::cos(a));
    if (i + 1 < count) data[i + 1] = float(stddev * r * std::sin(a));
  }
}

}  // namespace

Matrix learned_random_table(int max_len, int d_model, std::uint64_t seed) {
  // GPT-2's position table wpe is initialised N(0, initializer_range^2) with initializer_range 0.02
  // (HF transformers GPT2PreTrainedModel._init_weights, GPT2Config.initializer_range).
  Matrix m{std::size_t(max_len), std::size_t(d_model)};
  fill_random_normal(m.data.data(), m.data.size(), seed, 0.02);
  return m;
}

EncodingRows prepare_encoding_rows(const EncodingParams& p, MissingRows missing) {
  validate(p);
  EncodingRows rows;
  rows.params = p;
  rows.width = std::size_t(encoding_width(p));
  rows.threads = resolve_threads(p.threads);
  if (p.encoding == Encoding::sinusoidal) rows.plan = make_sinusoid_plan(p.d_model, p.base, p.layout);
  if (p.encoding == Encoding::learned) {
    rows.table = p.learned_table ? p.learned_table
                                 : std::make_shared<const Matrix>(learned_random_table(p.max_len, p.d_model, p.seed));
    if (std::size_t(p.seq_len) > rows.table->rows && missing == MissingRows::error)
      throw ParamError("seq-len", "a learned table has no embedding for positions >= max-len (" +
                                      std::to_string(rows.table->rows) + "); got seq-len " + std::to_string(p.seq_len));
  }
  return rows;
}

void EncodingRows::fill(std::size_t first, std::size_t count, float* out) const {
  const EncodingParams& p = params;
  const std::size_t L = std::size_t(p.seq_len);
  for (std::size_t r = 0; r < count && p.encoding != Encoding::sinusoidal; ++r) {
    const std::size_t t = first + r;
    float* row = out + r * width;
    switch (p.encoding) {
      case Encoding::learned:
        // Positions past the table's rows have no embedding: NaN (refused up front unless asked for).
        if (t < table->rows) std::memcpy(row, table->row(t), width * sizeof(float));
        else std::fill(row, row + width, std::numeric_limits<float>::quiet_NaN());
        break;
      case Encoding::binary: {
        // bits[t,k] = (t >> k) & 1, least significant bit first (k = 0 is the fastest-flipping bit).
        const float zero = p.signed_bits ? -1.0f : 0.0f;
        for (std::size_t k = 0; k < width; ++k) row[k] = (k < 63 && ((t >> k) & 1u)) ? 1.0f : zero;
        break;
      }
      // The naive "fraction of the sequence" encoding: t / (L-1), so the same offset means
      // different things at different lengths. L = 1 gives 0.
      case Encoding::normalized: row[0] = L > 1 ? float(double(t) / double(L - 1)) : 0.0f; break;
      // The naive "use the index" encoding: t itself, unbounded as L grows.
      case Encoding::integer: row[0] = float(t); break;
      default: break;
    }
  }
  if (p.encoding != Encoding::sinusoidal) return;
  // Threads take whole restart blocks, so every row is computed exactly as on one thread.
  const SimdPath path = best_simd_path();
  parallel_rows(first, count, kSinusoidRestart, threads, [&](std::size_t from, std::size_t n) {
    sinusoid_rows(path, plan, from, n, out + (from - first) * width);
  });
}

RowSource encoding_row_source(const EncodingParams& p) {
  auto rows = std::make_shared<const EncodingRows>(prepare_encoding_rows(p));
  RowSource src;
  src.shape = {std::size_t(p.seq_len), rows->width};
  src.dtype = p.encoding == Encoding::binary || p.encoding == Encoding::integer ? DType::i32 : DType::f32;
  src.row_align = p.encoding == Encoding::sinusoidal ? kSinusoidRestart : 1;
  src.fill = [rows, dtype = src.dtype](std::size_t first, std::size_t count, void* out) {
    if (dtype == DType::f32) {
      rows->fill(first, count, static_cast<float*>(out));
      return;
    }
    std::vector<float> values(count * rows->width);
    rows->fill(first, count, values.data());
    auto* ints = static_cast<std::int32_t*>(out);
    for (std::size_t i = 0; i < values.size(); ++i) ints[i] = std::int32_t(values[i]);
  };
  return src;
}

void encode(const EncodingParams& p, Matrix& out, MissingRows missing) {
  const EncodingRows rows = prepare_encoding_rows(p, missing);
  out.reshape(std::size_t(p.seq_len), rows.width);
  rows.fill(0, out.rows, out.data.data());
}

Matrix encode(const EncodingParams& p, MissingRows missing) {
  Matrix m;
  encode(p, m, missing);
  return m;
}

}  // namespace peviz
