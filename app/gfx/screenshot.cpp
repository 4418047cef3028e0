// Framebuffer capture and PNG writing.
#include "app/gfx/screenshot.hpp"

#include <cstring>
#include <ostream>

#include <stb_image_write.h>

#include "app/gfx/gl.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"

namespace peviz::gfx {

RgbaImage capture_framebuffer(int width, int height) {
  RgbaImage img;
  img.width = width;
  img.height = height;
  img.pixels.resize(std::size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, img.pixels.data());
  const std::size_t row = std::size_t(width) * 4;
  std::vector<std::uint8_t> tmp(row);
  for (int y = 0; y < height / 2; ++y) {  // GL's origin is the bottom-left corner
    std::uint8_t* a = img.pixels.data() + y * row;
    std::uint8_t* b = img.pixels.data() + (height - 1 - y) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  for (std::size_t i = 3; i < img.pixels.size(); i += 4) img.pixels[i] = 255;
  return img;
}

void write_png(const RgbaImage& image, const std::string& path) {
  std::vector<char> png;
  auto append = [](void* context, void* data, int size) {
    auto* out = static_cast<std::vector<char>*>(context);
    out->insert(out->end(), static_cast<char*>(data), static_cast<char*>(data) + size);
  };
  if (!stbi_write_png_to_func(append, &png, image.width, image.height, 4, image.pixels.data(), image.width * 4))
    throw ParamError("screenshot", "could not encode the PNG");
  write_file_atomically(path, [&](std::ostream& out) { out.write(png.data(), std::streamsize(png.size())); },
                        "screenshot");
}

}  // namespace peviz::gfx
