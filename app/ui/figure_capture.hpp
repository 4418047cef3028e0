// Rendering a figure offscreen: the same drawing code as the window, at the figure's size, scale
// and theme, into a framebuffer, read back as pixels. Needs a current GL context and ImGui context.
#pragma once
#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/gfx/heatmap_renderer.hpp"
#include "core/png_file.hpp"

namespace peviz::app {

// Draws `o.view` at o.width x o.height screen units times o.scale pixels, with the font rasterised
// at ui_scale * o.scale (ui_scale: the window's content scale times its zoom), in the figure's
// theme, with the mouse out of the way (no hover read-outs). Restores the window's theme and page,
// and marks the fonts for rebuilding at the window's scale. Throws ParamError (bad options, or a
// framebuffer the driver cannot allocate).
RgbaImage capture_figure(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale);

}  // namespace peviz::app
