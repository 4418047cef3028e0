// Small widgets the views share: hover hints, the colormap combo, view titles.
#include <imgui.h>

#include "app/plot/colormap.hpp"
#include "app/views/views.hpp"

namespace peviz::app {

void hint(const char* sentence) {
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(sentence);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

bool colormap_combo(const char* label, int& choice) {
  static const char* const names[] = {"auto", "viridis", "diverging", "magma", "grey"};
  static_assert(sizeof(names) / sizeof(names[0]) == plot::kColormapCount + 1);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  const bool changed = ImGui::Combo(label, &choice, names, plot::kColormapCount + 1);
  hint("Colours of the heatmap: auto picks a blue-white-red map centred on 0 for signed values "
       "and viridis for non-negative ones.");
  return changed;
}

void view_title(const char* title) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(title);
}

unsigned highlight_color() { return IM_COL32(255, 200, 0, 230); }

}  // namespace peviz::app
