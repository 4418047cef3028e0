// Entry point of the interactive window, called by main() when no subcommand is given.
#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace peviz::app {

struct GuiOptions {
  int frames = 0;              // --frames N: run N frames then exit (0 = until closed)
  bool report = false;         // --report: print frame-time statistics at exit
  std::string screenshot;      // --screenshot PATH: save a PNG of the last frame
  bool reset = false;          // --reset: ignore the saved session
};

void add_gui_flags(CLI::App& app, GuiOptions& o);
int run_gui(const GuiOptions& o);  // returns the process exit code

}  // namespace peviz::app
