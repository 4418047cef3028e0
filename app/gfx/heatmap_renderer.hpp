// Heatmaps on the GPU: per image an R32F value texture and an RGBA8 render target, allocated once,
// plus the colormap texture and the colormap shader. Hands the render target to ImGui as ImTextureID.
#pragma once
#include <cstdint>
#include <vector>

#include "app/gfx/gl.hpp"
#include "app/plot/heatmap_image.hpp"

namespace peviz::gfx {

// sample_heatmap_window's filter: the full box filter (any value above 1), or one sample per pixel
// while the data changes every frame (a slider being dragged); the image is refined with the full
// filter on the first frame the data holds still.
inline constexpr int kHeatmapMaxSamples = 4;
inline constexpr int kHeatmapDragSamples = 1;

struct HeatmapTarget {
  plot::HeatmapImage* image = nullptr;
  GLuint values_texture = 0;  // R32F, size.width x size.height, updated with glTexSubImage2D
  GLuint color_texture = 0;   // RGBA8, the same size, the FBO's attachment, drawn by ImGui
  GLuint framebuffer = 0;
  plot::TextureSize size;     // allocated (plot::heatmap_texture_size of the last window)
  // What the current texture contents were made from (skip work when unchanged).
  std::uint64_t version = ~0ull;
  plot::HeatmapValues values;
  plot::HeatmapWindow window;
  double vmin = 0, vmax = 0;
  plot::Colormap colormap = plot::Colormap::viridis;
  bool coarse = false;  // sampled with kHeatmapDragSamples: refine when the data holds still
};

struct HeatmapRenderer {
  GLuint program = 0;
  GLuint colormap_texture = 0;
  GLuint vertex_array = 0;
  GLint loc_values = -1, loc_colormaps = -1, loc_colormap = -1, loc_range = -1, loc_missing = -1;
  std::vector<HeatmapTarget> targets;
  std::vector<float> staging;  // sampled values, reused by every target (at most kMaxHeatmapImageSide^2)
  double last_upload_ms = 0.0;  // sampling + upload + render time of the last render_heatmaps
};

// Loads shaders/heatmap.{vert,frag}.glsl and uploads the colormaps. Throws ShaderError.
HeatmapRenderer create_heatmap_renderer();
// Gives `image` a render target. The textures get their storage at the first render, sized to the
// image on screen, and are re-sized when it changes. `image` must outlive r.
void attach(HeatmapRenderer& r, plot::HeatmapImage& image);
// The rendered picture of an attached image, as ImGui draws it (null: not attached). For
// plot::set_heatmap_texture_source.
void* texture_of(const HeatmapRenderer& r, const plot::HeatmapImage& image);
// For every attached image placed this frame (`placed`: plot::heatmap_placements; an image placed twice: its last
// placement): resample + upload when its data or window changed (coarsely when `data_changing`: the data
// changed this frame), or to refine a coarse image; re-render when anything changed. Call after the views drew
// and before ImGui's render. Leaves framebuffer 0 bound.
void render_heatmaps(HeatmapRenderer& r, const std::vector<plot::HeatmapPlacement>& placed, bool data_changing);
// True when some image is coarse and waits for a still frame to be refined.
bool heatmaps_need_refining(const HeatmapRenderer& r);
void destroy(HeatmapRenderer& r);

// Switches a texture to nearest-neighbour sampling. For ImGui's font atlas: glyphs are rasterised
// at their drawn size on whole pixels, so it looks the same, and the software rasteriser's
// per-pixel cost drops (every ImGui triangle samples the atlas).
void use_nearest_filtering(void* texture);

}  // namespace peviz::gfx
