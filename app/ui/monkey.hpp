// `peviz --frames N --monkey SEED`: seeded random input through ImGui's IO over every page, with the
// state checked after every frame (state_check) and the process's memory compared at both ends.
//
// Use in the frame loop:
//   start_monkey(m, seed, frames, s)   once, after the flags are applied (makes a sandbox)
//   check_monkey_state(s, frame)       after the update step: the state the views draw from must pass
//                                      state_check (the previous frame's input, settled by the update)
//   feed_monkey_input(m, s, frame)     after ImGui_ImplGlfw_NewFrame, before ImGui::NewFrame: overrides
//                                      the real mouse, keys and text for this frame
//   after_monkey_draw(m, s, frame)     after the UI is drawn, before figures are saved: keeps writes in
//                                      the sandbox, ignores quit, notes the page and the memory
//   finish_monkey(m)                   prints the summary line (a run that passed)
//   remove_monkey_sandbox(m)           always, at the end
// The same seed gives the same input sequence (std::mt19937_64); what it hits depends on the layout of
// the previous frame (ImGui's window rectangles), so it also follows the window's size.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <string>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app/model/app_state.hpp"

namespace peviz::app {

// One frame of input: where the mouse is, what is held, the wheel, and the text typed.
struct MonkeyInput {
  ImVec2 mouse{-1.0f, -1.0f};  // screen position; x < 0 = stay where it was
  std::array<bool, 3> buttons{};  // left, right, middle held
  float wheel = 0.0f, wheel_h = 0.0f;
  int key = -1;                 // key held this frame, as io.KeysDown[] indexes it (-1 = none)
  bool ctrl = false, shift = false;
  std::string text;             // characters typed this frame
};

struct Monkey {
  std::mt19937_64 rng;
  int frames = 0;               // length of the run (--frames)
  std::deque<MonkeyInput> plan; // the gesture in progress, one entry per frame
  MonkeyInput last;             // what was held last frame (to count presses and releases)
  ImVec2 mouse{0.0f, 0.0f};
  long long events = 0;         // mouse moves, presses, releases, wheel turns, key presses, characters
  std::array<bool, kPageCount> visited{};
  std::string sandbox;          // temp folder: figures, exports and the config folder (presets) go here
  nlohmann::json start_state;   // restored before the memory is measured at the end
  FigureSettings start_figure;  // likewise (not part of the state JSON); also after the start tour's figures
  double rss_start_mib = 0.0, rss_end_mib = 0.0;
};

// Makes the sandbox (figure folder, $XDG_CONFIG_HOME for presets and sessions) and seeds the input.
// Returns false (message printed) when no temp folder can be made.
bool start_monkey(Monkey& m, std::uint64_t seed, int frames, AppState& s);
void feed_monkey_input(Monkey& m, AppState& s, int frame);
void after_monkey_draw(Monkey& m, AppState& s, int frame);
// "" or "frame <k>, page <name>: <what>" for the first failed check (state_check) of the state.
std::string check_monkey_state(const AppState& s, int frame);
// Prints `monkey: <events> events, <pages> pages, rss <start> -> <end> MiB`. Pages: those the random
// input reached (the tours at both ends do not count).
void finish_monkey(Monkey& m);
void remove_monkey_sandbox(Monkey& m);

// Resident set size of this process in MiB (/proc/self/statm), after handing the allocator's free memory
// back to the system (glibc malloc_trim), so that what remains is memory in use.
double resident_mib();

}  // namespace peviz::app
