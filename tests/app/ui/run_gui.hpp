// Test helper: runs the real peviz window under Xvfb (xvfb-run must exist: a missing one fails).
#pragma once
#include <string>

#include <catch2/catch.hpp>

#include "tests/cli/run_peviz.hpp"

// Runs `env <peviz> args` under xvfb-run on a 1920x1080x24 screen with a throw-away config
// folder. `env` is a prefix such as "PEVIZ_DATA_DIR=/tmp/x" (may be empty).
// The exit code is peviz's own, written to a file from inside xvfb-run: xvfb-run replaces it with 5
// when cleaning up its temporary folder fails, which happens now and then. xvfb-run -a can also
// lose the race for a display number to another Xvfb starting at the same moment (other test runs
// on a shared machine): that one failure is retried, nothing else. `args` must not contain '.
inline RunResult run_gui(const std::string& args, const std::string& env = "") {
  REQUIRE(std::system("command -v xvfb-run >/dev/null 2>&1") == 0);  // fail loudly, never skip
  const std::string stem = "/tmp/peviz-gui-test-" + std::to_string(::getpid());
  const std::string code_file = stem + ".code";
  RunResult r;
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::remove(code_file.c_str());
    r = run_shell("env XDG_CONFIG_HOME=" + stem + ".config " + env + " xvfb-run -a -s \"-screen 0 1920x1080x24\" " +
                  "sh -c '" + std::string(peviz::test::peviz_binary) + " " + args + "; echo $? >" + code_file + "'");
    if (r.err.find("Xvfb failed to start") == std::string::npos) break;
  }
  const std::string code = slurp(code_file);
  INFO("xvfb-run exit code " << r.code << ", stderr: " << r.err);
  REQUIRE_FALSE(code.empty());  // peviz ran
  r.code = std::stoi(code);
  std::remove(code_file.c_str());
  return r;
}

// A file name under /tmp unique to this test process.
inline std::string temp_path(const std::string& name) {
  return "/tmp/peviz-gui-test-" + std::to_string(::getpid()) + "-" + name;
}
