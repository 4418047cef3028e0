// The progress bar of a long export: percent, bytes, rate and time left on stderr, only on a terminal.
#pragma once
#include <chrono>

#include "core/io/array_stream.hpp"

namespace peviz::cli {

// Draws nothing unless stderr is a terminal, `quiet` is off and the export has run for a second
// (PEVIZ_PROGRESS_DELAY=<seconds> changes that, for tests);
// then redraws at most ten times a second. The destructor clears the bar, so an error message or the
// shell prompt starts on a clean line.
class ProgressBar {
 public:
  explicit ProgressBar(bool quiet);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  void update(const StreamProgress& p);

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool drawn_ = false;
  double delay_ = 1.0;  // seconds before the first draw
  Clock::time_point start_ = Clock::now(), last_draw_{};
};

}  // namespace peviz::cli
