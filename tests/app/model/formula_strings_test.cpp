// The formulas the lesson and the pages' help print, each found verbatim where it is shown and evaluated against
// the values the page plots (its update's cache), so a formula on screen cannot drift from the picture.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

#include "app/model/app_update.hpp"
#include "app/model/lessons.hpp"
#include "tests/build_paths.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

constexpr double kPi = std::numbers::pi;

std::string source_text(const std::string& relative) {
  std::ifstream in(std::string(peviz::test::source_dir) + "/" + relative);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The formula is printed where the test says (a view's help, or the lesson file).
void shown_in(const std::string& relative, const std::string& formula) {
  INFO(relative << " shows \"" << formula << "\"");
  CHECK(source_text(relative).find(formula) != std::string::npos);
}

AppState on_page(Page p) {
  AppState s;
  s.pages.page = p;
  update_app_state(s);
  return s;
}

AppState at_lesson_step(int number) {
  AppState s;
  start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
  go_to_step(s, number - 1);
  update_app_state(s);
  return s;
}

const char* const kLesson = "assets/lessons/positional-encodings.json";

}  // namespace

TEST_CASE("ALiBi's help: slopes 2^(-8(h+1)/H) for heads h = 0 .. H-1") {
  shown_in("app/ui/views/alibi_view.cpp", "slopes 2^(-8(h+1)/H) for heads h = 0 .. H-1");
  for (int heads : {4, 8, 16}) {
    AppState s;
    s.pages.page = Page::alibi;
    s.pages.alibi.heads = heads;
    update_app_state(s);
    REQUIRE(s.pages.alibi.slopes.size() == std::size_t(heads));
    for (int h = 0; h < heads; ++h) CHECK(s.pages.alibi.slopes[std::size_t(h)] == Approx(std::pow(2.0, -8.0 * (h + 1) / heads)));
  }
}

TEST_CASE("RoPE clocks' help: pair j turns by t * base^(-2j/head_dim) radians") {
  shown_in("app/ui/views/rope_clocks_view.cpp", "Pair j turns by t * base^(-2j/head_dim) radians.");
  const AppState s = on_page(Page::rope_clocks);
  const RopeClocksOptions& o = s.pages.rope_clocks;
  REQUIRE(o.angles.size() == std::size_t(o.rope.head_dim / 2));
  for (std::size_t j = 0; j < o.angles.size(); ++j) {
    const double turned = o.position * std::pow(o.rope.base, -2.0 * double(j) / o.rope.head_dim);
    CHECK(o.angles[j] == Approx(std::fmod(turned, 2 * kPi)).margin(1e-9));  // drawn wrapped to [0, 2 pi)
  }
}

TEST_CASE("RoPE decay's help and lesson step 11: score(r) = 2 sum_j cos(r theta_j), divided by its value at 0") {
  shown_in("app/ui/views/rope_decay_view.cpp", "score(r) = <RoPE(1, 0), RoPE(1, r)> = 2 sum_j cos(r theta_j) for a query and key of all");
  shown_in(kLesson, "2 x the sum of cos(r theta_i)");
  const AppState s = on_page(Page::rope_decay);
  const RopeDecayOptions& o = s.pages.rope_decay;
  const int pairs = o.head_dim / 2;
  for (std::size_t b = 0; b < 3; ++b) {
    REQUIRE(o.score[b].size() > 100);
    for (std::size_t r : {std::size_t(0), std::size_t(1), std::size_t(10), std::size_t(100)}) {
      double sum = 0.0;
      for (int j = 0; j < pairs; ++j) sum += std::cos(double(r) * std::pow(kDecayBases[b], -2.0 * j / o.head_dim));
      CHECK(o.score[b][r] == Approx(2.0 * sum / (2.0 * pairs)).margin(1e-6));
    }
  }
}

TEST_CASE("the binary analogy's help and lesson steps 3-4: bit k flips every 2^k steps, sin(pi (t + 1/2) / 2^k) < 0 is bit k") {
  shown_in("app/ui/views/binary_view.cpp", "bit k flips every 2^k steps");
  shown_in("app/ui/views/binary_view.cpp", "frequencies pi/2^k, exactly the bits' periods 2^(k+1)");
  shown_in(kLesson, "bit k every 2^k steps");
  shown_in(kLesson, "the sign of sin(pi (t + 1/2) / 2^k) is exactly bit k");
  const AppState s = at_lesson_step(4);
  const BinaryAnalogy& b = s.pages.basics.binary;
  REQUIRE(b.positions >= 16);
  for (int k = 0; k < b.bits; ++k) {
    CHECK(b.ladder[std::size_t(k)] == Approx(kPi / std::pow(2.0, k)));
    CHECK(2 * kPi / b.ladder[std::size_t(k)] == Approx(std::pow(2.0, k + 1)));  // the period
    for (int t = 0; t < b.positions; ++t) {
      const std::size_t cell = std::size_t(t) * std::size_t(b.bits) + std::size_t(k);
      if (t > 0) {  // bit k changes from t - 1 to t exactly when 2^k divides t
        const bool flips = b.bit[cell] != b.bit[cell - std::size_t(b.bits)];
        CHECK(flips == (t % (1 << k) == 0));
      }
      CHECK((std::sin(kPi * (t + 0.5) / std::pow(2.0, k)) < 0) == bool(b.bit[cell]));
      CHECK(b.negative[cell] == b.bit[cell]);  // the table's sign column is that sine's sign
    }
  }
}

TEST_CASE("lesson step 5: wavelengths from 2 pi up to 2 pi x base^((d-2)/d)") {
  shown_in(kLesson, "from 2 pi (about 6 positions) up to 2 pi x base^((d-2)/d)");
  const AppState s = at_lesson_step(5);
  const double d = s.params.d_model, base = s.params.base;
  const auto& w = s.pages.basics.channel_wavelength;
  REQUIRE(w.size() == std::size_t(d));
  for (std::size_t c = 0; c < w.size(); ++c)  // channels 2i and 2i + 1 share the wavelength 2 pi base^(2i/d)
    CHECK(w[c] == Approx(2 * kPi * std::pow(base, double(c / 2 * 2) / d)).epsilon(1e-5));
}

TEST_CASE("lesson step 6: the dot product of two sinusoidal position vectors is a sum of cos(w_i (q - p))") {
  shown_in(kLesson, "a sum of cos(w_i (q - p))");
  const AppState s = at_lesson_step(6);
  const Matrix& pe = s.pages.basics.encoding;
  const double d = double(pe.cols), base = s.params.base;
  for (int p : {0, 40, 100})
    for (int q : {p, p + 1, p + 7, p + 60}) {
      double dot = 0.0, sum = 0.0;
      for (std::size_t c = 0; c < pe.cols; ++c) dot += double(pe.at(std::size_t(p), c)) * double(pe.at(std::size_t(q), c));
      for (std::size_t i = 0; i < pe.cols / 2; ++i) sum += std::cos(std::pow(base, -2.0 * double(i) / d) * (q - p));
      CHECK(dot == Approx(sum).margin(1e-3));
    }
}
