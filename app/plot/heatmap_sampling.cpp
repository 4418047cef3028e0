// Box-filtered resampling of a heatmap window (matrix or Toeplitz similarity cells) to screen pixels.
#include "app/plot/heatmap_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace peviz::plot {

namespace {
// For each output pixel along one axis: up to n cell indices covering its footprint (-1: outside).
struct AxisSamples {
  int count = 1;            // samples per pixel on this axis
  std::vector<int> cells;   // pixels * count cell indices
};

AxisSamples axis_samples(double from, double to, int pixels, int cells, int max_samples) {
  AxisSamples s;
  const double per_pixel = (to - from) / std::max(pixels, 1);
  // In double before the int: a window that is not finite (a plot with no size yet) or enormous is clamped.
  const double wanted = std::isfinite(per_pixel) ? std::ceil(std::abs(per_pixel)) : 1.0;
  s.count = int(std::clamp(wanted, 1.0, double(std::max(max_samples, 1))));
  s.cells.resize(std::size_t(pixels) * s.count);
  for (int i = 0; i < pixels; ++i) {
    for (int k = 0; k < s.count; ++k) {
      const double x = from + (i + (k + 0.5) / s.count) * per_pixel;
      const double f = std::floor(x);
      s.cells[std::size_t(i) * s.count + k] = (f >= 0.0 && f < cells) ? int(f) : -1;
    }
  }
  return s;
}

// Box filter over `cell(row, col)` for a rows x cols source.
template <class Cell>
void sample_cells(std::size_t rows, std::size_t cols, const HeatmapWindow& w, int max_samples,
                  std::vector<float>& out, Cell cell) {
  const std::size_t n = std::size_t(std::max(w.width, 0)) * std::size_t(std::max(w.height, 0));
  if (out.size() < n) out.resize(n);
  if (n == 0) return;
  const AxisSamples xs = axis_samples(w.x_left, w.x_right, w.width, int(cols), max_samples);
  const AxisSamples ys = axis_samples(w.y_top, w.y_bottom, w.height, int(rows), max_samples);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int j = 0; j < w.height; ++j) {
    float* dst = out.data() + std::size_t(j) * w.width;
    const int* row_cells = ys.cells.data() + std::size_t(j) * ys.count;
    for (int i = 0; i < w.width; ++i) {
      const int* col_cells = xs.cells.data() + std::size_t(i) * xs.count;
      float sum = 0.0f;
      int used = 0;
      for (int a = 0; a < ys.count; ++a) {
        if (row_cells[a] < 0) continue;
        for (int b = 0; b < xs.count; ++b) {
          if (col_cells[b] < 0) continue;
          sum += cell(std::size_t(row_cells[a]), std::size_t(col_cells[b]));
          ++used;
        }
      }
      dst[i] = used ? sum / float(used) : nan;
    }
  }
}
}  // namespace

void sample_heatmap_window(const Matrix& m, const HeatmapWindow& w, int max_samples,
                           std::vector<float>& out) {
  sample_cells(m.rows, m.cols, w, max_samples, out,
               [&m](std::size_t r, std::size_t c) { return m.data[r * m.cols + c]; });
}

void sample_heatmap_window(const ToeplitzSimilarity& t, const HeatmapWindow& w, int max_samples,
                           std::vector<float>& out) {
  sample_cells(t.size(), t.size(), w, max_samples, out,
               [&t](std::size_t r, std::size_t c) { return float(t.at(r, c)); });
}

void sample_heatmap_window(const HeatmapValues& v, const HeatmapWindow& w, int max_samples,
                           std::vector<float>& out) {
  std::visit([&](const auto* source) { if (source) sample_heatmap_window(*source, w, max_samples, out); }, v);
}

}  // namespace peviz::plot
