// Test helper: runs the real peviz window under Xvfb (xvfb-run must exist: a missing one fails).
#pragma once
#include <string>

#include <catch2/catch.hpp>

#include "tests/cli/run_peviz.hpp"

// Runs `env PEVIZ_BINARY args` under xvfb-run on a 1920x1080x24 screen with a throw-away config
// folder. `env` is a prefix such as "PEVIZ_DATA_DIR=/tmp/x" (may be empty).
// xvfb-run -a can lose the race for a display number to another Xvfb starting at the same moment
// (other test runs on a shared machine): that one failure is retried, nothing else.
inline RunResult run_gui(const std::string& args, const std::string& env = "") {
  REQUIRE(std::system("command -v xvfb-run >/dev/null 2>&1") == 0);  // fail loudly, never skip
  const std::string config = "/tmp/peviz-gui-test-config-" + std::to_string(::getpid());
  RunResult r;
  for (int attempt = 0; attempt < 3; ++attempt) {
    r = run_shell("env XDG_CONFIG_HOME=" + config + " " + env + " xvfb-run -a -s \"-screen 0 1920x1080x24\" " +
                  std::string(PEVIZ_BINARY) + " " + args);
    if (r.err.find("Xvfb failed to start") == std::string::npos) break;
  }
  return r;
}

// A file name under /tmp unique to this test process.
inline std::string temp_path(const std::string& name) {
  return "/tmp/peviz-gui-test-" + std::to_string(::getpid()) + "-" + name;
}
