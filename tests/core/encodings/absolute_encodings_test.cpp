// Tests for core/encodings/absolute_encodings: closed forms, both layouts, odd d, L = 1, learned, binary, naive, the table.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"

using namespace peviz;

static EncodingParams sinusoidal(int d, int L, Layout layout = Layout::interleaved, double base = 10000.0) {
  EncodingParams p;
  p.d_model = d;
  p.seq_len = L;
  p.layout = layout;
  p.base = base;
  return p;
}

TEST_CASE("interleaved: pe[t,2i] = sin(t w_i), pe[t,2i+1] = cos(t w_i), w_i = base^(-2i/d)") {
  const Matrix pe = encode(sinusoidal(8, 50));
  for (int t : {0, 1, 7, 49}) {
    CHECK(pe.at(t, 0) == Approx(std::sin(t)).margin(1e-6));  // w_0 = 1
    CHECK(pe.at(t, 1) == Approx(std::cos(t)).margin(1e-6));
    const double w2 = std::pow(10000.0, -4.0 / 8.0);
    CHECK(pe.at(t, 4) == Approx(std::sin(t * w2)).margin(1e-6));
    CHECK(pe.at(t, 5) == Approx(std::cos(t * w2)).margin(1e-6));
  }
}

TEST_CASE("interleaved table at L = 8192, d = 1024 is within 1e-6 of a double reference") {
  const int d = 1024, L = 8192;
  const Matrix pe = encode(sinusoidal(d, L));
  double worst = 0.0;
  for (int t = 0; t < L; t += 7) {
    for (int i = 0; i < d / 2; i += 3) {
      const double angle = double(t) * std::pow(10000.0, -2.0 * i / d);
      worst = std::max(worst, std::abs(double(pe.at(t, 2 * i)) - std::sin(angle)));
      worst = std::max(worst, std::abs(double(pe.at(t, 2 * i + 1)) - std::cos(angle)));
    }
  }
  // float32 rounding of a value in [-1, 1] is at most 2^-25 ~ 3e-8; the recurrence adds ~1e-13.
  CHECK(worst < 1e-6);
  CHECK(worst < 1e-7);
}

TEST_CASE("halves: [sin(t w_0..n-1), cos(t w_0..n-1)] with w_k = exp(-k ln(base)/(n-1))") {
  const int d = 8, n = 4;
  const Matrix pe = encode(sinusoidal(d, 20, Layout::halves));
  for (int t : {0, 3, 19})
    for (int k = 0; k < n; ++k) {
      const double w = std::exp(-k * std::log(10000.0) / (n - 1));
      CHECK(pe.at(t, k) == Approx(std::sin(t * w)).margin(1e-6));
      CHECK(pe.at(t, n + k) == Approx(std::cos(t * w)).margin(1e-6));
    }
  // The slowest halves frequency is exactly 1/base.
  CHECK(sinusoid_frequencies(d, 10000.0, Layout::halves).back() == Approx(1e-4));
}

TEST_CASE("odd d: interleaved gives sin ceil(d/2) frequencies, halves a final zero column") {
  const Matrix inter = encode(sinusoidal(5, 10));
  const double w2 = std::pow(10000.0, -4.0 / 5.0);  // the exponent still divides by d = 5
  CHECK(inter.cols == 5);
  CHECK(inter.at(9, 4) == Approx(std::sin(9 * w2)).margin(1e-6));
  CHECK(sinusoid_frequencies(5, 10000.0, Layout::interleaved).size() == 3);
  const Matrix halves = encode(sinusoidal(5, 10, Layout::halves));
  for (int t = 0; t < 10; ++t) CHECK(halves.at(t, 4) == 0.0f);
  CHECK(halves.at(3, 0) == Approx(std::sin(3.0)).margin(1e-6));
  // d = 1: one sin channel (interleaved), one zero column (halves).
  CHECK(encode(sinusoidal(1, 4)).at(2, 0) == Approx(std::sin(2.0)).margin(1e-6));
  CHECK(encode(sinusoidal(1, 4, Layout::halves)).at(2, 0) == 0.0f);
}

