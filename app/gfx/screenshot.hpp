// Drawing ImGui frames into the window or an offscreen framebuffer, and reading the pixels back.
#pragma once
#include <imgui.h>

#include "core/io/png_file.hpp"

namespace peviz::gfx {

using peviz::RgbaImage;

// An RGBA8 colour texture behind a framebuffer object: figures render into it at any size up to
// the driver's limit, independent of the window.
struct OffscreenTarget {
  unsigned framebuffer = 0, color_texture = 0;
  int width = 0, height = 0;
};
// Throws ParamError("scale", ...) when the driver cannot hold width x height.
OffscreenTarget create_offscreen(int width, int height);
void bind_offscreen(const OffscreenTarget& t);
void bind_window();  // framebuffer 0
void destroy(OffscreenTarget& t);

// Starts an ImGui frame on the GL side (the renderer backend's NewFrame).
void new_imgui_frame();

// Clears the bound framebuffer to `background` (alpha as given) and renders ImGui's draw data.
void draw_imgui(int width, int height, ImVec4 background);

// Re-uploads ImGui's font atlas after load_fonts(), sampled nearest (see use_nearest_filtering).
void upload_fonts();

// glReadPixels of the bound framebuffer, top row first. `keep_alpha` false forces alpha to 255.
RgbaImage capture_framebuffer(int width, int height, bool keep_alpha = false);

}  // namespace peviz::gfx
