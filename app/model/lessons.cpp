// Lesson files: schema check (every step's state dry-run through apply_state_json) and the tour's steps.
#include "app/model/lessons.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <system_error>

#include "app/model/app_update.hpp"
#include "app/model/data_files.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presets.hpp"
#include "app/model/session.hpp"
#include "app/model/state_json.hpp"
#include "app/model/word_order_demo.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void refuse(const std::string& source, const std::string& what) {
  throw ParamError("lesson", source + ": " + what);
}

std::string string_key(const json& o, const char* key, const std::string& source, const std::string& where,
                       bool required, bool non_empty) {
  if (!o.contains(key)) {
    if (required) refuse(source, where + "missing \"" + key + "\"");
    return {};
  }
  if (!o.at(key).is_string()) refuse(source, where + "\"" + key + "\" must be a string, got " + o.at(key).dump());
  std::string v = o.at(key).get<std::string>();
  if (non_empty && v.empty()) refuse(source, where + "\"" + key + "\" must not be empty");
  return v;
}

// A step's "show": names of the parts of the page the step shows (PageModel::parts), at least one.
std::vector<std::string> show_list(const json& st, Page page, const std::string& source, const std::string& where) {
  if (!st.contains("show")) return {};
  const json& show = st.at("show");
  std::string known;
  for (const char* part : page_model(page).parts) known += (known.empty() ? "" : ", ") + std::string(part);
  if (!known.empty() && uses_sidebar_encoding(page)) known += std::string(", ") + kStripPart;
  if (known.empty()) refuse(source, where + "\"show\": page " + page_name(page) + " has no parts to pick from");
  if (!show.is_array() || show.empty())
    refuse(source, where + "\"show\" must be a non-empty array of the page's parts (" + known + "), got " + show.dump());
  std::vector<std::string> parts;
  for (const json& part : show) {
    if (!part.is_string() || !is_page_part(page, part.get<std::string>()))
      refuse(source, where + "\"show\": " + part.dump() + " is not a part of page " + page_name(page) + " (" + known + ")");
    parts.push_back(part.get<std::string>());
  }
  return parts;
}

}  // namespace

Lesson parse_lesson(const json& j, const std::string& source) {
  if (!j.is_object()) refuse(source, "must be a JSON object with \"title\" and \"steps\"");
  Lesson lesson;
  lesson.title = string_key(j, "title", source, "", true, true);
  if (!j.contains("steps") || !j.at("steps").is_array()) refuse(source, "\"steps\" must be an array of steps");
  if (j.at("steps").empty()) refuse(source, "\"steps\" is empty: a lesson needs at least one step");
  auto scratch = std::make_unique<AppState>();
  const json& steps = j.at("steps");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string where = "step " + std::to_string(i + 1) + ": ";
    const json& st = steps[i];
    if (!st.is_object()) refuse(source, where + "must be an object with \"title\", \"text\" and \"state\"");
    LessonStep step;
    step.title = string_key(st, "title", source, where, true, true);
    step.text = string_key(st, "text", source, where, true, true);
    step.demo = string_key(st, "demo", source, where, false, false);
    if (!step.demo.empty() && step.demo != "word-order")
      refuse(source, where + "\"demo\" must be \"word-order\", got \"" + step.demo + "\"");
    step.learned_table = string_key(st, "learned_table", source, where, false, false);
    if (!step.learned_table.empty() && !fs::exists(find_data_file(step.learned_table)))
      refuse(source, where + "\"learned_table\": " + describe_search(step.learned_table));
    if (st.contains("controls") && !st.at("controls").is_boolean())
      refuse(source, where + "\"controls\" must be true or false, got " + st.at("controls").dump());
    step.controls = st.value("controls", false);
    if (!st.contains("state") || !st.at("state").is_object()) refuse(source, where + "\"state\" must be a JSON object");
    try {
      apply_state_json(st.at("state"), *scratch);
    } catch (const ParamError& e) {
      refuse(source, where + "state: " + e.what());
    }
    step.state = st.at("state");
    step.show = show_list(st, scratch->pages.page, source, where);
    lesson.steps.push_back(std::move(step));
  }
  return lesson;
}

Lesson load_lesson_file(const fs::path& path) {
  const std::string source = path.filename().string();
  std::ifstream in(path);
  if (!in) refuse(path.string(), "cannot be read");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    refuse(source, std::string("is not valid JSON (") + e.what() + ")");
  }
  Lesson lesson = parse_lesson(j, source);
  lesson.path = path.string();
  return lesson;
}

fs::path user_lessons_dir() {
  const fs::path session = session_path();
  return session.empty() ? fs::path() : session.parent_path() / "lessons";
}

std::vector<std::string> list_lesson_files() {
  std::vector<std::string> out;
  for (const fs::path& dir : {find_data_dir("assets/lessons"), user_lessons_dir()})
    for (const fs::path& file : json_files_in(dir)) out.push_back(file.string());
  return out;
}

fs::path resolve_lesson(const std::string& path_or_name) {
  std::error_code ec;
  if (fs::is_regular_file(path_or_name, ec)) return path_or_name;
  for (const fs::path& dir : {find_data_dir("assets/lessons"), user_lessons_dir()}) {
    if (dir.empty()) continue;
    for (const std::string& name : {path_or_name, path_or_name + ".json"})
      if (fs::is_regular_file(dir / name, ec)) return dir / name;
  }
  return {};
}

void start_lesson(AppState& s, Lesson lesson, int step) {
  const int steps = int(lesson.steps.size());
  if (step < 0 || step >= steps)
    throw ParamError("lesson-step", "step " + std::to_string(step + 1) + ": lesson '" + lesson.title + "' has " +
                                        std::to_string(steps) + " steps (1 to " + std::to_string(steps) + ")");
  TeachState& t = s.teach;
  if (!t.lesson_active) t.lesson_start = preset_state_of(s);
  t.lesson = std::move(lesson);
  t.lesson_active = true;
  t.lesson_error.clear();
  go_to_step(s, step);
}

void go_to_step(AppState& s, int k) {
  TeachState& t = s.teach;
  if (!t.lesson_active || t.lesson.steps.empty()) return;
  t.step = std::clamp(k, 0, int(t.lesson.steps.size()) - 1);
  const LessonStep& step = t.lesson.steps[std::size_t(t.step)];
  t.present_controls = step.controls;
  t.present_parts = step.show;
  try {
    apply_state_json(t.lesson_start, s);
    apply_state_json(step.state, s);
    if (!step.learned_table.empty()) load_learned_table(s, find_data_file(step.learned_table).string(), "wpe");
    t.notice = "Lesson step " + std::to_string(t.step + 1) + " / " + std::to_string(t.lesson.steps.size()) + ": " +
               step.title;
    t.notice_is_error = false;
  } catch (const ParamError& e) {
    t.notice = "Lesson step not applied: " + std::string(e.what());
    t.notice_is_error = true;
  }
  if (step.demo == "word-order" && t.word_order.words_a.empty()) t.word_order = make_word_order_demo();
}

void stop_lesson(AppState& s) {
  s.teach.lesson_active = false;
  s.teach.notice = "Lesson ended";
  s.teach.notice_is_error = false;
}

std::string lesson_step_line(const Lesson& lesson, int step) {
  return lesson.title + "  ·  step " + std::to_string(step + 1) + " / " + std::to_string(lesson.steps.size());
}

}  // namespace peviz::app
