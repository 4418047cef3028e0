// Tests for cli/run_guarded: each exception a command throws becomes its documented exit code and one stderr line.
#include <csignal>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "cli/commands.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "tests/stderr_capture.hpp"

using namespace peviz;
using namespace peviz::cli;

namespace {

struct Guarded {
  int code;
  std::string err;
};

// run_guarded(fn): the exit code and what it printed on stderr.
Guarded guarded(const std::function<void()>& fn) {
  int code = -1;
  const std::string err = stderr_of([&] { code = run_guarded(fn); });
  return {code, err};
}

}  // namespace

TEST_CASE("run_guarded: success is 0; usage and failure exits are 2 and 1 with nothing more printed") {
  bool ran = false;
  const Guarded ok = guarded([&] { ran = true; });
  CHECK(ran);
  CHECK(ok.code == 0);
  CHECK(ok.err.empty());
  const Guarded usage = guarded([] { throw UsageExit{}; });
  CHECK(usage.code == 2);
  CHECK(usage.err.empty());  // the command has printed its own message
  const Guarded failure = guarded([] { throw FailureExit{}; });
  CHECK(failure.code == 1);
  CHECK(failure.err.empty());
}

TEST_CASE("run_guarded: a refused parameter is exit 2 and one line naming the flag") {
  const Guarded g = guarded([] { throw ParamError("d-model", "must be an integer in [1, 16384], got 0"); });
  CHECK(g.code == 2);
  CHECK(g.err == "peviz: --d-model: must be an integer in [1, 16384], got 0\n");
}

TEST_CASE("run_guarded: Ctrl+C and SIGTERM exit 128 + the signal and say no file was written") {
  const Guarded sigint = guarded([] { throw Interrupted(SIGINT); });
  CHECK(sigint.code == 128 + SIGINT);
  CHECK(sigint.err == "peviz: interrupted by SIGINT; no output file was written\n");
  const Guarded sigterm = guarded([] { throw Interrupted(SIGTERM); });
  CHECK(sigterm.code == 128 + SIGTERM);
  CHECK(sigterm.err == "peviz: interrupted by SIGTERM; no output file was written\n");
}

TEST_CASE("run_guarded: out of memory is a usage error with a hint; any other exception exits 1 with its text") {
  const Guarded oom = guarded([] { throw std::bad_alloc(); });
  CHECK(oom.code == 2);
  CHECK(oom.err == "peviz: out of memory; try a smaller --seq-len or --d-model\n");
  const Guarded other = guarded([] { throw std::runtime_error("cannot write /x: disk full"); });
  CHECK(other.code == 1);
  CHECK(other.err == "peviz: cannot write /x: disk full\n");
}
