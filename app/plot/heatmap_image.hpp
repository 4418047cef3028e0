// A heatmap as the plotting layer hands it to the GL layer: values, colouring, visible window.
#pragma once
#include <cstddef>
#include <cstdint>
#include <variant>

#include "app/plot/colormap.hpp"
#include "core/matrix.hpp"
#include "core/similarity.hpp"

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

// The side of the square texture an image of width x height pixels is rendered into: the power of two at
// least max(width, height) and kMinHeatmapTextureSide, at most max_side. The draw code (texture
// coordinates) and the GL layer (allocation) both call it, so they agree within a frame; memory follows
// the size on screen rather than staying at the largest side ever drawn.
inline constexpr int kMinHeatmapTextureSide = 64;
inline int heatmap_texture_side(int width, int height, int max_side) {
  int side = kMinHeatmapTextureSide;
  while (side < width || side < height) side *= 2;
  return side < max_side ? side : max_side;
}

struct HeatmapImage {
  // --- set by the update step ---
  HeatmapValues values;            // rows x cols, NaN = missing (drawn in kMissingRGB); null: none
  std::uint64_t version = 0;       // bumped whenever *values changes
  double vmin = -1.0, vmax = 1.0;  // colour range
  Colormap colormap = Colormap::viridis;
  double cell_width = 1.0, cell_height = 1.0;  // data units per column / row (sampled positions)
  // --- set by plot_heatmap while the views draw (this frame) ---
  HeatmapWindow window;
  bool drawn = false;  // cleared by the GL layer after rendering
  float screen_min[2] = {0, 0}, screen_max[2] = {0, 0};  // where the image went (pixels)
  // --- set by the GL layer once (gfx::HeatmapRenderer::attach) ---
  void* texture = nullptr;  // ImTextureID of the rendered RGBA image
  int max_side = 0;         // the largest image side rendered (0: no GL layer); the texture is
                            // heatmap_texture_side(window)^2 and the image fills its top-left corner
};

}  // namespace peviz::plot
