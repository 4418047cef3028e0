// Tests for app/model/lessons: the shipped lesson checks out and every step sets its page; broken lessons are
// refused with the file, step and key named; stepping applies each step on top of the starting state; and the
// shipped lesson says what its pictures show (each step's claim, checked against the state the step sets).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <unistd.h>
#include <vector>

#include "app/model/app_update.hpp"
#include "app/model/lessons.hpp"
#include "app/model/presentation.hpp"
#include "app/model/word_order_demo.hpp"
#include "core/encodings/criteria.hpp"
#include "core/base/errors.hpp"
#include "core/rope/rope.hpp"
#include "tests/build_paths.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kShippedLessons = fs::path(peviz::test::source_dir) / "assets" / "lessons";

std::string refusal(const json& j) {
  try {
    parse_lesson(j, "bad.json");
  } catch (const ParamError& e) {
    return e.what();
  }
  return "accepted";
}

json one_step(json state) {
  return {{"title", "T"}, {"steps", json::array({{{"title", "S"}, {"text", "Words."}, {"state", std::move(state)}}})}};
}

}  // namespace

TEST_CASE("every shipped lesson loads and validates") {
  int count = 0;
  for (const auto& e : fs::directory_iterator(kShippedLessons)) {
    if (e.path().extension() != ".json") continue;
    INFO(e.path());
    const Lesson l = load_lesson_file(e.path());
    CHECK_FALSE(l.title.empty());
    CHECK(l.steps.size() >= 1);
    for (const LessonStep& st : l.steps) {
      CHECK_FALSE(st.text.empty());
      CHECK(st.state.contains("page"));
    }
    ++count;
  }
  CHECK(count >= 1);
}

TEST_CASE("start_lesson refuses a step outside the lesson, naming how many steps it has, and changes nothing") {
  const Lesson l = load_lesson_file(kShippedLessons / "positional-encodings.json");
  AppState s;
  const int d_model = s.params.d_model;
  CHECK_THROWS_WITH(start_lesson(s, l, 98), "lesson-step: step 99: lesson '" + l.title + "' has 13 steps (1 to 13)");
  CHECK_THROWS_WITH(start_lesson(s, l, -1), Catch::Contains("step 0:"));
  CHECK_FALSE(s.teach.lesson_active);
  CHECK(s.params.d_model == d_model);
  CHECK_NOTHROW(start_lesson(s, l, 12));  // the last
}

TEST_CASE("the default lesson follows the argument, page by page") {
  const Lesson l = load_lesson_file(kShippedLessons / "positional-encodings.json");
  REQUIRE(l.steps.size() == 13);
  CHECK(l.steps[0].demo == "word-order");
  CHECK(lesson_step_line(l, 2) == l.title + "  ·  step 3 / 13");  // the panel's line, 1-based
  AppState s;
  start_lesson(s, l);
  CHECK(s.teach.word_order.words_a.size() == 5);  // the demo was built for step 1
  const Page expected[] = {Page::basics,      Page::criteria, Page::basics, Page::basics,      Page::basics,
                           Page::basics,      Page::linear_shift, Page::basics, Page::t5_shaw, Page::rope_clocks,
                           Page::rope_decay,  Page::alibi,    Page::context_extension};
  for (int k = 0; k < 13; ++k) {
    go_to_step(s, k);
    INFO("step " << k + 1);
    CHECK(s.teach.step == k);
    CHECK(s.pages.page == expected[k]);
    CHECK_FALSE(s.teach.notice_is_error);
  }
  go_to_step(s, 2);
  CHECK(s.params.encoding == Encoding::binary);
  go_to_step(s, 1);
  CHECK(s.params.encoding == Encoding::normalized);
  go_to_step(s, 7);
  CHECK(s.params.encoding == Encoding::learned);
  CHECK(s.params.max_len == 43);  // the Lab's trained table (learned_table) sets the length
  REQUIRE(s.params.learned_table);
  go_to_step(s, 12);
  CHECK_FALSE(s.params.learned_table);  // the next steps start from the lesson's state again
  CHECK(s.pages.context_extension.params.factor == 8.0);
  go_to_step(s, 99);  // clamped
  CHECK(s.teach.step == 12);
}

