// Lesson tours: JSON files of steps (title, text, partial window state) in assets/lessons/ or the
// user's $XDG_CONFIG_HOME/peviz/lessons/, checked against their schema, and stepping through them.
//
//   {"title": "...", "steps": [{"title": "...", "text": "...", "demo": "word-order" (optional),
//                               "learned_table": "assets/lab/....safetensors" (optional: its "wpe" tensor),
//                               "state": {"page": "basics", "params": {"d_model": 64}}}, ...]}
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/app_state.hpp"

namespace peviz::app {

// Checks and converts a lesson document. `source` (the file name) starts every message. Throws
// ParamError("lesson", "<source>: step 3: state: d_model: must be ...") naming the step (1-based) and key:
// "title" a non-empty string, "steps" a non-empty array of objects with string "title" and "text", an
// object "state" that apply_state_json accepts on a scratch AppState, "demo" (if present) a known demo, and
// "learned_table" (if present) a data file that exists.
Lesson parse_lesson(const nlohmann::json& j, const std::string& source);

// Reads, parses and checks a lesson file. Throws ParamError("lesson", ...) naming the file.
Lesson load_lesson_file(const std::filesystem::path& path);

// The user's lesson folder (next to the session file): "lessons/". Empty without HOME/XDG_CONFIG_HOME.
std::filesystem::path user_lessons_dir();

// Shipped lessons (assets/lessons/*.json, sorted) then the user's.
std::vector<std::string> list_lesson_files();

// An existing file path as given, else "<name>" or "<name>.json" in the lesson folders; empty when none.
std::filesystem::path resolve_lesson(const std::string& path_or_name);

// Starts the tour at `step` (0-based; outside the lesson's steps: ParamError("lesson-step", "step 99: lesson
// '<title>' has 9 steps (1 to 9)"), nothing changed): remembers the current state (without theme, zoom and layout) as
// the starting point every step applies on top of, then goes to the step.
void start_lesson(AppState& s, Lesson lesson, int step = 0);
// Goes to step k (clamped to the lesson): the starting state, then the step's state, the page it names.
void go_to_step(AppState& s, int k);
void stop_lesson(AppState& s);

// "Title  ·  step 3 / 14": the line above a step's text (0-based step in, 1-based out).
std::string lesson_step_line(const Lesson& lesson, int step);

}  // namespace peviz::app
