// Tests for app/gui_main's flags: out-of-range initial parameters are refused before any window opens.
#include <catch2/catch.hpp>

#include "tests/cli/run_peviz.hpp"

#include "core/base/limits.hpp"

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

TEST_CASE("a window flag's bad number gets the words every command uses, from the limits table") {
  using namespace peviz;
  const auto refusal = [](const std::string& args) {
    return run_shell(std::string("env -u DISPLAY ") + peviz::test::peviz_binary + " --frames 1 " + args).err;
  };
  CHECK(refusal("--d-model 0") == "peviz: --d-model: must be an integer in " + window_range_text(limits::d_model) +
                                      ", got 0\n");
  CHECK(refusal("--seq-len 9000") == "peviz: --seq-len: must be an integer in " + window_range_text(limits::seq_len) +
                                         ", got 9000\n");
  CHECK(refusal("--base nan") == "peviz: --base: must be a finite number in " + window_range_text(limits::base) +
                                     ", got nan\n");
  CHECK(refusal("--base 1") == "peviz: --base: must be a finite number in " + window_range_text(limits::base) +
                                   ", got 1\n");
  // export says the same of the same number, over its own (wider) range
  CHECK(run_peviz("export encoding --format npy --out /tmp/peviz-refused.npy --d-model 0").err ==
        "peviz: --d-model: must be an integer in " + range_text(limits::d_model) + ", got 0\n");
}
