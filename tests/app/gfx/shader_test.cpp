// Tests for app/gfx/shader through the real window: a missing or broken shader names the file,
// prints the compile log and exits non-zero (never a black window).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "tests/app/ui/run_gui.hpp"

namespace fs = std::filesystem;

static fs::path data_dir_with(const char* name, bool break_fragment, bool with_fonts = true) {
  const fs::path dir = fs::temp_directory_path() / (std::string("peviz-shader-test-") + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "shaders");
  fs::copy(fs::path(peviz::test::source_dir) / "assets", dir / "assets", fs::copy_options::recursive);
  if (!with_fonts) fs::remove_all(dir / "assets/fonts");
  fs::copy_file(fs::path(peviz::test::source_dir) / "shaders/heatmap.vert.glsl", dir / "shaders/heatmap.vert.glsl");
  if (!with_fonts) fs::copy_file(fs::path(peviz::test::source_dir) / "shaders/heatmap.frag.glsl", dir / "shaders/heatmap.frag.glsl");
  if (break_fragment)
    std::ofstream(dir / "shaders/heatmap.frag.glsl") << "#version 330 core\nout vec4 c;\nvoid main() { c = undefined_thing; }\n";
  return dir;
}

TEST_CASE("a shader that fails to compile: file name, compile log, exit code 1") {
  const fs::path dir = data_dir_with("broken", true);
  const RunResult r = run_gui("--frames 2 --reset", "PEVIZ_DATA_DIR=" + dir.string());
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("heatmap.frag.glsl") != std::string::npos);
  CHECK(r.err.find("failed to compile") != std::string::npos);
  CHECK(r.err.find("undefined_thing") != std::string::npos);  // the driver's log
  fs::remove_all(dir);
}

TEST_CASE("a missing shader file: its name and the folders searched, exit code 1") {
  const fs::path dir = data_dir_with("missing", false);
  const RunResult r = run_gui("--frames 2 --reset", "PEVIZ_DATA_DIR=" + dir.string());
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("shaders/heatmap.frag.glsl") != std::string::npos);
  CHECK(r.err.find(dir.string()) != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a missing font: one line naming it, exit code 1, in the window and in render") {
  const fs::path dir = data_dir_with("nofont", false, false);
  RunResult r = run_gui("--frames 2 --reset", "PEVIZ_DATA_DIR=" + dir.string());
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("font missing: assets/fonts/DejaVuSans.ttf") != std::string::npos);
  r = run_gui("render --view waves --out " + (dir / "x.png").string(), "PEVIZ_DATA_DIR=" + dir.string());
  CHECK(r.code == 1);
  CHECK(r.err.find("font missing") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "x.png"));
  fs::remove_all(dir);
}
