// What a frame leaves behind on request: the --screenshot PNG, the --regions JSON, and the F12 figure.
#pragma once
#include <string>

#include "app/gfx/heatmap_renderer.hpp"
#include "app/gfx/window.hpp"
#include "app/model/app_state.hpp"

namespace peviz::app {

// Writes the screen rectangles of the views' key parts (pixels) as JSON, for the screenshot tests.
void write_regions(const std::string& path, const AppState& s, int width, int height, float scale);
// Saves the figure the File menu's settings describe into the figure folder at the window's size;
// the toast says where, or why not.
void save_requested_figure(AppState& s, gfx::HeatmapRenderer& renderer, gfx::PixelSize window);

}  // namespace peviz::app
