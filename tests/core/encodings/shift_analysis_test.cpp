// Tests for core/encodings/shift_analysis: frequencies per channel and PE(p+k) = R(k) PE(p) in both layouts.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"
#include "core/encodings/shift_analysis.hpp"

using namespace peviz;

TEST_CASE("channel frequencies name the right channels") {
  const auto inter = channel_frequencies(6, 10000.0, Layout::interleaved);
  REQUIRE(inter.size() == 3);
  CHECK(inter[1].sin_channel == 2);
  CHECK(inter[1].cos_channel == 3);
  CHECK(inter[0].wavelength == Approx(2 * M_PI));
  const auto halves = channel_frequencies(6, 10000.0, Layout::halves);
  REQUIRE(halves.size() > 2);
  CHECK(halves[1].sin_channel == 1);
  CHECK(halves[1].cos_channel == 4);
  CHECK(halves[2].wavelength == Approx(2 * M_PI * 10000.0));
  CHECK(channel_frequencies(5, 10.0, Layout::interleaved).back().cos_channel == -1);
}

TEST_CASE("R(k) maps PE(p) to PE(p+k) for every p, in both layouts") {
  for (Layout layout : {Layout::interleaved, Layout::halves}) {
    EncodingParams p;
    p.d_model = 32;
    p.seq_len = 200;
    p.layout = layout;
    const Matrix pe = encode(p);
    for (int k : {1, 5, 37}) {
      const Matrix r = shift_matrix(32, 10000.0, layout, k);
      std::vector<float> y(32);
      for (int t : {0, 10, 150}) {
        apply_matrix(r, pe.row(t), y.data());
        for (int c = 0; c < 32; ++c) CHECK(y[c] == Approx(pe.at(t + k, c)).margin(1e-5));
      }
      const ShiftCheck check = measure_shift_identity(p, k);
      CHECK(check.max_abs_error < 1e-5);
      CHECK(check.positions_checked == 200 - k);
    }
  }
}

TEST_CASE("R(k) is block-diagonal rotations that do not depend on p") {
  const Matrix r = shift_matrix(4, 10000.0, Layout::interleaved, 3.0);
  CHECK(r.at(0, 0) == Approx(std::cos(3.0)));
  CHECK(r.at(0, 1) == Approx(std::sin(3.0)));
  CHECK(r.at(1, 0) == Approx(-std::sin(3.0)));
  CHECK(r.at(0, 2) == 0.0f);
  CHECK(r.at(2, 2) == Approx(std::cos(0.03)));
}

TEST_CASE("odd d: the unpaired sin channel breaks the identity, and the check shows it") {
  EncodingParams p;
  p.d_model = 5;
  p.seq_len = 100;
  p.base = 10.0;  // last w = 10^(-4/5) = 0.16: the missing cos partner costs |cos(pw) sin(kw)| ~ 1
  CHECK(measure_shift_identity(p, 10).max_abs_error > 1e-2);
  p.layout = Layout::halves;  // zero column: still exact
  CHECK(measure_shift_identity(p, 10).max_abs_error < 1e-5);
  p.encoding = Encoding::binary;
  CHECK_THROWS_AS(measure_shift_identity(p, 1), ParamError);
}
