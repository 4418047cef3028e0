// peviz --frames N --monkey SEED: random input over every page under Xvfb, state checked every frame.
#include <filesystem>
#include <regex>

#include <catch2/catch.hpp>

#include "tests/app/ui/run_gui.hpp"

namespace fs = std::filesystem;

TEST_CASE("--monkey without --frames exits 2 before any window opens") {
  const RunResult r = run_shell(std::string("env -u DISPLAY ") + PEVIZ_BINARY + " --monkey 1");
  CHECK(r.code == 2);
  CHECK(r.err == "peviz: --monkey: needs --frames N (the length of the run)\n");
}

TEST_CASE("monkey runs: several seeds pass, one summary line, memory flat, nothing left behind") {
  const std::string tmp = temp_path("monkey-tmp");
  const std::string config = "/tmp/peviz-gui-test-" + std::to_string(::getpid()) + ".config";  // run_gui's
  for (const char* seed : {"1", "2", "3"}) {
    INFO("seed " << seed);
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    const RunResult r = run_gui(std::string("--frames 600 --monkey ") + seed + " --reset --size 1280x720", "TMPDIR=" + tmp);
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    std::smatch m;
    REQUIRE(std::regex_match(r.out, m, std::regex("monkey: (\\d+) events, (\\d+) pages, rss (\\d+) -> (\\d+) MiB\n")));
    CHECK(std::stol(m[1]) > 400);  // about one event a frame: moves, presses, releases, keys, characters
    CHECK(std::stoi(m[2]) >= 3);   // the page tabs are hit within 600 frames
    CHECK(std::stoi(m[4]) <= std::stoi(m[3]) + 20);
    CHECK(fs::is_empty(tmp));  // the sandbox (figures, exports, saved presets) is gone
    CHECK_FALSE(fs::exists(config + "/peviz/session.json"));  // a scripted run never saves the session
    CHECK_FALSE(fs::exists(config + "/peviz/presets"));       // presets saved from the menu went to the sandbox
  }
  fs::remove_all(tmp);
}
