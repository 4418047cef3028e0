// The window's flags: apply_gui_flags over a state (parameters, page, theme, size, preset, lesson, refusals),
// and the teaching flags in the real window under Xvfb (--preset, --lesson, --lesson-step, --present).
#include "app/ui/gui_flags.hpp"

#include <cstdio>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "app/model/page_model.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "tests/app/ui/run_gui.hpp"
#include "tests/stderr_capture.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

int png_width(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char h[24] = {};
  in.read(reinterpret_cast<char*>(h), sizeof h);
  return (h[16] << 24) | (h[17] << 16) | (h[18] << 8) | h[19];
}

// apply_gui_flags on a default state: whether it accepted `o`, and the state and size it left.
struct Applied {
  bool ok;
  AppState s;
  WindowSize size;
};

Applied apply(const GuiOptions& o) {
  Applied a{false, AppState{}, WindowSize{}};
  a.ok = apply_gui_flags(o, a.s, a.size);
  return a;
}

}  // namespace

TEST_CASE("apply_gui_flags: parameters, page, theme, size and figure folder land in the state") {
  GuiOptions o;
  o.encoding = "binary";
  o.d_model = 48;
  o.seq_len = 300;
  o.base = 500.0;
  o.view = "rope-clocks";
  o.theme = "light";
  o.size = "1024x768";
  o.figure_dir = "/tmp/figs";
  const Applied a = apply(o);
  REQUIRE(a.ok);
  CHECK(a.s.params.encoding == Encoding::binary);
  CHECK(a.s.params.d_model == 48);
  CHECK(a.s.params.seq_len == 300);
  CHECK(a.s.params.base == 500.0);
  CHECK(a.s.pages.page == Page::rope_clocks);
  CHECK(a.s.theme == Theme::light);
  CHECK(a.size.width == 1024);
  CHECK(a.size.height == 768);
  CHECK(a.s.figure.folder == "/tmp/figs");
}

TEST_CASE("apply_gui_flags: flags left at their defaults change nothing") {
  const Applied a = apply(GuiOptions{});
  REQUIRE(a.ok);
  const AppState fresh;
  CHECK(a.s.params.d_model == fresh.params.d_model);
  CHECK(a.s.params.base == fresh.params.base);
  CHECK(a.s.pages.page == fresh.pages.page);
  CHECK(a.size.width == 1600);
  CHECK(a.size.height == 900);
}

TEST_CASE("apply_gui_flags refuses bad names and sizes, and --monkey without --frames, with one line each") {
  // The line apply_gui_flags prints for `o` (refused), or "accepted".
  const auto refusal = [](auto edit) {
    GuiOptions o;
    edit(o);
    bool ok = false;
    const std::string err = stderr_of([&] { ok = apply(o).ok; });
    return ok ? "accepted" : err;
  };
  CHECK(refusal([](GuiOptions& o) { o.encoding = "cosine"; }) ==
        "peviz: --encoding: must be " + encoding_names() + ", got cosine\n");
  CHECK(refusal([](GuiOptions& o) { o.view = "nowhere"; }) ==
        "peviz: --view: must be one of " + page_names() + ", got nowhere\n");
  CHECK(refusal([](GuiOptions& o) { o.theme = "blue"; }) == "peviz: --theme: must be dark or light, got blue\n");
  CHECK(refusal([](GuiOptions& o) { o.size = "100x100"; }) ==  // below 320 x 240
        "peviz: --size: must be WxH with W in 320..16384 and H in 240..16384, got 100x100\n");
  CHECK(refusal([](GuiOptions& o) { o.size = "wide"; }) == "peviz: --size: must be WxH with W in 320..16384 and H in 240..16384, got wide\n");
  CHECK(refusal([](GuiOptions& o) { o.record = "colour"; }).rfind("peviz: --record: must be one of position, ", 0) == 0);
  CHECK(refusal([](GuiOptions& o) { o.save_figure = "nothing"; }).rfind("peviz: --save-figure: must be one of window, ", 0) == 0);
  CHECK(refusal([](GuiOptions& o) { o.monkey = 7; }) == "peviz: --monkey: needs --frames N (the length of the run)\n");
  CHECK(refusal([](GuiOptions& o) { o.preset = "no-such-model"; }).rfind("peviz: --preset: no usable preset named no-such-model (have: ", 0) == 0);
  CHECK(refusal([](GuiOptions& o) { o.lesson = "/no/such/lesson.json"; }) ==
        "peviz: --lesson: no lesson file or name /no/such/lesson.json\n");
  CHECK(refusal([](GuiOptions& o) { o.size = "320x240"; }) == "accepted");  // the smallest size accepted
  CHECK(refusal([](GuiOptions& o) { o.open = "/no/such/run.safetensors"; o.view = "lab"; }) ==
        "peviz: --open: /no/such/run.safetensors: no such file\n");
}

TEST_CASE("apply_gui_flags: --open FOLDER asks for File > Open's browser in that folder") {
  GuiOptions o;
  o.open = "/tmp";
  const Applied a = apply(o);
  REQUIRE(a.ok);
  CHECK(a.s.figure.open_dialog_requested);
  CHECK(a.s.figure.open_browser.start_folder == "/tmp");
  CHECK(a.s.recent_files.empty());
}

TEST_CASE("apply_gui_flags: --lesson starts at --lesson-step, --present and --train set their state") {
  GuiOptions o;
  o.lesson = "positional-encodings";
  o.lesson_step = 3;
  o.present = true;
  o.train = true;
  const Applied a = apply(o);
  REQUIRE(a.ok);
  CHECK(a.s.teach.lesson_active);
  CHECK(a.s.teach.step == 2);  // 1-based on the command line
  CHECK(a.s.params.encoding == Encoding::binary);  // what step 3 sets
  CHECK(a.s.teach.presenting);
  CHECK(a.s.pages.lab.train_requested);
}

TEST_CASE("apply_gui_flags: a --lesson-step past the lesson's last is refused, naming how many it has") {
  GuiOptions o;
  o.lesson = "positional-encodings";
  o.lesson_step = 99;
  const Applied a = apply(o);
  CHECK_FALSE(a.ok);
  CHECK_FALSE(a.s.teach.lesson_active);
}

TEST_CASE("--preset, --lesson and --present in the real window") {
  SECTION("present: full screen on the primary monitor, with a preset and a lesson step") {
    const std::string png = temp_path("present.png");
    const RunResult r = run_gui("--reset --frames 4 --size 1200x800 --present --preset mpt-7b "
                                "--lesson positional-encodings --lesson-step 12 --screenshot " + png);
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(png_width(png) == 1920);  // the Xvfb screen, not --size
    std::remove(png.c_str());
  }
  SECTION("an unknown preset is refused with the names there are") {
    const RunResult r = run_gui("--reset --frames 2 --preset no-such-model");
    CHECK(r.code == 2);
    CHECK(r.err.find("--preset: no usable preset named no-such-model") != std::string::npos);
    CHECK(r.err.find("mpt-7b") != std::string::npos);
  }
  SECTION("a broken lesson is refused with the step and key named") {
    const std::string path = temp_path("bad-lesson.json");
    std::ofstream(path) << R"({"title": "Bad", "steps": [{"title": "a", "text": "b", "state": {"page": "nowhere"}}]})";
    const RunResult r = run_gui("--reset --frames 2 --lesson " + path);
    CHECK(r.code == 2);
    CHECK(r.err.find("bad-lesson.json: step 1: state: page") != std::string::npos);
    std::remove(path.c_str());
  }
}
