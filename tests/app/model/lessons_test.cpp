// Tests for app/lessons: the shipped lesson checks out and every step sets its page; broken lessons are
// refused with the file, step and key named; stepping applies each step on top of the starting state.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "app/model/lessons.hpp"
#include "core/errors.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kShipped = fs::path(PEVIZ_SOURCE_DIR) / "assets" / "lessons";

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
  for (const auto& e : fs::directory_iterator(kShipped)) {
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

TEST_CASE("the default lesson follows the argument, page by page") {
  const Lesson l = load_lesson_file(kShipped / "positional-encodings.json");
  REQUIRE(l.steps.size() == 13);
  CHECK(l.steps[0].demo == "word-order");
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
    CHECK(s.analysis.page == expected[k]);
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
  CHECK(s.analysis.context_extension.params.factor == 8.0);
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
  CHECK(s.analysis.page == Page::alibi);
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
