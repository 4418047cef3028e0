// Placeholder window loop; replaced by the live visualiser.
#include "app/gui_main.hpp"

#include <cstdio>

namespace peviz::app {

void add_gui_flags(CLI::App& app, GuiOptions& o) {
  app.add_option("--frames", o.frames, "Run this many frames, then exit (0 = until closed)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--report", o.report, "Print frame-time median and p95 at exit");
  app.add_option("--screenshot", o.screenshot, "Save a PNG of the last frame to this path");
  app.add_flag("--reset", o.reset, "Start with default settings, ignoring the saved session");
}

int run_gui(const GuiOptions&) {
  std::fprintf(stderr, "peviz: the GUI is not built yet; try `peviz export --help`\n");
  return 1;
}

}  // namespace peviz::app
