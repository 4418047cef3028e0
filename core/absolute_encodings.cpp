// The absolute position encodings (sinusoidal in two layouts, learned, binary, normalized, integer).
#include "core/absolute_encodings.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/errors.hpp"

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

// Fills rows of sin(t w_i), cos(t w_i) by rotating (c, s) one step of angle w_i per position, in
// double. Each block of positions starts from exact sin/cos, so the rotation error stays ~1e-13.
// Built for AVX2 and baseline x86-64; the loader picks the best the CPU has.
__attribute__((target_clones("avx2", "default"))) void fill_sinusoidal(const EncodingParams& p, Matrix& out) {
  const int d = p.d_model;
  const std::size_t L = std::size_t(p.seq_len);
  const std::vector<double> w = sinusoid_frequencies(d, p.base, p.layout);
  const std::size_t n = w.size();                 // frequencies carried by sin
  const std::size_t pairs = std::size_t(d / 2);   // frequencies carried by both sin and cos
  std::vector<double> cw(n), sw(n), c(n), s(n);
  for (std::size_t i = 0; i < n; ++i) {
    cw[i] = std::cos(w[i]);
    sw[i] = std::sin(w[i]);
  }
  constexpr std::size_t kBlock = 512;
  for (std::size_t t0 = 0; t0 < L; t0 += kBlock) {
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = std::sin(double(t0) * w[i]);
      c[i] = std::cos(double(t0) * w[i]);
    }
    const std::size_t t1 = std::min(L, t0 + kBlock);
    for (std::size_t t = t0; t < t1; ++t) {
      float* row = out.row(t);
      if (p.layout == Layout::interleaved) {
        for (std::size_t i = 0; i < pairs; ++i) {
          row[2 * i] = float(s[i]);
          row[2 * i + 1] = float(c[i]);
        }
        if (n > pairs) row[2 * pairs] = float(s[pairs]);  // odd d: the unpaired sin channel
      } else {
        for (std::size_t i = 0; i < n; ++i) row[i] = float(s[i]);
        for (std::size_t i = 0; i < n; ++i) row[n + i] = float(c[i]);
        if (std::size_t(d) > 2 * n) row[2 * n] = 0.0f;  // odd d: final zero column
      }
      for (std::size_t i = 0; i < n; ++i) {
        const double ns = s[i] * cw[i] + c[i] * sw[i];
        const double nc = c[i] * cw[i] - s[i] * sw[i];
        s[i] = ns;
        c[i] = nc;
      }
    }
  }
}

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

void fill_learned(const EncodingParams& p, Matrix& out, MissingRows missing) {
  const Matrix* table = p.learned_table.get();
  Matrix random;
  if (!table) {
    random = learned_random_table(p.max_len, p.d_model, p.seed);
    table = &random;
  }
  if (std::size_t(p.seq_len) > table->rows && missing == MissingRows::error) {
    throw ParamError("seq-len", "a learned table has no embedding for positions >= max-len (" +
                                    std::to_string(table->rows) + "); got seq-len " +
                                    std::to_string(p.seq_len));
  }
  const std::size_t known = std::min(std::size_t(p.seq_len), table->rows);
  std::memcpy(out.data.data(), table->data.data(), known * table->cols * sizeof(float));
  std::fill(out.data.begin() + std::ptrdiff_t(known * table->cols), out.data.end(),
            std::numeric_limits<float>::quiet_NaN());
}

}  // namespace

Matrix learned_random_table(int max_len, int d_model, std::uint64_t seed) {
  // GPT-2's position table wpe is initialised N(0, initializer_range^2) with initializer_range 0.02
  // (HF transformers GPT2PreTrainedModel._init_weights, GPT2Config.initializer_range).
  Matrix m{std::size_t(max_len), std::size_t(d_model)};
  fill_random_normal(m.data.data(), m.data.size(), seed, 0.02);
  return m;
}

void encode(const EncodingParams& p, Matrix& out, MissingRows missing) {
  validate(p);
  const std::size_t L = std::size_t(p.seq_len);
  out.reshape(L, std::size_t(encoding_width(p)));
  switch (p.encoding) {
    case Encoding::sinusoidal: fill_sinusoidal(p, out); break;
    case Encoding::learned: fill_learned(p, out, missing); break;
    case Encoding::binary: {
      // bits[t,k] = (t >> k) & 1, least significant bit first (k = 0 is the fastest-flipping bit).
      const float zero = p.signed_bits ? -1.0f : 0.0f;
      for (std::size_t t = 0; t < L; ++t) {
        float* row = out.row(t);
        for (std::size_t k = 0; k < out.cols; ++k) row[k] = (k < 63 && ((t >> k) & 1u)) ? 1.0f : zero;
      }
      break;
    }
    case Encoding::normalized:
      // The naive "fraction of the sequence" encoding: t / (L-1), so the same offset means
      // different things at different lengths. L = 1 gives 0.
      for (std::size_t t = 0; t < L; ++t) out.data[t] = L > 1 ? float(double(t) / double(L - 1)) : 0.0f;
      break;
    case Encoding::integer:
      // The naive "use the index" encoding: t itself, unbounded as L grows.
      for (std::size_t t = 0; t < L; ++t) out.data[t] = float(t);
      break;
  }
}

Matrix encode(const EncodingParams& p, MissingRows missing) {
  Matrix m;
  encode(p, m, missing);
  return m;
}

}  // namespace peviz
