// View 2, the encoding heatmap: position x channel, the classic figure, with a colourbar.
#include <imgui.h>

#include "app/ui/views/views.hpp"

namespace peviz::app {

void draw_encoding_view(AppState& s) {
  view_title("Encoding heatmap: position × channel");
  if (colormap_combo("colours##encoding", s.encoding_view.colormap_choice)) s.dirty.colors = true;
  if (!s.has_results) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const HeatmapPanel panel{"##encoding", "channel", "value", double(s.encoding.cols), false};
  heatmap_with_colorbar(s, s.encoding_image, panel, ImGui::GetContentRegionAvail().y, s.regions.encoding_heatmap,
                        s.regions.encoding_colorbar);
}

}  // namespace peviz::app
