// The shipped lesson says what its pictures show: each step's claim, checked against the state the step sets.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>

#include "app/model/app_update.hpp"
#include "app/model/lessons.hpp"
#include "core/criteria.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

// The state at lesson step `number` (1-based), computed as the window shows it.
AppState at_step(int number) {
  AppState s;
  start_lesson(s, load_lesson_file(std::string(PEVIZ_SOURCE_DIR) + "/assets/lessons/positional-encodings.json"));
  go_to_step(s, number - 1);
  REQUIRE_FALSE(s.teach.notice_is_error);
  update_app_state(s);
  return s;
}

const LessonStep& step_of(const AppState& s) { return s.teach.lesson.steps[std::size_t(s.teach.step)]; }

double dot_rows(const Matrix& m, int p, int q) {
  double sum = 0.0;
  for (std::size_t c = 0; c < m.cols; ++c) sum += double(m.at(std::size_t(p), c)) * double(m.at(std::size_t(q), c));
  return sum;
}

}  // namespace

TEST_CASE("step 2: the integer grows without bound, the fraction gives one offset different sizes; the list is measured") {
  AppState s = at_step(2);
  CHECK(s.analysis.page == Page::criteria);
  EncodingParams integer = s.params, fraction = s.params;
  integer.encoding = Encoding::integer;
  fraction.encoding = Encoding::normalized;
  CHECK_FALSE(measure_criteria(integer).bounded);
  const CriteriaReport f = measure_criteria(fraction);
  CHECK(f.bounded);
  CHECK_FALSE(f.consistent);
  CHECK(f.change_with_length > 0.4);  // offset 1 is about half as large at 2L
  CHECK(step_of(s).text.find("smooth") == std::string::npos);  // not a criterion the page measures
}

TEST_CASE("step 3: binary bits as channels stay in {0, 1}, every position has its own code") {
  AppState s = at_step(3);
  for (float v : s.encoding.data) CHECK((v == 0.0f || v == 1.0f));
  for (int p = 0; p < int(s.encoding.rows); ++p)
    for (int q = p + 1; q < int(s.encoding.rows); ++q) {
      double d = 0.0;
      for (std::size_t c = 0; c < s.encoding.cols; ++c) d += std::abs(s.encoding.at(std::size_t(p), c) - s.encoding.at(std::size_t(q), c));
      CHECK(d > 0.0);
    }
}

TEST_CASE("step 4: the sign of sin(pi (t + 1/2) / 2^k) is bit k: every cell of the table agrees") {
  AppState s = at_step(4);
  CHECK(s.binary_view.morph == 0.0);
  CHECK(s.binary.agreeing == s.binary.positions * s.binary.bits);
  CHECK(step_of(s).text.find("every cell agrees") != std::string::npos);
}

TEST_CASE("step 5: wavelengths from 2 pi up to 2 pi base^((d-2)/d)") {
  AppState s = at_step(5);
  const double d = s.params.d_model, base = s.params.base;
  float lo = INFINITY, hi = 0.0f;
  for (float w : s.channel_wavelength) lo = std::min(lo, w), hi = std::max(hi, w);
  CHECK(lo == Approx(2.0 * std::numbers::pi).epsilon(1e-5));
  CHECK(hi == Approx(2.0 * std::numbers::pi * std::pow(base, (d - 2.0) / d)).epsilon(1e-4));
}

TEST_CASE("step 6: the dot product depends on the offset only: the rows of 40 and 140 coincide") {
  AppState s = at_step(6);
  const int p = s.highlight_position, q = p + s.similarity_view.compare_offset;
  REQUIRE(p == 40);
  REQUIRE(q == 140);
  for (int r = -p; q + r < int(s.encoding.rows); ++r) CHECK(dot_rows(s.encoding, p, p + r) == Approx(dot_rows(s.encoding, q, q + r)).margin(1e-4));
  // Not monotonic: somewhere past the first offsets the similarity rises again with distance.
  bool rises = false;
  for (int r = 2; p + r + 1 < int(s.encoding.rows); ++r) rises = rises || dot_rows(s.encoding, p, p + r + 1) > dot_rows(s.encoding, p, p + r);
  CHECK(rises);
}

TEST_CASE("step 8: a table learned by the Lab's model, 43 rows, nothing past them") {
  AppState s = at_step(8);
  CHECK(s.params.encoding == Encoding::learned);
  REQUIRE(s.params.learned_table);
  CHECK(s.params.learned_table->rows == 43);
  CHECK(s.params.learned_table->cols == 64);
  double spread = 0.0;  // trained, not its N(0, 0.02^2) start: values well past 3 standard deviations
  for (float v : s.params.learned_table->data) spread = std::max(spread, double(std::abs(v)));
  CHECK(spread > 0.1);
  for (std::size_t t = 0; t < s.encoding.rows; ++t)
    CHECK(std::isnan(s.encoding.at(t, 0)) == (t >= 43));
}

TEST_CASE("step 11: the text describes the all-ones query and key the decay page draws, not an average") {
  AppState s = at_step(11);
  CHECK(s.analysis.page == Page::rope_decay);
  CHECK(step_of(s).text.find("Averaged over content") == std::string::npos);
  CHECK(step_of(s).text.find("all ones") != std::string::npos);
}
