// Float value texture -> colormap shader -> render target texture, for every heatmap image.
#include "app/gfx/heatmap_renderer.hpp"

#include <algorithm>
#include <chrono>

#include "app/gfx/shader.hpp"
#include "app/plot/colormap.hpp"
#include "app/plot/heatmap_sampling.hpp"

namespace peviz::gfx {

namespace {

GLuint make_texture(GLint internal_format, int w, int h, GLenum format, GLenum type) {
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexImage2D(GL_TEXTURE_2D, 0, internal_format, w, h, 0, format, type, nullptr);
  return tex;
}

// New storage for both textures (same names: the image's ImTextureID and the framebuffer's
// attachment stay valid); the old storage is freed by the driver.
void resize_target(HeatmapTarget& t, plot::TextureSize size) {
  glBindTexture(GL_TEXTURE_2D, t.values_texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, size.width, size.height, 0, GL_RED, GL_FLOAT, nullptr);
  glBindTexture(GL_TEXTURE_2D, t.color_texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, size.width, size.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  t.size = size;
}

}  // namespace

HeatmapRenderer create_heatmap_renderer() {
  HeatmapRenderer r;
  r.program = load_program("heatmap.vert.glsl", "heatmap.frag.glsl");
  r.loc_values = glGetUniformLocation(r.program, "u_values");
  r.loc_colormaps = glGetUniformLocation(r.program, "u_colormaps");
  r.loc_colormap = glGetUniformLocation(r.program, "u_colormap");
  r.loc_range = glGetUniformLocation(r.program, "u_range");
  r.loc_missing = glGetUniformLocation(r.program, "u_missing");
  std::vector<unsigned char> rgba(std::size_t(plot::kColormapCount) * plot::kColormapSize * 4);
  for (int m = 0; m < plot::kColormapCount; ++m)
    for (int i = 0; i < plot::kColormapSize; ++i) {
      unsigned char* px = &rgba[(std::size_t(m) * plot::kColormapSize + i) * 4];
      for (int c = 0; c < 3; ++c) px[c] = plot::kColormapRGB[m][i][c];
      px[3] = 255;
    }
  r.colormap_texture = make_texture(GL_RGBA8, plot::kColormapSize, plot::kColormapCount, GL_RGBA, GL_UNSIGNED_BYTE);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, plot::kColormapSize, plot::kColormapCount, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glGenVertexArrays(1, &r.vertex_array);
  return r;
}

void attach(HeatmapRenderer& r, plot::HeatmapImage& image) {
  HeatmapTarget t;
  t.image = &image;
  t.size = plot::heatmap_texture_size(0, 0);  // the smallest; re-sized at the first render
  t.values_texture = make_texture(GL_R32F, t.size.width, t.size.height, GL_RED, GL_FLOAT);
  t.color_texture = make_texture(GL_RGBA8, t.size.width, t.size.height, GL_RGBA, GL_UNSIGNED_BYTE);
  glGenFramebuffers(1, &t.framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.color_texture, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  r.targets.push_back(std::move(t));
}

void* texture_of(const HeatmapRenderer& r, const plot::HeatmapImage& image) {
  for (const HeatmapTarget& t : r.targets)
    if (t.image == &image) return reinterpret_cast<void*>(std::uintptr_t(t.color_texture));
  return nullptr;
}

bool heatmaps_need_refining(const HeatmapRenderer& r) {
  for (const HeatmapTarget& t : r.targets)
    if (t.coarse) return true;
  return false;
}

void render_heatmaps(HeatmapRenderer& r, const std::vector<plot::HeatmapPlacement>& placed, bool data_changing) {
  const auto start = std::chrono::steady_clock::now();
  bool bound = false;
  for (HeatmapTarget& t : r.targets) {
    const plot::HeatmapImage& img = *t.image;
    const auto last = std::find_if(placed.rbegin(), placed.rend(), [&](const auto& p) { return p.image == &img; });
    if (last == placed.rend() || !plot::has_values(img.values)) continue;
    const plot::HeatmapWindow& w = last->window;
    const plot::TextureSize size = plot::heatmap_texture_size(w.width, w.height);
    const bool resized = !(size == t.size);
    if (resized) resize_target(t, size);
    const bool changed = resized || t.version != img.version || t.values != img.values || !(t.window == w);
    const bool resample = changed || (t.coarse && !data_changing);
    const bool recolor = resample || t.vmin != img.vmin || t.vmax != img.vmax || t.colormap != img.colormap;
    if (!recolor) continue;
    if (resample) {
      t.coarse = data_changing;
      plot::sample_heatmap_window(img.values, w, data_changing ? kHeatmapDragSamples : kHeatmapMaxSamples, r.staging);
      glBindTexture(GL_TEXTURE_2D, t.values_texture);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
      glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w.width, w.height, GL_RED, GL_FLOAT, r.staging.data());
    }
    if (!bound) {
      glUseProgram(r.program);
      glBindVertexArray(r.vertex_array);
      glDisable(GL_BLEND);
      glDisable(GL_SCISSOR_TEST);
      glDisable(GL_DEPTH_TEST);
      glUniform1i(r.loc_values, 0);
      glUniform1i(r.loc_colormaps, 1);
      glActiveTexture(GL_TEXTURE1);
      glBindTexture(GL_TEXTURE_2D, r.colormap_texture);
      bound = true;
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t.values_texture);
    glUniform1i(r.loc_colormap, int(img.colormap));
    const unsigned char* nan = plot::nan_rgb(img.nan_meaning);
    glUniform3f(r.loc_missing, nan[0] / 255.0f, nan[1] / 255.0f, nan[2] / 255.0f);
    glUniform2f(r.loc_range, float(img.vmin), float(img.vmax));
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
    glViewport(0, 0, w.width, w.height);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    t.version = img.version;
    t.values = img.values;
    t.window = w;
    t.vmin = img.vmin;
    t.vmax = img.vmax;
    t.colormap = img.colormap;
  }
  if (bound) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindVertexArray(0);
    glUseProgram(0);
    glActiveTexture(GL_TEXTURE0);
  }
  r.last_upload_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void destroy(HeatmapRenderer& r) {
  for (HeatmapTarget& t : r.targets) {
    glDeleteFramebuffers(1, &t.framebuffer);
    glDeleteTextures(1, &t.values_texture);
    glDeleteTextures(1, &t.color_texture);
  }
  r.targets.clear();
  glDeleteTextures(1, &r.colormap_texture);
  glDeleteVertexArrays(1, &r.vertex_array);
  glDeleteProgram(r.program);
  r = HeatmapRenderer{};
}

void use_nearest_filtering(void* texture) {
  glBindTexture(GL_TEXTURE_2D, GLuint(reinterpret_cast<std::uintptr_t>(texture)));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace peviz::gfx