TEST_CASE("steps apply on top of the starting state, and the user's theme and zoom are never touched") {
  AppState s;
  s.params.d_model = 40;  // not named by the steps below
  s.theme = Theme::light;
  s.ui_zoom = 2.0f;
  const json j = {{"title", "T"},
                  {"steps", {{{"title", "one"}, {"text", "a"}, {"state", {{"params", {{"base", 100}}}}}},
                             {{"title", "two"}, {"text", "b"}, {"state", {{"page", "alibi"}}}}}}};
  start_lesson(s, parse_lesson(j, "t.json"));
  CHECK(s.params.base == 100.0);
  s.params.d_model = 12;  // the teacher changes something at step 1
  go_to_step(s, 1);
  CHECK(s.params.base == 10000.0);  // step 2 starts from the lesson's starting state
  CHECK(s.params.d_model == 40);
  CHECK(s.pages.page == Page::alibi);
  CHECK(s.theme == Theme::light);
  CHECK(s.ui_zoom == 2.0f);
  stop_lesson(s);
  CHECK_FALSE(s.teach.lesson_active);
}

TEST_CASE("broken lessons are refused with the file, step and key named") {
  CHECK(refusal(json::array()).find("bad.json: must be a JSON object") != std::string::npos);
  CHECK(refusal({{"steps", json::array()}}).find("missing \"title\"") != std::string::npos);
  CHECK(refusal({{"title", "T"}, {"steps", json::array()}}).find("\"steps\" is empty") != std::string::npos);
  CHECK(refusal({{"title", "T"}, {"steps", 3}}).find("\"steps\" must be an array") != std::string::npos);
  CHECK(refusal({{"title", 5}, {"steps", json::array()}}).find("\"title\" must be a string") != std::string::npos);
  CHECK(refusal(one_step({{"params", {{"d_model", 0}}}})).find("bad.json: step 1: state: d-model") != std::string::npos);
  CHECK(refusal(one_step({{"page", "nowhere"}})).find("step 1: state: page") != std::string::npos);
  CHECK(refusal(one_step({{"params", {{"d_model", "wide"}}}})).find("d_model: has the wrong type") != std::string::npos);
  CHECK(refusal(one_step("basics")).find("step 1: \"state\" must be a JSON object") != std::string::npos);
  json two = one_step(json::object());
  two["steps"].push_back({{"title", "S2"}, {"state", json::object()}});
  CHECK(refusal(two).find("step 2: missing \"text\"") != std::string::npos);
  two["steps"][1]["text"] = "x";
  two["steps"][1]["demo"] = "fireworks";
  CHECK(refusal(two).find("step 2: \"demo\" must be \"word-order\"") != std::string::npos);
  two["steps"][1].erase("demo");
  two["steps"][1]["learned_table"] = "assets/lab/no-such-run.safetensors";
  CHECK(refusal(two).find("step 2: \"learned_table\": ") != std::string::npos);
  two["steps"][1]["learned_table"] = "assets/lab/default-copy-learned-seed0.safetensors";
  CHECK(refusal(two) == "accepted");
  two["steps"][1]["controls"] = "yes";
  CHECK(refusal(two).find("step 2: \"controls\" must be true or false, got \"yes\"") != std::string::npos);
  two["steps"][1]["controls"] = true;
  CHECK(refusal(two) == "accepted");
}

TEST_CASE("a step's \"show\" names parts of its page; anything else is refused with the parts listed") {
  json j = one_step({{"page", "alibi"}});
  j["steps"][0]["show"] = {"slopes", "heads"};
  CHECK(refusal(j) == "accepted");
  j["steps"][0]["show"] = {"slopes", "tiles"};
  CHECK(refusal(j).find("step 1: \"show\": \"tiles\" is not a part of page alibi (notes, slopes, head, heads)") !=
        std::string::npos);
  j["steps"][0]["show"] = json::array();
  CHECK(refusal(j).find("\"show\" must be a non-empty array of the page's parts") != std::string::npos);
  j["steps"][0]["show"] = "slopes";
  CHECK(refusal(j).find("\"show\" must be a non-empty array") != std::string::npos);
  j["steps"][0]["show"] = {"strip"};  // ALiBi has its own controls, no strip of the sidebar's encoding
  CHECK(refusal(j).find("\"strip\" is not a part of page alibi") != std::string::npos);
  json criteria = one_step({{"page", "criteria"}});
  criteria["steps"][0]["show"] = {"strip", "table"};
  CHECK(refusal(criteria) == "accepted");
  json lab = one_step({{"page", "lab"}});
  lab["steps"][0]["show"] = {"charts"};
  CHECK(refusal(lab).find("page lab has no parts to pick from") != std::string::npos);
}

