// Each step of the shipped lessons shows what its title and text name: a reviewed table per lesson ties the title
// to the page the step opens and the parts a presented step draws (the plots its text talks about).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "app/model/app_update.hpp"
#include "app/model/lessons.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/model/word_order_demo.hpp"
#include "tests/build_paths.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

// What one step must show: its title, its page (or demo), and the parts its text names (empty: the page whole).
struct StepShows {
  const char* title;
  Page page;
  std::vector<const char*> parts;
  const char* lab_show = "";  // the Lab: what its "show" picks (charts, attention, all)
};

// Reviewed against each step's text: a part is listed when the text talks about its plot.
const std::vector<StepShows> kFirstLesson = {
    {"Why order matters", Page::basics, {}},  // the word-order demo (checked below)
    {"Naive encodings and why they fail", Page::criteria, {"table", "fraction"}},
    {"Counting in binary", Page::basics, {}},
    {"Sinusoids are smooth bits", Page::basics, {}},
    {"The frequency ladder", Page::basics, {}},
    {"Similarity depends on the offset", Page::basics, {}},
    {"Shifting is a rotation", Page::linear_shift, {"vectors", "rotation"}},
    {"Learned tables and extrapolation", Page::basics, {}},
    {"Relative encodings: T5 and Shaw", Page::t5_shaw, {"buckets", "shaw"}},  // the two maps: T5 buckets, Shaw clip
    {"RoPE: rotate, don't add", Page::rope_clocks, {"position", "dials"}},
    {"RoPE: long-term decay", Page::rope_decay, {"score"}},  // the text is about the score; the bound is not named
    {"ALiBi: a bias per distance", Page::alibi, {"slopes", "heads"}},
    {"Stretching the context", Page::context_extension, {"wavelengths"}},
};

const std::vector<StepShows> kSecondLesson = {
    {"Trained short, tested long", Page::lab, {}, "charts"},
    {"What the failing model reads", Page::lab, {}, "attention"},
    {"A learned table has no row for it", Page::lab, {}, "all"},
    {"Fix 1: couple the positions", Page::lab, {}, "attention"},
    {"How far coupling carries", Page::lab, {}, "charts"},
    {"Fix 2: FIRE rescales the distance", Page::lab, {}, "attention"},
    {"Fix 3: randomized positions", Page::lab, {}, "charts"},
    {"A fix on every seed?", Page::lab, {}, "charts"},
    {"Addition: the field's benchmark", Page::lab, {}, "charts"},
    {"Attention fades with length", Page::attention_scale, {"notes", "scale", "needle"}},
    {"SSMax on our addition models", Page::lab, {}, "charts"},
    {"What the field reports, and what we get", Page::lab, {}, "reproductions"},
};

void check_lesson(const std::string& file, const std::vector<StepShows>& table) {
  const Lesson lesson = load_lesson_file(std::filesystem::path(peviz::test::source_dir) / "assets" / "lessons" / file);
  REQUIRE(lesson.steps.size() == table.size());  // a new step needs its row here
  AppState s;
  set_presenting(s, true);
  start_lesson(s, lesson);
  for (std::size_t k = 0; k < table.size(); ++k) {
    go_to_step(s, int(k));
    update_app_state(s);
    const StepShows& row = table[k];
    INFO(file << " step " << k + 1 << ": " << row.title);
    CHECK(lesson.steps[k].title == row.title);
    CHECK(s.pages.page == row.page);
    for (const char* part : row.parts) {
      CHECK(is_page_part(row.page, part));
      CHECK(shows_part(s, part));
    }
    if (row.page == Page::lab) CHECK(std::string(kLabShowNames[std::size_t(s.pages.lab.show)]) == row.lab_show);
  }
}

}  // namespace

TEST_CASE("each step of the first lesson shows what its title names (Shaw on step 9)") {
  check_lesson("positional-encodings.json", kFirstLesson);
}

TEST_CASE("each step of the second lesson shows what its title names") {
  check_lesson("longer-than-training.json", kSecondLesson);
}

TEST_CASE("step 1's header names the d_model its word-order demo uses") {
  const Lesson lesson = load_lesson_file(std::filesystem::path(peviz::test::source_dir) / "assets" / "lessons" /
                                         "positional-encodings.json");
  AppState s;
  set_presenting(s, true);
  start_lesson(s, lesson);
  update_app_state(s);
  REQUIRE(lesson.steps[0].demo == "word-order");
  CHECK(s.params.d_model == kWordOrderDim);
  CHECK(parameter_header(s).find("d_model " + std::to_string(kWordOrderDim) + " ") != std::string::npos);
}
