// The GL side of every heatmap in the state: attached to one renderer, and drawn by the plots from it.
#pragma once
#include "app/gfx/heatmap_renderer.hpp"
#include "app/model/app_state.hpp"

namespace peviz::app {

// Attaches every heatmap image of `s` to `r` and makes the plots draw r's pictures
// (plot::set_heatmap_texture_source). `s` and `r` must stay where they are until release_heatmaps.
void attach_heatmaps(AppState& s, gfx::HeatmapRenderer& r);
// The plots stop asking `r`; then r's GL objects are deleted (when it has any).
void release_heatmaps(gfx::HeatmapRenderer& r);

}  // namespace peviz::app
