// State of the teaching features: presets, the lesson tour, presentation mode and the word-order demo.
// Plain data inside AppState; no ImGui, no GL.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/matrix.hpp"

namespace peviz::app {

// One preset file (assets/presets/*.json or the user's folder). A file that failed to load keeps its
// path and the reason in `error` and is shown disabled.
struct PresetEntry {
  std::string name;         // "name" key, or the file stem when the file is broken
  std::string description;  // one sentence
  std::string path;
  bool user = false;        // from $XDG_CONFIG_HOME/peviz/presets/
  nlohmann::json state;     // partial state JSON (state_json.hpp)
  std::string error;        // empty when usable
};

struct LessonStep {
  std::string title;
  std::string text;         // 2-5 sentences
  std::string demo;         // optional panel drawn beside the text: "" or "word-order"
  std::string learned_table;  // optional: a data file (assets/...) whose "wpe" tensor the step loads as the table
  bool controls = false;    // optional: the text asks to move a page's own control, so presenting shows them
  std::vector<std::string> show;  // optional: the page's parts presenting shows (PageModel::parts); empty = all
  nlohmann::json state;     // partial state JSON applied on top of the lesson's starting state
};

struct Lesson {
  std::string title;
  std::string path;
  std::vector<LessonStep> steps;
};

// The word-order demo: two orders of the same tokens, their token vectors, position vectors and sums.
struct WordOrderDemo {
  std::vector<std::string> words_a, words_b;  // "the cat chased the mouse", "the mouse chased the cat"
  Matrix tokens_a, tokens_b;                  // n x d token embeddings in sentence order
  Matrix positions;                           // n x d sinusoidal position vectors (same for both)
  Matrix sums_a, sums_b;                      // tokens + positions
};

struct TeachState {
  // Presets
  std::vector<PresetEntry> presets;
  bool presets_listed = false;    // false: the next menu opening re-reads the folders
  std::string save_name;          // "Save current as preset..." text field

  // Lesson tour
  bool lesson_active = false;
  Lesson lesson;
  int step = 0;                          // 0-based
  nlohmann::json lesson_start;           // state when the lesson started; each step applies on top of it
  std::vector<std::string> lesson_files;  // shipped and user lessons, for the menu
  bool lessons_listed = false;
  std::string lesson_error;              // last refusal (shown in the menu and status line)
  WordOrderDemo word_order;              // filled when a step asks for it

  // Presentation mode: the window reacts (full screen) in gui_main.cpp.
  bool presenting = false;
  bool present_controls = false;         // presenting: the page's own controls shown too (the strip's toggle)
  std::vector<std::string> present_parts;  // presenting a lesson: the step's "show" list (empty = the whole page)
  int saved_theme = 0;                   // the user's theme and zoom, restored on leave
  float saved_zoom = 1.0f;

  // One line appended to the status line (preset applied, file refused, ...).
  std::string notice;
  bool notice_is_error = false;
};

}  // namespace peviz::app
