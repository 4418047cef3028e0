// Box-filtered resampling of a heatmap window (matrix or Toeplitz similarity cells) to screen pixels.
#include "app/plot/heatmap_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace peviz::plot {

namespace {
// One axis of the filter: for each output pixel, `stride` cells (-1: none) and their weights.
struct AxisTaps {
  int stride = 1;
  std::vector<int> cells;      // pixels * stride
  std::vector<float> weights;  // the same, summing to 1 over a pixel's cells inside the matrix (0 for -1)
};

// Zoomed in (a cell or less per pixel) or for a draft (max_samples <= 1): the cell under the pixel's centre.
// Zoomed out: a box of an even number of cells (2, 4, ... the first at least a pixel's footprint) centred on the
// pixel, each cell weighted by how much of it the box covers. A box a pixel wide aliases a fast channel into false
// slow bands (an interleaved table's sin/cos columns, alternating, at d_model 1448 on 1300 pixels: 1.1 cells per
// pixel); an even width averages any two neighbouring cells alike, so the alternation fades to its mean.
AxisTaps axis_taps(double from, double to, int pixels, int cells, int max_samples) {
  AxisTaps t;
  const double per_pixel = (to - from) / std::max(pixels, 1);
  // In double before the int: a window that is not finite (a plot with no size yet) is one cell per pixel.
  const double per = std::isfinite(per_pixel) ? std::abs(per_pixel) : 1.0;
  const double width = per <= 1.0 || max_samples <= 1 ? 0.0 : 2.0 * std::ceil(per / 2.0);
  t.stride = width > 0.0 ? int(std::min(width, double(cells) + 1.0)) + 1 : 1;
  t.cells.assign(std::size_t(pixels) * t.stride, -1);
  t.weights.assign(t.cells.size(), 0.0f);
  for (int i = 0; i < pixels; ++i) {
    const double centre = std::isfinite(per_pixel) ? from + (i + 0.5) * per_pixel : from + i + 0.5;
    int* c = t.cells.data() + std::size_t(i) * t.stride;
    float* w = t.weights.data() + std::size_t(i) * t.stride;
    if (width == 0.0) {
      const double f = std::floor(centre);
      if (f >= 0.0 && f < cells) c[0] = int(f), w[0] = 1.0f;
      continue;
    }
    const double lo = centre - width / 2, hi = centre + width / 2;
    const double first = std::max(std::floor(lo), 0.0), last = std::min(std::ceil(hi), double(cells));
    double sum = 0.0;
    int k = 0;
    for (double cell = first; cell < last && k < t.stride; ++cell, ++k) {
      const double covered = std::min(hi, cell + 1) - std::max(lo, cell);
      c[k] = int(cell);
      w[k] = float(covered);
      sum += covered;
    }
    for (int j = 0; j < k; ++j) w[j] = sum > 0.0 ? float(w[j] / sum) : 0.0f;
  }
  return t;
}

// The separable filter over `cell(row, col)` for a rows x cols source, one output row at a time: first down the
// rows (each row tap adds its weight times the row, over the columns any pixel reads: contiguous, so it vectorises),
// then across, each pixel's column taps over that.
template <class Cell>
void sample_cells(std::size_t rows, std::size_t cols, const HeatmapWindow& w, int max_samples,
                  std::vector<float>& out, Cell cell) {
  const std::size_t n = std::size_t(std::max(w.width, 0)) * std::size_t(std::max(w.height, 0));
  if (out.size() < n) out.resize(n);
  if (n == 0) return;
  const AxisTaps xs = axis_taps(w.x_left, w.x_right, w.width, int(cols), max_samples);
  const AxisTaps ys = axis_taps(w.y_top, w.y_bottom, w.height, int(rows), max_samples);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  int first = int(cols), last = -1;  // the columns any pixel reads
  for (int c : xs.cells)
    if (c >= 0) first = std::min(first, c), last = std::max(last, c);
  if (last < first) return std::fill(out.begin(), out.begin() + std::ptrdiff_t(n), nan);  // no column in view
  std::vector<float> down(cols, 0.0f);
  for (int j = 0; j < w.height; ++j) {
    float* dst = out.data() + std::size_t(j) * w.width;
    bool any_row = false;
    std::fill(down.begin() + first, down.begin() + last + 1, 0.0f);
    for (int a = 0; a < ys.stride; ++a) {
      const int r = ys.cells[std::size_t(j) * ys.stride + a];
      if (r < 0) continue;
      any_row = true;
      const float weight = ys.weights[std::size_t(j) * ys.stride + a];
      for (int c = first; c <= last; ++c) down[std::size_t(c)] += weight * cell(std::size_t(r), std::size_t(c));
    }
    for (int i = 0; i < w.width; ++i) {
      float sum = 0.0f;
      bool any = false;
      for (int b = 0; b < xs.stride; ++b) {
        const int c = xs.cells[std::size_t(i) * xs.stride + b];
        if (c < 0) continue;
        sum += xs.weights[std::size_t(i) * xs.stride + b] * down[std::size_t(c)];
        any = true;
      }
      dst[i] = any && any_row ? sum : nan;
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
