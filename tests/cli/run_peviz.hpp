// Test helper: runs the real peviz binary with arguments and captures exit code, stdout and stderr.
#pragma once
#include <cstdlib>
#include <fcntl.h>
#include <spawn.h>
#include <vector>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include "tests/build_paths.hpp"

struct RunResult {
  int code = -1;
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  std::ostringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

// Runs a shell command line (no redirections of its own) and captures its exit code and output.
inline RunResult run_shell(const std::string& command) {
  static int counter = 0;
  const std::string stem = "/tmp/peviz-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  const std::string cmd = command + " >" + stem + ".out 2>" + stem + ".err </dev/null";
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(stem + ".out");
  r.err = slurp(stem + ".err");
  std::remove((stem + ".out").c_str());
  std::remove((stem + ".err").c_str());
  return r;
}

// `args` is passed through the shell as written (tests quote what needs quoting).
inline RunResult run_peviz(const std::string& args) { return run_shell(std::string(peviz::test::peviz_binary) + " " + args); }

// A CSV's rows: its text after the header line of column names that every peviz CSV starts with.
inline std::string csv_body(const std::string& csv) {
  const std::size_t eol = csv.find('\n');
  return eol == std::string::npos ? std::string() : csv.substr(eol + 1);
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// Runs peviz in the background with stderr to `err`; returns its pid.
inline pid_t spawn_peviz(const std::vector<std::string>& args, const std::string& err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> argv{const_cast<char*>(peviz::test::peviz_binary)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, peviz::test::peviz_binary, &actions, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// A refused command: exit 2, nothing on stdout, exactly `line` on stderr.
inline void check_refused(const std::string& args, const std::string& line) {
  INFO("peviz " << args);
  const RunResult r = run_peviz(args);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == line + "\n");
}
