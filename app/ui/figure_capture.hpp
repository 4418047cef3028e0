// Rendering a figure offscreen: the same drawing code as the window, at the figure's size, scale
// and theme, into a framebuffer, read back as pixels. Needs a current GL context and ImGui context.
#pragma once
#include <functional>
#include <string>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/gfx/heatmap_renderer.hpp"
#include "app/plot/display_list.hpp"
#include "core/io/png_file.hpp"

namespace peviz::app {

// Draws `o.view` at o.width x o.height screen units times o.scale pixels, with the font rasterised
// at ui_scale * o.scale (ui_scale: the window's content scale times its zoom), in the figure's
// theme, with the mouse out of the way (no hover read-outs). Restores the window's theme and page,
// and marks the fonts for rebuilding at the window's scale. Throws ParamError (bad options, or a
// framebuffer the driver cannot allocate).
RgbaImage capture_figure(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale);

// The same frames, the last one also recorded as a display list for a vector figure: what the
// views and the plotting layer draw through the canvas (plots, their labels, the caption), in
// figure pixels, on the figure's background (alpha 0 when transparent). Widgets are left out.
// The heatmaps in it point into `s`: write the list before `s` changes.
plot::DisplayList capture_figure_display_list(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o,
                                              float ui_scale);

// Captures `o` and writes it as `format` to `path` (PNG with its text chunks; SVG or PDF from the
// display list with the same metadata). Throws ParamError("format", ...) for a vector figure of the
// whole window, ParamError("out", ...) when writing fails (no file is left then).
void save_figure(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale, FigureFormat format,
                 const std::string& path);

// An animation: for i in [0, frames), set_frame(i) changes `s`, then the frame is captured (fonts,
// theme and framebuffer set up once) and handed to take(i, image); take returns false to stop
// (Cancel). The window's state comes back as after capture_figure, also when something throws.
void capture_animation(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale, int frames,
                       const std::function<void(int)>& set_frame, const std::function<bool(int, const RgbaImage&)>& take);

}  // namespace peviz::app
