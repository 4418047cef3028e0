// Tests for app/gui_main's flags: out-of-range initial parameters are refused before any window opens.
#include <catch2/catch.hpp>

#include "tests/cli/run_peviz.hpp"

TEST_CASE("initial parameters outside the window's ranges exit 2 with the flag named, without a display") {
  for (const char* args : {"--d-model 0", "--d-model 5000", "--seq-len 9000", "--base 1", "--size 10x10",
                           "--encoding rope", "--theme pink"}) {
    INFO(args);
    const RunResult r = run_shell(std::string("env -u DISPLAY ") + peviz::test::peviz_binary + " --frames 1 " + args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("peviz: --", 0) == 0);
    CHECK(r.err.find("GLFW") == std::string::npos);  // refused before any window code ran
  }
}