TEST_CASE("L = 1 is the zero position only") {
  const Matrix pe = encode(sinusoidal(6, 1));
  REQUIRE(pe.rows == 1);
  CHECK(pe.at(0, 0) == 0.0f);
  CHECK(pe.at(0, 1) == 1.0f);
  EncodingParams n;
  n.encoding = Encoding::normalized;
  n.seq_len = 1;
  CHECK(encode(n).at(0, 0) == 0.0f);
}

TEST_CASE("wavelengths span 2 pi to base * 2 pi") {
  const auto w = sinusoid_frequencies(512, 10000.0, Layout::interleaved);
  CHECK(2 * M_PI / w.front() == Approx(2 * M_PI));
  // Interleaved stops one step short of the base: w_last = base^(-(d-2)/d).
  CHECK(2 * M_PI / w.back() == Approx(2 * M_PI * std::pow(10000.0, 510.0 / 512.0)));
  CHECK(2 * M_PI / w.back() < 2 * M_PI * 10000.0);
}

TEST_CASE("binary: bits[t,k] = (t >> k) & 1, LSB first; signed maps to +-1") {
  EncodingParams p;
  p.encoding = Encoding::binary;
  p.d_model = 5;
  p.seq_len = 40;
  const Matrix b = encode(p);
  for (int t = 0; t < 40; ++t)
    for (int k = 0; k < 5; ++k) CHECK(b.at(t, k) == float((t >> k) & 1));
  p.signed_bits = true;
  const Matrix s = encode(p);
  CHECK(s.at(6, 0) == -1.0f);
  CHECK(s.at(6, 1) == 1.0f);
}

TEST_CASE("naive encodings: t/(L-1) and t") {
  EncodingParams p;
  p.encoding = Encoding::normalized;
  p.seq_len = 5;
  const Matrix n = encode(p);
  CHECK(n.cols == 1);
  CHECK(n.at(4, 0) == 1.0f);
  CHECK(n.at(2, 0) == 0.5f);
  p.encoding = Encoding::integer;
  const Matrix i = encode(p);
  CHECK(i.at(4, 0) == 4.0f);
}

TEST_CASE("learned: seeded N(0, 0.02^2), deterministic, missing past max_len") {
  EncodingParams p;
  p.encoding = Encoding::learned;
  p.d_model = 64;
  p.max_len = 512;
  p.seq_len = 512;
  const Matrix a = encode(p), b = encode(p);
  CHECK(a.data == b.data);
  double sum = 0, sq = 0;
  for (float v : a.data) {
    sum += v;
    sq += double(v) * v;
  }
  const double n = double(a.data.size()), mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
  CHECK(std::abs(mean) < 0.001);  // 32768 samples: the standard error of the mean is 1.1e-4
  CHECK(sd == Approx(0.02).epsilon(0.02));
  p.seed = 1;
  CHECK(encode(p).data != a.data);

  p.seq_len = 600;
  CHECK_THROWS_AS(encode(p), ParamError);
  const Matrix missing = encode(p, MissingRows::nan);
  CHECK(std::isnan(missing.at(599, 0)));
  CHECK(std::isnan(missing.at(512, 63)));
  CHECK_FALSE(std::isnan(missing.at(511, 63)));

  EncodingParams from_file;
  from_file.encoding = Encoding::learned;
  from_file.seq_len = 2;
  from_file.learned_table = std::make_shared<Matrix>(Matrix{3, 2, 0.5f});
  const Matrix t = encode(from_file);
  CHECK(t.cols == 2);
  CHECK(t.at(1, 1) == 0.5f);
}

TEST_CASE("encode reuses the output buffer") {
  Matrix out;
  encode(sinusoidal(64, 256), out);
  const float* before = out.data.data();
  encode(sinusoidal(32, 128), out);
  CHECK(out.data.data() == before);
  CHECK(out.rows == 128);
  CHECK(out.cols == 32);
}

TEST_CASE("the encoding table: enum order, names that parse back, the joined list") {
  const auto table = encoding_table();
  REQUIRE(table.size() == 5);
  for (std::size_t i = 0; i < table.size(); ++i) {
    CHECK(table[i].id == Encoding(i));
    CHECK(&encoding_info(Encoding(i)) == &table[i]);
    CHECK(to_string(Encoding(i)) == table[i].name);
    CHECK(parse_encoding(table[i].name) == Encoding(i));
    CHECK(table[i].fill != nullptr);
    CHECK(table[i].scale != nullptr);
    CHECK(table[i].extrapolation != nullptr);
  }
  CHECK(encoding_names() == "sinusoidal, learned, binary, normalized or integer");
  CHECK(encoding_names(" | ", " | ") == "sinusoidal | learned | binary | normalized | integer");
  CHECK_FALSE(parse_encoding("Sinusoidal"));
}

