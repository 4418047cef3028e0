// Offscreen framebuffers, the ImGui draw pass and framebuffer capture.
#include "app/gfx/screenshot.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <backends/imgui_impl_opengl3.h>

#include "app/gfx/gl.hpp"
#include "app/gfx/heatmap_renderer.hpp"
#include "core/base/errors.hpp"

namespace peviz::gfx {

OffscreenTarget create_offscreen(int width, int height) {
  GLint max_texture = 0, max_viewport[2] = {0, 0};
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_viewport);
  const int limit = std::min({int(max_texture), int(max_viewport[0]), int(max_viewport[1])});
  if (width < 1 || height < 1 || width > limit || height > limit)
    throw ParamError("scale", "a " + std::to_string(width) + " x " + std::to_string(height) +
                                  " figure exceeds this OpenGL driver's limit of " + std::to_string(limit) + " pixels a side");
  OffscreenTarget t;
  t.width = width;
  t.height = height;
  GLuint tex = 0, fbo = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  t.framebuffer = fbo;
  t.color_texture = tex;
  if (status != GL_FRAMEBUFFER_COMPLETE || glGetError() != GL_NO_ERROR) {
    destroy(t);
    throw ParamError("scale", "the driver could not allocate a " + std::to_string(width) + " x " +
                                  std::to_string(height) + " framebuffer (out of memory?)");
  }
  return t;
}

void bind_offscreen(const OffscreenTarget& t) { glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer); }
void bind_window() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

void destroy(OffscreenTarget& t) {
  if (t.framebuffer) glDeleteFramebuffers(1, &t.framebuffer);
  if (t.color_texture) glDeleteTextures(1, &t.color_texture);
  t = {};
}

void new_imgui_frame() { ImGui_ImplOpenGL3_NewFrame(); }

void draw_imgui(int width, int height, ImVec4 background) {
  glViewport(0, 0, width, height);
  glClearColor(background.x, background.y, background.z, background.w);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void upload_fonts() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  use_nearest_filtering(ImGui::GetIO().Fonts->TexID);
}

RgbaImage capture_framebuffer(int width, int height, bool keep_alpha) {
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
  for (std::size_t i = 0; i < img.pixels.size(); i += 4) {
    std::uint8_t* px = img.pixels.data() + i;
    if (!keep_alpha) {
      px[3] = 255;
    } else if (px[3] > 0 && px[3] < 255) {
      // Blending over a cleared (0,0,0,0) target stores colour times alpha: PNG wants it straight.
      for (int c = 0; c < 3; ++c) px[c] = std::uint8_t(std::min(255, (px[c] * 255 + px[3] / 2) / px[3]));
    }
  }
  return img;
}

}  // namespace peviz::gfx
