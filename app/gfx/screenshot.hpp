// Capturing the window's framebuffer to a buffer, and writing that buffer as a PNG.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace peviz::gfx {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 4, top row first, alpha 255
};

// glReadPixels of the current read framebuffer (call before swapping buffers).
RgbaImage capture_framebuffer(int width, int height);

// Encodes as PNG (stb_image_write) and writes it atomically. Throws ParamError("screenshot", ...).
void write_png(const RgbaImage& image, const std::string& path);

}  // namespace peviz::gfx
