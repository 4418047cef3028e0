// Tests for app/plot/heatmap_sampling: one value per pixel, box filter, NaN outside.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/plot/heatmap_sampling.hpp"

using namespace peviz;
using namespace peviz::plot;

static Matrix ramp(std::size_t rows, std::size_t cols) {
  Matrix m(rows, cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) m.at(r, c) = float(r * 100 + c);
  return m;
}

TEST_CASE("one pixel per cell reproduces the matrix, top row first") {
  const Matrix m = ramp(3, 4);
  HeatmapWindow w{0, 4, 0, 3, 4, 3};
  std::vector<float> out;
  sample_heatmap_window(m, w, 3, out);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) CHECK(out[std::size_t(r) * 4 + c] == m.at(r, c));
}

TEST_CASE("a flipped window (row 0 at the bottom) reverses the rows") {
  const Matrix m = ramp(3, 2);
  HeatmapWindow w{0, 2, 3, 0, 2, 3};
  std::vector<float> out;
  sample_heatmap_window(m, w, 1, out);
  CHECK(out[0] == m.at(2, 0));
  CHECK(out[4] == m.at(0, 0));
}

TEST_CASE("zoomed in, several pixels show the same cell") {
  const Matrix m = ramp(2, 2);
  HeatmapWindow w{0, 2, 0, 2, 8, 8};
  std::vector<float> out;
  sample_heatmap_window(m, w, 3, out);
  CHECK(out[0] == m.at(0, 0));
  CHECK(out[3] == m.at(0, 0));
  CHECK(out[4] == m.at(0, 1));
  CHECK(out[8 * 7 + 7] == m.at(1, 1));
}

TEST_CASE("zoomed out, a pixel averages the cells it covers (box filter)") {
  Matrix m(1, 6);
  for (int c = 0; c < 6; ++c) m.at(0, c) = (c % 2) ? 1.0f : -1.0f;  // the fastest possible wave
  HeatmapWindow w{0, 6, 0, 1, 3, 1};
  std::vector<float> out;
  sample_heatmap_window(m, w, 3, out);
  for (int i = 0; i < 3; ++i) CHECK(out[i] == Approx(0.0f));  // fades to its mean, no false slow wave
}

TEST_CASE("pixels outside the matrix and missing cells are NaN") {
  Matrix m(1, 2);
  m.at(0, 0) = 1.0f;
  m.at(0, 1) = NAN;
  HeatmapWindow w{-1, 3, 0, 1, 4, 1};
  std::vector<float> out;
  sample_heatmap_window(m, w, 1, out);
  CHECK(std::isnan(out[0]));
  CHECK(out[1] == 1.0f);
  CHECK(std::isnan(out[2]));
  CHECK(std::isnan(out[3]));
}

TEST_CASE("the output buffer is reused, never shrunk") {
  const Matrix m = ramp(4, 4);
  std::vector<float> out(100, 7.0f);
  const float* before = out.data();
  sample_heatmap_window(m, HeatmapWindow{0, 4, 0, 4, 4, 4}, 1, out);
  CHECK(out.size() == 100);
  CHECK(out.data() == before);
  sample_heatmap_window(m, HeatmapWindow{0, 4, 0, 4, 0, 0}, 1, out);  // nothing to draw
  CHECK(out.size() == 100);
}
