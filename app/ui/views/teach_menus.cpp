// Menus of the teaching features: Presets (apply, save current), Lesson (start, step, stop), View
// (presentation mode). Broken preset and lesson files are listed disabled with their reason.
#include <filesystem>
#include <string>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/gfx/platform.hpp"
#include "app/model/lessons.hpp"
#include "app/model/presentation.hpp"
#include "app/model/presets.hpp"
#include "app/ui/views/teach_views.hpp"
#include "app/ui/views/views.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

namespace {

void tooltip(const std::string& text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) || text.empty()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void preset_items(AppState& s, bool user) {
  TeachState& t = s.teach;
  for (const PresetEntry& p : t.presets) {
    if (p.user != user) continue;
    if (!p.error.empty()) {
      ImGui::MenuItem((p.name + " (cannot be used)").c_str(), nullptr, false, false);
      tooltip(p.error);
      continue;
    }
    if (ImGui::MenuItem(p.name.c_str())) apply_preset(p, s);
    tooltip(p.description);
  }
}

void save_preset_item(AppState& s) {
  TeachState& t = s.teach;
  if (!ImGui::BeginMenu("Save current as preset…")) return;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  const bool entered = ImGui::InputTextWithHint("##preset_name", "preset name", &t.save_name,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Save") || entered) && !t.save_name.empty()) {
    try {
      const auto path = save_user_preset(t.save_name, s, user_presets_dir());
      t.notice = "Preset saved: " + path.string();
      s.written_files.push_back(path.string());  // the browser downloads a copy: its folder lasts as long as the page
      t.notice_is_error = false;
      t.presets_listed = false;
      t.save_name.clear();
      ImGui::CloseCurrentPopup();
    } catch (const ParamError& e) {
      t.notice = std::string("Preset not saved: ") + e.what();
      t.notice_is_error = true;
    }
  }
  ImGui::TextDisabled("into %s", user_presets_dir().string().c_str());
  ImGui::EndMenu();
}

void presets_menu(AppState& s) {
  TeachState& t = s.teach;
  if (!ImGui::BeginMenu("Presets")) return;
  if (!t.presets_listed) {
    t.presets = list_presets();
    t.presets_listed = true;
  }
  if (t.presets.empty()) ImGui::TextDisabled("no presets found");
  preset_items(s, false);
  bool any_user = false;
  for (const PresetEntry& p : t.presets) any_user = any_user || p.user;
  if (any_user) {
    ImGui::Separator();
    ImGui::TextDisabled("yours");
    preset_items(s, true);
  }
  ImGui::Separator();
  save_preset_item(s);
  if (ImGui::MenuItem("Reload the list")) t.presets_listed = false;
  ImGui::EndMenu();
}

void lesson_menu(AppState& s) {
  TeachState& t = s.teach;
  if (!ImGui::BeginMenu("Lesson")) return;
  if (!t.lessons_listed) {
    t.lesson_files = list_lesson_files();
    t.lessons_listed = true;
  }
  if (t.lesson_active) {
    const int n = int(t.lesson.steps.size());
    ImGui::TextDisabled("%s: step %d / %d", t.lesson.title.c_str(), t.step + 1, n);
    if (ImGui::MenuItem("Next step", "Right", false, t.step + 1 < n)) go_to_step(s, t.step + 1);
    if (ImGui::MenuItem("Previous step", "Left", false, t.step > 0)) go_to_step(s, t.step - 1);
    if (ImGui::MenuItem("End the lesson")) stop_lesson(s);
    ImGui::Separator();
  }
  ImGui::TextDisabled("start a lesson");
  for (const std::string& file : t.lesson_files) {
    if (ImGui::MenuItem(std::filesystem::path(file).stem().string().c_str())) {
      try {
        start_lesson(s, load_lesson_file(file));
      } catch (const ParamError& e) {
        t.lesson_error = e.what();
        t.notice = "Lesson not started: " + t.lesson_error;
        t.notice_is_error = true;
      }
    }
    tooltip(file);
  }
  if (t.lesson_files.empty()) ImGui::TextDisabled("no lessons found");
  if (!t.lesson_error.empty()) {
    ImGui::Separator();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextDisabled("%s", t.lesson_error.c_str());
    ImGui::PopTextWrapPos();
  }
  if (ImGui::MenuItem("Reload the list")) t.lessons_listed = false;
  ImGui::EndMenu();
}

void view_menu(AppState& s) {
  if (!ImGui::BeginMenu("View")) return;
  if (ImGui::MenuItem("Presentation mode", "F11", s.teach.presenting)) set_presenting(s, !s.teach.presenting);
  hint("Full screen, light theme, large text, a thin strip of sliders; Esc or F11 leaves.");
  const std::string why_not = gfx::cannot_write(".gif");
  if (ImGui::MenuItem("Record animation...", nullptr, false, !s.recording.active && why_not.empty()))
    s.recording.dialog_requested = true;
  hint(why_not.empty() ? "A GIF or MP4 of one view while a parameter sweeps (the RoPE dials turning, the base growing), into the figure folder."
                       : why_not.c_str());
  ImGui::EndMenu();
}

}  // namespace

void draw_teach_menus(AppState& s) {
  presets_menu(s);
  lesson_menu(s);
  view_menu(s);
}

}  // namespace peviz::app
