// Entry point of the interactive window, called by main() when no subcommand is given.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace peviz::app {

struct GuiOptions {
  int frames = 0;              // --frames N: run N frames then exit (0 = until closed)
  bool report = false;         // --report: scripted sweep of d_model/base/L, frame-time statistics at exit
  std::string screenshot;      // --screenshot PATH: save a PNG of the last frame
  std::string regions;         // --regions PATH: JSON with the screen rectangles of the key parts
  bool hide_pointer = false;   // --hide-pointer: ignore the pointer (screenshots without hover read-outs)
  bool reset = false;          // --reset: ignore the saved session
  std::string size;            // --size WxH: window size in screen units (default: session or 1600x900)
  // Initial parameters (override the session; 0 / empty = keep).
  std::string encoding;        // --encoding NAME
  int d_model = 0;             // --d-model N
  int seq_len = 0;             // --seq-len N
  double base = 0.0;           // --base B
  std::string theme;           // --theme dark|light
  std::string view;  // --view: initial page
  std::string open;  // --open: a figure PNG, or a .npy / .safetensors learned table
  std::string figure_dir;   // --figure-dir: where F12 saves
  std::string save_figure;  // --save-figure VIEW: save a figure after the last frame
  std::string preset;          // --preset NAME: apply a preset (name or file stem) after the session
  std::string lesson;          // --lesson PATH|NAME: start a lesson tour
  int lesson_step = 1;         // --lesson-step K: start it at step K (1-based)
  bool present = false;        // --present: start in presentation mode
  bool train = false;          // --train: press the Lab page's Train at start
  std::string record;          // --record PARAM: start View > Record animation (GIF, the dialog's defaults)
  std::optional<std::uint64_t> monkey;  // --monkey SEED: random input every frame, state checked (with --frames)
};

void add_gui_flags(CLI::App& app, GuiOptions& o);
int run_gui(const GuiOptions& o);  // returns the process exit code

}  // namespace peviz::app
