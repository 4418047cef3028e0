// View 2, the encoding heatmap: position x channel, the classic figure, with a colourbar.
#include <imgui.h>

#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {
// The colour map (the figure leaves it out).
void encoding_controls(AppState& s) {
  BasicsOptions& basics = s.pages.basics;
  if (colormap_combo("colours##encoding", basics.encoding_view.colormap_choice)) basics.dirty.colors = true;
}
}  // namespace

void draw_encoding_view(AppState& s) {
  BasicsOptions& basics = s.pages.basics;
  view_title("Encoding heatmap: position × channel");
  if (shows_controls(s)) encoding_controls(s);
  if (!basics.has_results) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const HeatmapPanel panel{"##encoding", "channel", "value", double(basics.encoding.cols), false};
  heatmap_with_colorbar(s, basics.encoding_image, panel, ImGui::GetContentRegionAvail().y, s.regions.encoding_heatmap,
                        s.regions.encoding_colorbar);
}

}  // namespace peviz::app