TEST_CASE("presenting a step with a \"show\" list draws only those parts; the window and other steps draw all") {
  AppState s;
  json j = one_step({{"page", "alibi"}});
  j["steps"][0]["show"] = {"heads"};
  start_lesson(s, parse_lesson(j, "t.json"));
  CHECK(s.teach.present_parts == std::vector<std::string>{"heads"});
  CHECK(shows_part(s, kAlibiSlopes));  // not presenting: the whole page
  set_presenting(s, true);
  CHECK(shows_part(s, kAlibiHeads));
  CHECK_FALSE(shows_part(s, kAlibiSlopes));
  CHECK_FALSE(shows_part(s, kAlibiHead));
  stop_lesson(s);
  CHECK(shows_part(s, kAlibiSlopes));
}

TEST_CASE("a step that asks to move a page's control shows the controls while presenting; the others hide them") {
  AppState s;
  start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
  std::vector<int> with_controls;
  for (int k = 0; k < int(s.teach.lesson.steps.size()); ++k) {
    go_to_step(s, k);
    if (s.teach.present_controls) with_controls.push_back(k + 1);
  }
  CHECK(with_controls == std::vector<int>{4, 10});  // "drag it to 1" (the morph), "Drag the position"
}

TEST_CASE("lesson files: truncated JSON and missing files are refused, names resolve") {
  const fs::path dir = fs::temp_directory_path() / ("peviz-lessons-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "cut.json") << R"({"title": "Cut", "steps": [{"title": "a", "te)";
  try {
    load_lesson_file(dir / "cut.json");
    FAIL("accepted a truncated file");
  } catch (const ParamError& e) {
    CHECK(std::string(e.what()).find("cut.json: is not valid JSON") != std::string::npos);
  }
  CHECK_THROWS_AS(load_lesson_file(dir / "absent.json"), ParamError);
  CHECK(resolve_lesson((dir / "cut.json").string()) == dir / "cut.json");
  CHECK(resolve_lesson("positional-encodings").filename() == "positional-encodings.json");
  CHECK(resolve_lesson("no-such-lesson").empty());
  fs::remove_all(dir);
}

// --- the shipped lesson's claims, step by step ---------------------------------------------------------------

namespace {

// The state at lesson step `number` (1-based), computed as the window shows it.
AppState at_step(int number) {
  AppState s;
  start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
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

TEST_CASE("step 1: the two sentences are one bag of token vectors; with positions, rows 1 and 4 of the sums differ") {
  AppState s = at_step(1);
  REQUIRE(step_of(s).demo == "word-order");
  const WordOrderDemo& d = s.teach.word_order;
  REQUIRE(d.words_a.size() == 5);
  CHECK(same_bag_of_rows(d.tokens_a, d.tokens_b));
  CHECK_FALSE(same_bag_of_rows(d.sums_a, d.sums_b));
  for (std::size_t row : {std::size_t(1), std::size_t(4)}) {  // cat / mouse swap places
    double gap = 0.0;
    for (std::size_t c = 0; c < d.sums_a.cols; ++c) gap += std::abs(d.sums_a.at(row, c) - d.sums_b.at(row, c));
    CHECK(gap > 0.1);
  }
  for (std::size_t c = 0; c < d.sums_a.cols; ++c) CHECK(d.sums_a.at(2, c) == d.sums_b.at(2, c));  // "chased" stays
}

TEST_CASE("step 2: the integer grows without bound, the fraction gives one offset different sizes; the list is measured") {
  AppState s = at_step(2);
  CHECK(s.pages.page == Page::criteria);
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
  for (float v : s.pages.basics.encoding.data) CHECK((v == 0.0f || v == 1.0f));
  for (int p = 0; p < int(s.pages.basics.encoding.rows); ++p)
    for (int q = p + 1; q < int(s.pages.basics.encoding.rows); ++q) {
      double d = 0.0;
      for (std::size_t c = 0; c < s.pages.basics.encoding.cols; ++c) d += std::abs(s.pages.basics.encoding.at(std::size_t(p), c) - s.pages.basics.encoding.at(std::size_t(q), c));
      CHECK(d > 0.0);
    }
}

TEST_CASE("step 4: the sign of sin(pi (t + 1/2) / 2^k) is bit k: every cell of the table agrees") {
  AppState s = at_step(4);
  CHECK(s.pages.basics.binary_view.morph == 0.0);
  CHECK(s.pages.basics.binary.agreeing == s.pages.basics.binary.positions * s.pages.basics.binary.bits);
  CHECK(step_of(s).text.find("every cell agrees") != std::string::npos);
}

TEST_CASE("step 5: wavelengths from 2 pi up to 2 pi base^((d-2)/d)") {
  AppState s = at_step(5);
  const double d = s.params.d_model, base = s.params.base;
  float lo = INFINITY, hi = 0.0f;
  for (float w : s.pages.basics.channel_wavelength) lo = std::min(lo, w), hi = std::max(hi, w);
  CHECK(lo == Approx(2.0 * std::numbers::pi).epsilon(1e-5));
  CHECK(hi == Approx(2.0 * std::numbers::pi * std::pow(base, (d - 2.0) / d)).epsilon(1e-4));
}

TEST_CASE("step 6: the dot product depends on the offset only: the rows of 40 and 140 coincide") {
  AppState s = at_step(6);
  const int p = s.highlight_position, q = p + s.pages.basics.similarity_view.compare_offset;
  REQUIRE(p == 40);
  REQUIRE(q == 140);
  for (int r = -p; q + r < int(s.pages.basics.encoding.rows); ++r) CHECK(dot_rows(s.pages.basics.encoding, p, p + r) == Approx(dot_rows(s.pages.basics.encoding, q, q + r)).margin(1e-4));
  // Not monotonic: somewhere past the first offsets the similarity rises again with distance.
  bool rises = false;
  for (int r = 2; p + r + 1 < int(s.pages.basics.encoding.rows); ++r) rises = rises || dot_rows(s.pages.basics.encoding, p, p + r + 1) > dot_rows(s.pages.basics.encoding, p, p + r);
  CHECK(rises);
}

TEST_CASE("step 7: PE(t + k) = R(k) PE(t) for every t, R(k) block diagonal with rotations by w_i k") {
  AppState s = at_step(7);
  CHECK(s.pages.page == Page::linear_shift);
  const LinearShiftOptions& o = s.pages.linear_shift;
  CHECK(o.max_error_all_p < 1e-5);
  const std::size_t d = o.rk.rows;
  REQUIRE(d == std::size_t(s.params.d_model));
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j)
      if (i / 2 != j / 2) CHECK(o.rk.at(i, j) == 0.0f);  // interleaved pairs (2i, 2i + 1)
  for (std::size_t i = 0; i < d / 2; ++i) {
    const double w = std::pow(s.params.base, -2.0 * double(i) / double(d)), angle = w * o.k;
    CHECK(o.rk.at(2 * i, 2 * i) == Approx(std::cos(angle)).margin(1e-6));
    CHECK(std::abs(o.rk.at(2 * i, 2 * i + 1)) == Approx(std::abs(std::sin(angle))).margin(1e-6));
  }
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
  for (std::size_t t = 0; t < s.pages.basics.encoding.rows; ++t)
    CHECK(std::isnan(s.pages.basics.encoding.at(t, 0)) == (t >= 43));
}

TEST_CASE("step 9: one bucket per diagonal, exact for small distances, logarithmic up to max_distance; Shaw clips at k") {
  AppState s = at_step(9);
  const T5ShawOptions& o = s.pages.t5_shaw;
  REQUIRE(o.seq_len == 256);
  for (std::size_t i = 1; i < o.buckets.rows; ++i)
    for (std::size_t j = 1; j < o.buckets.cols; ++j) CHECK(o.buckets.at(i, j) == o.buckets.at(i - 1, j - 1));
  // Bidirectional: half the buckets per sign, half of those exact (|r| < 8 has its own bucket).
  const int exact = o.num_buckets / 4;
  for (int r = 1; r < exact; ++r) CHECK(o.buckets.at(0, std::size_t(r)) != o.buckets.at(0, std::size_t(r - 1)));
  CHECK(o.buckets.at(0, std::size_t(o.max_distance)) == o.buckets.at(0, std::size_t(o.seq_len - 1)));  // saturated
  CHECK(o.buckets.at(0, std::size_t(o.max_distance / 2)) != o.buckets.at(0, std::size_t(o.max_distance)));
  for (std::size_t j = 0; j < o.shaw.cols; ++j)
    CHECK(o.shaw.at(0, j) == float(std::min<std::size_t>(j, std::size_t(o.max_relative))));
}

TEST_CASE("step 10: a rotated query and key meet by their offset only; the fast dial turns, the slow one barely") {
  AppState s = at_step(10);
  const RopeClocksOptions& o = s.pages.rope_clocks;
  REQUIRE(o.inv_freq.size() == std::size_t(o.rope.head_dim / 2));
  CHECK(o.angles.front() == Approx(std::fmod(o.position, 2.0 * std::numbers::pi)));  // pair 0: one radian a position
  CHECK(o.angles.back() < 0.01);
  // <R(t) q, R(t + r) k> is the same for every t: sum over pairs of cos(r w_j) for all-ones q and k.
  auto score = [&](double t, double r) {
    double sum = 0.0;
    for (double w : o.inv_freq) sum += std::cos((t + r) * w - t * w);
    return sum;
  };
  for (double t : {0.0, 12.0, 1000.0}) CHECK(score(t, 7.0) == Approx(score(0.0, 7.0)).epsilon(1e-9));
}

TEST_CASE("step 11: the text describes the all-ones query and key the decay page draws, not an average") {
  AppState s = at_step(11);
  CHECK(s.pages.page == Page::rope_decay);
  CHECK(step_of(s).text.find("Averaged over content") == std::string::npos);
  CHECK(step_of(s).text.find("all ones") != std::string::npos);
}

TEST_CASE("step 12: ALiBi's slopes are a geometric sequence and each head's bias is a line in distance") {
  AppState s = at_step(12);
  const AlibiOptions& o = s.pages.alibi;
  REQUIRE(o.slopes.size() == 8);
  for (std::size_t h = 1; h < o.slopes.size(); ++h) CHECK(o.slopes[h] / o.slopes[h - 1] == Approx(0.5));
  for (std::size_t i = 1; i < o.head_bias.rows; ++i)
    for (std::size_t j = 0; j < i; ++j)
      CHECK(o.head_bias.at(i, j) == Approx(-o.slopes[std::size_t(o.head)] * double(i - j)).epsilon(1e-6));
}

TEST_CASE("step 13: Llama 3.1, factor 8 from 8192; linear slows every pair, llama3 keeps the fast and slows the slow") {
  AppState s = at_step(13);
  const ContextExtensionOptions& o = s.pages.context_extension;
  CHECK(o.params.factor == 8.0);
  CHECK(o.params.original_len == 8192);
  const auto& rows = o.result.rows;
  auto row = [&](RopeScaling kind) {
    for (const ScalingWavelengths& w : rows)
      if (w.kind == kind) return w;
    FAIL("no row");
    return rows.front();
  };
  const ScalingWavelengths none = row(RopeScaling::none), linear = row(RopeScaling::linear),
                           llama3 = row(RopeScaling::llama3);
  for (std::size_t j = 0; j < none.wavelength.size(); ++j) CHECK(linear.wavelength[j] == Approx(8.0 * none.wavelength[j]));
  CHECK(llama3.wavelength.front() == Approx(none.wavelength.front()));  // the fastest pair kept
  CHECK(llama3.wavelength.back() == Approx(8.0 * none.wavelength.back()));  // the slowest slowed by the factor
}
