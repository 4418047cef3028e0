// Presentation mode's thin strip in place of the sidebar: the essential sliders (d_model, L, base) with
// their labels above them on the pages they change, and the button that leaves presentation mode.
#include <imgui.h>

#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/ui/views/teach_views.hpp"
#include "app/ui/views/views.hpp"
#include "core/absolute_encodings.hpp"

namespace peviz::app {

namespace {
void leave_button(AppState& s) {
  if (ImGui::Button("Leave (Esc)", ImVec2(-1.0f, 0.0f))) set_presenting(s, false);
  hint("Back to the window with the full sidebar, your theme and zoom (F11 or Esc too).");
}
}  // namespace

void draw_presentation_strip(AppState& s) {
  EncodingParams& p = s.params;
  if (!uses_sidebar_encoding(s.pages.page)) {  // the page's own controls are above its plots
    leave_button(s);
    return;
  }
  ImGui::PushItemWidth(-1.0f);
  ImGui::TextUnformatted("d_model");
  if (limit_slider("##present_d", p.d_model, limits::d_model)) mark_params_changed(s);
  ImGui::TextUnformatted("L");
  if (limit_slider("##present_L", p.seq_len, limits::seq_len)) mark_params_changed(s);
  ImGui::BeginDisabled(!encoding_info(p.encoding).inputs.base);
  ImGui::TextUnformatted("base");
  if (limit_slider("##present_base", p.base, limits::base))
    mark_params_changed(s);
  ImGui::EndDisabled();
  ImGui::PopItemWidth();
  ImGui::Spacing();
  leave_button(s);
}

}  // namespace peviz::app
