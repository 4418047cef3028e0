// Tests for cli/progress_bar: its text for known progress with a pseudo-terminal as stderr (percent, bar, bytes,
// time left, the line cleared at the end), nothing when quiet or before anything is known; and the real binary
// drawing it on a terminal only.
#include "cli/progress_bar.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fcntl.h>
#include <pty.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "core/encodings/params.hpp"
#include "run_peviz.hpp"

using namespace peviz;
using namespace peviz::cli;

namespace {

// While alive, stderr (fd 2) is the slave side of a fresh pseudo-terminal; text() reads what reached it.
class StderrOnTerminal {
 public:
  StderrOnTerminal() {
    REQUIRE(::openpty(&master_, &slave_, nullptr, nullptr, nullptr) == 0);
    std::fflush(stderr);
    saved_ = ::dup(2);
    ::dup2(slave_, 2);
    ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
  }
  ~StderrOnTerminal() {
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    ::close(slave_);
    ::close(master_);
  }
  StderrOnTerminal(const StderrOnTerminal&) = delete;
  StderrOnTerminal& operator=(const StderrOnTerminal&) = delete;

  std::string text() {
    std::fflush(stderr);
    std::string out;
    char buf[512];
    for (ssize_t n; (n = ::read(master_, buf, sizeof buf)) > 0;) out.append(buf, std::size_t(n));
    return out;
  }

 private:
  int master_ = -1, slave_ = -1, saved_ = -1;
};

}  // namespace

TEST_CASE("the bar on a terminal: percent, a 30-cell bar, bytes written and rate; cleared when it ends") {
  ::setenv("PEVIZ_PROGRESS_DELAY", "0", 1);
  StderrOnTerminal term;
  {
    ProgressBar bar(false);
    bar.update({.rows_done = 1, .rows_total = 4, .bytes_written = 3 << 20});
    const std::string drawn = term.text();
    // 25 %: int(0.25 * 30) = 7 cells filled of 30.
    CHECK(drawn.rfind("\r\033[K 25% [" + std::string(7, '#') + std::string(23, '-') + "] " + human_bytes(3 << 20) + "  ", 0) == 0);
    CHECK(drawn.find("/s  0:00 left") != std::string::npos);  // microseconds in: no time left to speak of
    bar.update({.rows_done = 2, .rows_total = 4, .bytes_written = 6 << 20});
    CHECK(term.text().empty());  // at most ten redraws a second
  }
  CHECK(term.text() == "\r\033[K");  // the destructor clears the line
  ::unsetenv("PEVIZ_PROGRESS_DELAY");
}

TEST_CASE("the bar draws nothing when quiet, before the delay, or with no rows to count") {
  StderrOnTerminal term;
  ::setenv("PEVIZ_PROGRESS_DELAY", "0", 1);
  {
    ProgressBar quiet(true);
    quiet.update({.rows_done = 1, .rows_total = 2, .bytes_written = 10});
    ProgressBar empty(false);
    empty.update({.rows_done = 0, .rows_total = 0, .bytes_written = 0});
  }
  ::setenv("PEVIZ_PROGRESS_DELAY", "3600", 1);
  {
    ProgressBar early(false);
    early.update({.rows_done = 1, .rows_total = 2, .bytes_written = 10});
  }
  ::unsetenv("PEVIZ_PROGRESS_DELAY");
  CHECK(term.text().empty());
}

TEST_CASE("the progress bar is drawn on a terminal only, and --quiet turns it off") {
  // `script` gives the export a terminal; PEVIZ_PROGRESS_DELAY=0 draws from the first block on instead
  // of after a second, so a small export shows the bar.
  const std::string args = "PEVIZ_PROGRESS_DELAY=0 " + std::string(peviz::test::peviz_binary) +
                           " export similarity --seq-len 2048 --format csv --out /dev/null";
  RunResult r = run_shell(args);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  r = run_shell("script -qec '" + args + "' /dev/null");
  CHECK(r.code == 0);
  CHECK(r.out.find("% [") != std::string::npos);
  CHECK(r.out.find("/s ") != std::string::npos);
  CHECK(r.out.find(" left") != std::string::npos);
  r = run_shell("script -qec '" + args + " --quiet' /dev/null");
  CHECK(r.code == 0);
  CHECK(r.out.find("% [") == std::string::npos);
}
