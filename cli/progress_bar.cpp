// Drawing the export progress bar with \r on stderr.
#include "cli/progress_bar.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

#include "core/encodings/params.hpp"

namespace peviz::cli {

ProgressBar::ProgressBar(bool quiet) : enabled_(!quiet && ::isatty(2)) {
  // PEVIZ_PROGRESS_DELAY (seconds) moves the one-second threshold: the tests draw the bar at once.
  if (const char* delay = std::getenv("PEVIZ_PROGRESS_DELAY")) delay_ = std::atof(delay);
}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fputs("\r\033[K", stderr);
}

void ProgressBar::update(const StreamProgress& p) {
  if (!enabled_ || p.rows_total == 0) return;
  const Clock::time_point now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < delay_ || (drawn_ && now - last_draw_ < std::chrono::milliseconds(100))) return;
  last_draw_ = now;
  drawn_ = true;
  const double done = double(p.rows_done) / double(p.rows_total);
  constexpr int kWidth = 30;
  const int filled = int(done * kWidth);
  const double rate = double(p.bytes_written) / elapsed;  // bytes per second
  const int left = done > 0 ? int(elapsed * (1.0 - done) / done + 0.5) : 0;
  std::fprintf(stderr, "\r\033[K%3d%% [%s%s] %s  %s/s  %d:%02d left", int(done * 100),
               std::string(std::size_t(filled), '#').c_str(), std::string(std::size_t(kWidth - filled), '-').c_str(),
               human_bytes(double(p.bytes_written)).c_str(), human_bytes(rate).c_str(), left / 60, left % 60);
  std::fflush(stderr);
}

}  // namespace peviz::cli
