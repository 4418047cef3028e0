// The Record animation dialog and its progress window.
#include "app/ui/views/record_dialog.hpp"

#include <algorithm>
#include <filesystem>

#include <imgui.h>

#include "app/model/figure.hpp"
#include "app/model/figure_io.hpp"
#include "app/model/lessons.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// A lesson recording: which lesson (the lesson menu's list), its steps shown by from / to.
void lesson_choice(AppState& s) {
  RecordingSettings& r = s.recording;
  TeachState& t = s.teach;
  if (!t.lessons_listed) {
    t.lesson_files = list_lesson_files();
    t.lessons_listed = true;
  }
  const std::string shown = !r.lesson.empty() ? r.lesson : t.lesson_files.empty() ? "(none found)" : t.lesson_files.front();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24.0f);
  if (ImGui::BeginCombo("lesson", std::filesystem::path(shown).stem().string().c_str())) {
    for (const std::string& file : t.lesson_files)
      if (ImGui::Selectable(std::filesystem::path(file).stem().string().c_str(), file == shown)) r.lesson = file;
    ImGui::EndCombo();
  }
}

void settings(AppState& s) {
  RecordingSettings& r = s.recording;
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(em * 12.0f);
  if (ImGui::BeginCombo("parameter", kAnimatedParamNames[int(r.spec.param)])) {
    for (int i = 0; i < kAnimatedParamCount; ++i)
      if (ImGui::Selectable(kAnimatedParamNames[i], int(r.spec.param) == i)) {
        r.spec = default_sweep(AnimatedParam(i), r.spec.frames, r.spec.fps);
        r.view_choice = -1;  // the view that shows this parameter best
      }
    ImGui::EndCombo();
  }
  const bool lesson = r.spec.param == AnimatedParam::lesson;
  if (lesson) lesson_choice(s);
  const auto views = single_figure_views();
  const FigureView shown = r.view_choice >= 0 && r.view_choice < int(views.size()) ? views[std::size_t(r.view_choice)]
                                                                                   : default_animation_view(r.spec.param);
  ImGui::SetNextItemWidth(em * 12.0f);
  if (ImGui::BeginCombo("view", figure_view_name(shown).c_str())) {
    for (int i = 0; i < int(views.size()); ++i)
      if (ImGui::Selectable(figure_view_name(views[std::size_t(i)]).c_str(), views[std::size_t(i)] == shown)) r.view_choice = i;
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(em * 8.0f);
  ImGui::InputDouble("from", &r.spec.from, 0.0, 0.0, "%.6g");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 8.0f);
  ImGui::InputDouble("to", &r.spec.to, 0.0, 0.0, "%.6g");
  hint(lesson ? "The first and last step shown, from 1 (to 0: the lesson's last step); each step holds, then cross-fades."
              : "Position sweeps linearly; base, d_model, L and factor geometrically (each decade the same time).");
  ImGui::SetNextItemWidth(em * 8.0f);
  ImGui::InputInt("frames", &r.spec.frames);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 8.0f);
  ImGui::InputInt("fps", &r.spec.fps);
  ImGui::SetNextItemWidth(em * 8.0f);
  ImGui::InputInt("width", &r.width);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 8.0f);
  ImGui::InputInt("height", &r.height);
  hint("0: the window's size (within the figure limits).");
  ImGui::TextUnformatted("format");
  ImGui::SameLine();
  ImGui::RadioButton("GIF", &r.format_choice, 0);
  ImGui::SameLine();
  ImGui::RadioButton("MP4 (H.264)", &r.format_choice, 1);
  hint("GIF: one shared palette, at most 50 fps, for slides and web pages. MP4: even width and height, any rate to 120 fps.");
  ImGui::TextDisabled("into %s (theme and caption as in Figure settings)", figure_folder(s).string().c_str());
}

}  // namespace

void draw_record_dialog(AppState& s) {
  RecordingSettings& r = s.recording;
  if (std::exchange(r.dialog_requested, false) && !r.active) ImGui::OpenPopup("Record animation");
  if (ImGui::BeginPopupModal("Record animation", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    settings(s);
    ImGui::Separator();
    if (ImGui::Button("Start")) {
      r.start_requested = true;
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
  if (!r.active) return;
  const ImVec2 centre(0.5f * ImGui::GetIO().DisplaySize.x, 0.5f * ImGui::GetIO().DisplaySize.y);
  ImGui::SetNextWindowPos(centre, ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  // NoFocusOnAppearing: a modal opened in the same frame (Ctrl+O while recording) would otherwise trip ImGui
  // 1.86's assertion that a new window appearing behind a modal finds it (found by the monkey, seed 20261123).
  ImGui::Begin("Recording", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                         ImGuiWindowFlags_NoFocusOnAppearing);
  const int total = std::max(r.total, 1);
  ImGui::Text("Recording %s: %d of %d%s", kAnimatedParamNames[int(r.spec.param)], r.done, total,
              r.spec.param == AnimatedParam::lesson ? " (the steps, then the frames)" : " frames");
  ImGui::ProgressBar(float(r.done) / float(total), ImVec2(ImGui::GetFontSize() * 20.0f, 0.0f));
  if (ImGui::Button("Cancel")) r.cancel_requested = true;
  ImGui::End();
}

}  // namespace peviz::app