TEST_CASE("each row's inputs decide the width, and its scale bounds every value it produces") {
  for (const EncodingInfo& info : encoding_table()) {
    for (bool signed_bits : {false, true}) {
      EncodingParams p = sinusoidal(12, 100);
      p.encoding = info.id;
      p.signed_bits = signed_bits;
      const Matrix m = encode(p);
      CHECK(int(m.cols) == (info.inputs.d_model ? 12 : 1));
      const ValueScale scale = info.scale(p);
      CHECK(scale.axis_low < scale.axis_high);
      if (std::isnan(scale.low)) continue;  // learned: the table's own values
      float lo = m.data[0], hi = m.data[0];
      for (float v : m.data) lo = std::min(lo, v), hi = std::max(hi, v);
      CHECK(lo >= scale.low - 1e-6);
      CHECK(hi <= scale.high + 1e-6);
      CHECK(scale.centred == (lo < 0));  // diverging colours exactly when both signs occur
      CHECK(scale.axis_low <= scale.low);
      CHECK(scale.axis_high >= scale.high);
    }
  }
}

TEST_CASE("whole-number encodings produce integers only; the others do not") {
  for (const EncodingInfo& info : encoding_table()) {
    EncodingParams p = sinusoidal(8, 50);
    p.encoding = info.id;
    const Matrix m = encode(p);
    bool all_whole = true;
    for (float v : m.data) all_whole = all_whole && v == std::floor(v);
    CHECK(all_whole == info.whole_numbers);
  }
}

TEST_CASE("channel periods: a channel's value returns after its period") {
  EncodingParams bits = sinusoidal(6, 256);
  bits.encoding = Encoding::binary;
  const std::vector<float> bit_periods = encoding_info(Encoding::binary).channel_periods(bits, 6);
  const Matrix b = encode(bits);
  for (std::size_t c = 0; c < 6; ++c) {
    CHECK(bit_periods[c] == float(2 << c));
    for (std::size_t t = 0; t + std::size_t(bit_periods[c]) < 256; ++t) CHECK(b.at(t, c) == b.at(t + std::size_t(bit_periods[c]), c));
  }
  for (Layout layout : {Layout::interleaved, Layout::halves}) {
    EncodingParams p = sinusoidal(7, 8, layout, 100.0);
    const std::vector<float> periods = encoding_info(Encoding::sinusoidal).channel_periods(p, 7);
    const std::vector<double> w = sinusoid_frequencies(7, 100.0, layout);
    for (std::size_t c = 0; c < 7; ++c) {
      const bool paired = layout == Layout::interleaved || c < 6;  // halves: an odd d's last column is zero
      if (!paired) { CHECK(std::isnan(periods[c])); continue; }
      const double wc = layout == Layout::interleaved ? w[c / 2] : w[c % 3];
      CHECK(periods[c] == Approx(2 * 3.141592653589793 / wc).epsilon(1e-6));
    }
  }
  CHECK(encoding_info(Encoding::integer).channel_periods == nullptr);
}

TEST_CASE("extrapolation: sinusoids and enough bits are defined past L; a table, t/(L-1) and t are not") {
  EncodingParams p = sinusoidal(8, 300);
  CHECK(encoding_info(Encoding::sinusoidal).extrapolation(p).defined);
  p.encoding = Encoding::binary;
  CHECK_FALSE(encoding_info(Encoding::binary).extrapolation(p).defined);  // 8 bits count to 255 < 299
  p.d_model = 9;
  CHECK(encoding_info(Encoding::binary).extrapolation(p).defined);  // 9 bits count to 511
  p.max_len = 40;
  const Extrapolation learned = encoding_info(Encoding::learned).extrapolation(p);
  CHECK_FALSE(learned.defined);
  CHECK(learned.note == "no embedding exists for positions >= max-len (40)");
  CHECK_FALSE(encoding_info(Encoding::normalized).extrapolation(p).defined);
  CHECK_FALSE(encoding_info(Encoding::integer).extrapolation(p).defined);
}
