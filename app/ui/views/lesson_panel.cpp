// The lesson panel: "step k / n", the step's title and text, Prev / Next / End, the step's demo beside
// the text (under it in a narrow panel), and the Left / Right arrow keys (when no text field has the keyboard).
#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/model/lessons.hpp"
#include "app/ui/theme.hpp"
#include "app/ui/views/teach_views.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// Prev / Next / End on the step line (`step_line_w` wide), right-aligned; on a line of their own in a narrow panel.
void draw_step_buttons(AppState& s, float step_line_w) {
  TeachState& t = s.teach;
  const int n = int(t.lesson.steps.size());
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons_w = ImGui::CalcTextSize("← Prev").x + ImGui::CalcTextSize("Next →").x +
                          ImGui::CalcTextSize("End").x + 6.0f * style.FramePadding.x + 2.0f * style.ItemSpacing.x;
  if (step_line_w + style.ItemSpacing.x + buttons_w <= ImGui::GetContentRegionAvail().x) {
    ImGui::SameLine();
    ImGui::SetCursorPosX(ImGui::GetWindowContentRegionMax().x - buttons_w);
  }
  ImGui::BeginDisabled(t.step == 0);
  if (ImGui::Button("← Prev")) go_to_step(s, t.step - 1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(t.step + 1 >= n);
  if (ImGui::Button("Next →")) go_to_step(s, t.step + 1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("End")) stop_lesson(s);
}

}  // namespace

void draw_lesson_panel(AppState& s) {
  TeachState& t = s.teach;
  if (!t.lesson_active || t.lesson.steps.empty()) return;
  const int n = int(t.lesson.steps.size());
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantTextInput && !ImGui::IsAnyItemActive()) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow), false) && t.step + 1 < n) go_to_step(s, t.step + 1);
    else if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow), false) && t.step > 0) go_to_step(s, t.step - 1);
  }
  const LessonStep& step = t.lesson.steps[std::size_t(t.step)];
  const bool demo = step.demo == "word-order";
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const bool demo_beside = demo && avail_w >= 50.0f * ImGui::GetFontSize();  // else under the text (a narrow column)
  const float text_w = demo_beside ? avail_w * 0.42f : avail_w;

  if (demo_beside) ImGui::BeginChild("##lesson_text", ImVec2(text_w, 0), false);
  const std::string step_line = lesson_step_line(t.lesson, t.step);
  ImGui::PushTextWrapPos(0.0f);  // a long lesson title wraps in a narrow column
  ImGui::TextDisabled("%s", step_line.c_str());
  ImGui::PopTextWrapPos();
  if (window_buttons_shown(s)) draw_step_buttons(s, ImGui::CalcTextSize(step_line.c_str()).x);
  push_heading_font();
  ImGui::PushTextWrapPos(0.0f);  // a narrow column wraps the title too
  ImGui::TextUnformatted(step.title.c_str());
  ImGui::PopTextWrapPos();
  pop_heading_font();
  wrapped_text(step.text, ImGui::GetContentRegionAvail().x);  // numbers and formulas kept whole
  if (demo_beside) {
    ImGui::EndChild();
    ImGui::SameLine();
  }
  if (demo && t.lesson_active) {
    ImGui::BeginChild("##lesson_demo", ImVec2(0, demo_beside ? 0.0f : 17.0f * ImGui::GetTextLineHeightWithSpacing()), false);
    draw_word_order_view(s);
    ImGui::EndChild();
  }
}

}  // namespace peviz::app
