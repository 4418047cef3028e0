// Resampling the visible window of a heatmap matrix to one value per screen pixel (pure CPU).
#pragma once
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/base/matrix.hpp"

namespace peviz::plot {

// Fills `out` (window.width * window.height values, row-major, top row first) with the values the
// window shows. Where a pixel covers several cells it averages, per axis, a box of an even number of
// cells (2, 4, ...: the first at least its footprint) weighted by coverage, so fast channels fade to
// their mean instead of aliasing into false slow waves; where it covers part of one cell it takes that
// cell. `max_samples` <= 1 asks for a draft instead (the cell under each pixel's centre, while a slider
// drags). Pixels outside the matrix get NaN. `out` is resized, never shrunk, so its memory is reused.
void sample_heatmap_window(const Matrix& m, const HeatmapWindow& window, int max_samples,
                           std::vector<float>& out);
// The same over a Toeplitz similarity (cell (p, q) = float(t.at(p, q)): the same pixels as over
// the matrix sinusoidal_similarity materialises), and over either (nothing for a null pointer).
void sample_heatmap_window(const ToeplitzSimilarity& t, const HeatmapWindow& window, int max_samples,
                           std::vector<float>& out);
void sample_heatmap_window(const HeatmapValues& v, const HeatmapWindow& window, int max_samples,
                           std::vector<float>& out);

}  // namespace peviz::plot
