// The absolute position encodings (sinusoidal in two layouts, learned, binary, normalized, integer).
#include "core/encodings/absolute_encodings.hpp"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>

#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"

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

SinusoidPlan make_sinusoid_plan(int d_model, double base, Layout layout) {
  SinusoidPlan plan;
  plan.d_model = d_model;
  plan.interleaved = layout == Layout::interleaved;
  plan.w = sinusoid_frequencies(d_model, base, layout);
  plan.pairs = std::size_t(d_model / 2);
  for (double w : plan.w) {
    plan.cos_w.push_back(std::cos(w));
    plan.sin_w.push_back(std::sin(w));
  }
  return plan;
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

namespace {

// --- sinusoidal (Vaswani et al. 2017 §3.5; the channel order of `Layout`) ---
void prepare_sinusoidal(EncodingRows& rows, MissingRows) {
  rows.plan = make_sinusoid_plan(rows.params.d_model, rows.params.base, rows.params.layout);
}
void fill_sinusoidal(const EncodingRows& rows, std::size_t first, std::size_t count, float* out) {
  // Threads take whole restart blocks, so every row is computed exactly as on one thread.
  const SimdPath path = best_simd_path();
  parallel_rows(first, count, kSinusoidRestart, rows.threads, [&](std::size_t from, std::size_t n) {
    sinusoid_rows(path, rows.plan, from, n, out + (from - first) * rows.width);
  });
}
ValueScale sinusoidal_scale(const EncodingParams&) { return {}; }
std::vector<float> sinusoid_periods(const EncodingParams& p, std::size_t width) {
  // Channel c belongs to pair c / 2 (interleaved) or c mod n (halves; an odd d's last channel to none).
  std::vector<float> periods(width, std::nanf(""));
  if (!std::isfinite(p.base) || p.base <= 1.0 || p.d_model < 1) return periods;
  const std::vector<double> w = sinusoid_frequencies(p.d_model, p.base, p.layout);
  const std::size_t n = w.size();
  for (std::size_t c = 0; c < width; ++c) {
    std::size_t pair = n;
    if (p.layout == Layout::interleaved) pair = c / 2;
    else if (c < 2 * n) pair = c % n;
    if (pair < n && w[pair] > 0.0) periods[c] = float(2.0 * std::numbers::pi / w[pair]);
  }
  return periods;
}
Extrapolation sinusoidal_extrapolation(const EncodingParams&) {
  return {true, "defined for every position; values stay in [-1, 1]"};
}

// --- learned: a random GPT-2-style table or one from a file ---
void prepare_learned(EncodingRows& rows, MissingRows missing) {
  const EncodingParams& p = rows.params;
  rows.table = p.learned_table ? p.learned_table
                               : std::make_shared<const Matrix>(learned_random_table(p.max_len, p.d_model, p.seed));
  if (std::size_t(p.seq_len) > rows.table->rows && missing == MissingRows::error)
    throw ParamError("seq-len", "a learned table has no embedding for positions >= max-len (" +
                                    std::to_string(rows.table->rows) + "); got seq-len " + std::to_string(p.seq_len));
}
void fill_learned(const EncodingRows& rows, std::size_t first, std::size_t count, float* out) {
  // Positions past the table's rows have no embedding: NaN (refused up front unless asked for).
  for (std::size_t r = 0; r < count; ++r) {
    float* row = out + r * rows.width;
    if (first + r < rows.table->rows) std::memcpy(row, rows.table->row(first + r), rows.width * sizeof(float));
    else std::fill(row, row + rows.width, std::numeric_limits<float>::quiet_NaN());
  }
}
ValueScale learned_scale(const EncodingParams&) {
  // The values are the table's: colours read them. The axis spans 4 standard deviations of the random table.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {.centred = true, .low = nan, .high = nan, .axis_low = -0.08, .axis_high = 0.08};
}
Extrapolation learned_extrapolation(const EncodingParams& p) {
  const int rows = p.learned_table ? int(p.learned_table->rows) : p.max_len;
  return {false, "no embedding exists for positions >= max-len (" + std::to_string(rows) + ")"};
}

// --- binary: bits[t,k] = (t >> k) & 1, least significant bit first (k = 0 flips fastest) ---
void fill_binary(const EncodingRows& rows, std::size_t first, std::size_t count, float* out) {
  const float zero = rows.params.signed_bits ? -1.0f : 0.0f;
  for (std::size_t r = 0; r < count; ++r) {
    const std::uint64_t t = first + r;  // 64 bits on every platform: size_t is 32 in wasm32, where t >> 32 was t
    float* row = out + r * rows.width;
    for (std::size_t k = 0; k < rows.width; ++k) row[k] = (k < 63 && ((t >> k) & 1u)) ? 1.0f : zero;
  }
}
ValueScale binary_scale(const EncodingParams& p) {
  if (p.signed_bits) return {};
  return {.centred = false, .low = 0, .high = 1, .axis_low = -0.1, .axis_high = 1.1};
}
std::vector<float> binary_periods(const EncodingParams&, std::size_t width) {
  std::vector<float> periods(width);  // bit c: period 2^(c+1) (float's range ends near 2^127)
  for (std::size_t c = 0; c < width; ++c) periods[c] = std::ldexp(1.0f, int(std::min<std::size_t>(c, 120)) + 1);
  return periods;
}
Extrapolation binary_extrapolation(const EncodingParams& p) {
  return {p.seq_len <= (p.d_model >= 31 ? kMaxSeqLen : (1 << p.d_model)),
          "positions >= 2^d repeat earlier codes (d bits count to 2^d - 1)"};
}

// --- normalized: the naive "fraction of the sequence" t / (L-1), whose offsets mean different things at
// different lengths (L = 1 gives 0) ---
void fill_normalized(const EncodingRows& rows, std::size_t first, std::size_t count, float* out) {
  const std::size_t L = std::size_t(rows.params.seq_len);
  for (std::size_t r = 0; r < count; ++r) out[r] = L > 1 ? float(double(first + r) / double(L - 1)) : 0.0f;
}
ValueScale normalized_scale(const EncodingParams&) {
  return {.centred = false, .low = 0, .high = 1, .axis_low = -0.05, .axis_high = 1.05};
}
Extrapolation normalized_extrapolation(const EncodingParams&) {
  return {false, "t/(L-1) exceeds 1 past the training length, and its meaning depends on L"};
}

// --- integer: the naive "use the index" t, unbounded as L grows ---
void fill_integer(const EncodingRows&, std::size_t first, std::size_t count, float* out) {
  for (std::size_t r = 0; r < count; ++r) out[r] = float(first + r);
}
ValueScale integer_scale(const EncodingParams& p) {
  return {.centred = false, .low = 0, .high = double(std::max(p.seq_len - 1, 1)), .axis_low = -0.05 * p.seq_len,
          .axis_high = 1.05 * p.seq_len};
}
Extrapolation integer_extrapolation(const EncodingParams&) {
  return {false, "defined, but values grow without bound past anything seen in training"};
}

const EncodingInfo kEncodings[] = {
    {.id = Encoding::sinusoidal, .name = "sinusoidal", .label = "sinusoidal",
     .summary = "sinusoids (Vaswani et al. 2017)", .inputs = {.d_model = true, .base = true, .layout = true},
     .row_align = kSinusoidRestart, .prepare = prepare_sinusoidal, .fill = fill_sinusoidal,
     .scale = sinusoidal_scale, .channel_periods = sinusoid_periods, .extrapolation = sinusoidal_extrapolation},
    {.id = Encoding::learned, .name = "learned", .label = "learned", .summary = "a random learned table",
     .inputs = {.d_model = true, .table = true}, .prepare = prepare_learned, .fill = fill_learned,
     .scale = learned_scale, .extrapolation = learned_extrapolation},
    {.id = Encoding::binary, .name = "binary", .label = "binary", .summary = "the bits of the position",
     .inputs = {.d_model = true, .signed_bits = true}, .whole_numbers = true, .fill = fill_binary,
     .scale = binary_scale, .channel_periods = binary_periods, .extrapolation = binary_extrapolation},
    {.id = Encoding::normalized, .name = "normalized", .label = "t/(L-1)", .summary = "t/(L-1)", .inputs = {},
     .fill = fill_normalized, .scale = normalized_scale, .extrapolation = normalized_extrapolation},
    {.id = Encoding::integer, .name = "integer", .label = "integer t", .summary = "t itself", .inputs = {},
     .whole_numbers = true, .fill = fill_integer, .scale = integer_scale, .extrapolation = integer_extrapolation},
};

}  // namespace

std::span<const EncodingInfo> encoding_table() { return kEncodings; }

const EncodingInfo& encoding_info(Encoding e) { return kEncodings[std::size_t(e)]; }

std::string encoding_names(std::string_view separator, std::string_view last_joiner) {
  std::string text;
  for (std::size_t i = 0; i < std::size(kEncodings); ++i) {
    if (i > 0) text += i + 1 == std::size(kEncodings) ? last_joiner : separator;
    text += kEncodings[i].name;
  }
  return text;
}

EncodingRows prepare_encoding_rows(const EncodingParams& p, MissingRows missing) {
  validate(p);
  EncodingRows rows;
  rows.params = p;
  rows.width = std::size_t(encoding_width(p));
  rows.threads = resolve_threads(p.threads);
  if (const auto prepare = encoding_info(p.encoding).prepare) prepare(rows, missing);
  return rows;
}

void EncodingRows::fill(std::size_t first, std::size_t count, float* out) const {
  encoding_info(params.encoding).fill(*this, first, count, out);
}

RowSource encoding_row_source(const EncodingParams& p) {
  auto rows = std::make_shared<const EncodingRows>(prepare_encoding_rows(p));
  const EncodingInfo& info = encoding_info(p.encoding);
  RowSource src;
  src.shape = {std::size_t(p.seq_len), rows->width};
  src.dtype = info.whole_numbers ? DType::i32 : DType::f32;
  src.row_align = info.row_align;
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

// ---- validation and names, by what each encoding's row says it reads ----

int encoding_width(const EncodingParams& p) {
  const EncodingInputs& uses = encoding_info(p.encoding).inputs;
  if (!uses.d_model) return 1;
  return uses.table && p.learned_table ? int(p.learned_table->cols) : p.d_model;
}

void validate(const EncodingParams& p) {
  const EncodingInputs& uses = encoding_info(p.encoding).inputs;
  if (p.learned_table && uses.table) {
    if (p.learned_table->rows < 1 || p.learned_table->cols < 1 || p.learned_table->cols > std::size_t(limits::d_model.max) ||
        p.learned_table->rows > std::size_t(limits::max_len.max))
      throw ParamError("from-npy", "table must have 1.." + std::to_string(int(limits::max_len.max)) + " rows and 1.." +
                                       std::to_string(int(limits::d_model.max)) + " columns");
  } else {
    check_int(limits::d_model, p.d_model);
  }
  check_int(limits::seq_len, p.seq_len);
  if (uses.base) check_real(limits::base, p.base);
  if (uses.table && !p.learned_table) check_int(limits::max_len, p.max_len);
  check_result_size(std::size_t(p.seq_len), std::size_t(encoding_width(p)), p.memory_budget, "the encoding");
}

std::string_view to_string(Encoding e) { return encoding_info(e).name; }

std::optional<Encoding> parse_encoding(std::string_view s) {
  for (const EncodingInfo& e : encoding_table())
    if (e.name == s) return e.id;
  return std::nullopt;
}

}  // namespace peviz
