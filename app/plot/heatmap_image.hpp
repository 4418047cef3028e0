// A heatmap as the plotting layer hands it to the GL layer: values, colouring, visible window.
#pragma once
#include <cstddef>
#include <cstdint>
#include <variant>

#include "app/plot/colormap.hpp"
#include "core/base/matrix.hpp"
#include "core/encodings/similarity.hpp"

namespace peviz::plot {

// Where a heatmap's cells come from: a matrix (NaN = missing), or a sinusoidal similarity read
// cell by cell from its Toeplitz description (no rows x cols buffer). A null pointer: no data.
using HeatmapValues = std::variant<const Matrix*, const ToeplitzSimilarity*>;

inline std::size_t value_rows(const HeatmapValues& v) {
  if (const Matrix* const* m = std::get_if<const Matrix*>(&v)) return *m ? (*m)->rows : 0;
  const ToeplitzSimilarity* t = std::get<const ToeplitzSimilarity*>(v);
  return t ? t->size() : 0;
}
inline std::size_t value_cols(const HeatmapValues& v) {
  if (const Matrix* const* m = std::get_if<const Matrix*>(&v)) return *m ? (*m)->cols : 0;
  return value_rows(v);  // a similarity is square
}
inline bool has_values(const HeatmapValues& v) { return value_rows(v) > 0 && value_cols(v) > 0; }
// Cell (row, col); both in range.
inline float value_at(const HeatmapValues& v, std::size_t row, std::size_t col) {
  if (const Matrix* const* m = std::get_if<const Matrix*>(&v)) return (*m)->at(row, col);
  return float(std::get<const ToeplitzSimilarity*>(v)->at(row, col));
}

// The part of the matrix on screen, in cell units: x = column, y = row. x_left/x_right and
// y_top/y_bottom are the data coordinates at the image's edges (y_top > y_bottom when row 0 is at
// the bottom). Pixel (i, j) of the image shows the cell at
// (x_left + (i + 0.5) / width * (x_right - x_left), y_top + (j + 0.5) / height * (y_bottom - y_top)).
struct HeatmapWindow {
  double x_left = 0.0, x_right = 1.0;
  double y_top = 0.0, y_bottom = 1.0;
  int width = 0, height = 0;  // image size in pixels (0 = nothing to draw)
  bool operator==(const HeatmapWindow&) const = default;
};

// The largest image side rendered (pixels); a bigger plot stretches its image.
inline constexpr int kMaxHeatmapImageSide = 2048;

// The texture an image of width x height pixels is rendered into: each side rounded up to a multiple
// of kHeatmapTextureStep (so dragging a splitter re-allocates every 128 pixels, not every pixel), at
// most kMaxHeatmapImageSide. The draw code (texture coordinates) and the GL layer (allocation) both
// call it, so they agree within a frame; memory follows the image on screen (a wide, short image gets
// a wide, short texture), not the largest size ever drawn.
inline constexpr int kHeatmapTextureStep = 128;
struct TextureSize {
  int width = 0, height = 0;
  bool operator==(const TextureSize&) const = default;
};
inline int heatmap_texture_extent(int pixels) {
  const int steps = pixels <= kHeatmapTextureStep ? 1 : (pixels + kHeatmapTextureStep - 1) / kHeatmapTextureStep;
  const int extent = steps * kHeatmapTextureStep;
  return extent < kMaxHeatmapImageSide ? extent : kMaxHeatmapImageSide;
}
inline TextureSize heatmap_texture_size(int width, int height) {
  return {heatmap_texture_extent(width), heatmap_texture_extent(height)};
}

struct HeatmapImage {
  // --- set by the update step ---
  HeatmapValues values;            // rows x cols, NaN = missing (drawn in kMissingRGB); null: none
  std::uint64_t version = 0;       // bumped whenever *values changes
  double vmin = -1.0, vmax = 1.0;  // colour range
  Colormap colormap = Colormap::viridis;
  NanMeaning nan_meaning = NanMeaning::missing;  // how NaN cells are drawn and named
  // Tiles: several L x L maps laid out `tiles_across` per row, each followed by a one-cell gutter (the ALiBi
  // heads, the Lab's layer x head maps). tile_side 0: one map. The hover names the tile and its own i, j.
  int tile_side = 0, tiles_across = 0, tile_count = 0;
  bool tiles_are_layers = false;  // rows of tiles are layers and columns heads (else tiles are heads, row-major)
  double cell_width = 1.0, cell_height = 1.0;  // data units per column / row (sampled positions)
  // --- plot::heatmap_has_missing's cache of `values` (the plotting layer's) ---
  std::uint64_t missing_checked_version = ~std::uint64_t(0);
  bool missing = false;
  // Where it is drawn is the frame's (HeatmapPlacement), and the picture itself the GL layer's
  // (gfx::HeatmapRenderer): the draw code asks it for the texture through plot::set_heatmap_texture_source, so
  // no GL handle lives in the model.
};

// One image as plot_heatmap placed it in this frame: the part of it shown and where (pixels). The plotting layer
// lists them (plot::heatmap_placements, cleared with the frame's drawn plots); the GL layer renders each one's
// picture from it and the views read where it went.
struct HeatmapPlacement {
  const HeatmapImage* image = nullptr;
  HeatmapWindow window;
  float screen_min[2] = {0, 0}, screen_max[2] = {0, 0};
};

}  // namespace peviz::plot
