// Tests for app/plot/heatmap_sampling: one value per pixel, box filter, NaN outside, Toeplitz sources.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "app/plot/heatmap_image.hpp"
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
  REQUIRE(out.size() > 4);
  CHECK(out[0] == m.at(2, 0));
  CHECK(out[4] == m.at(0, 0));
}

TEST_CASE("zoomed in, several pixels show the same cell") {
  const Matrix m = ramp(2, 2);
  HeatmapWindow w{0, 2, 0, 2, 8, 8};
  std::vector<float> out;
  sample_heatmap_window(m, w, 3, out);
  REQUIRE(out.size() > 4);
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

TEST_CASE("a little more than a cell per pixel: alternating columns fade everywhere, a ramp stays a ramp") {
  // An interleaved table's sin/cos columns at d_model 1448 on 1300 pixels: two samples a pixel fell sometimes in
  // one cell, sometimes in two, and drew false bands of +-1 between grey ones.
  constexpr int cols = 1448, pixels = 1300;
  Matrix alternating(1, cols), ramp(1, cols);
  for (int c = 0; c < cols; ++c) alternating.at(0, c) = (c % 2) ? 1.0f : -1.0f, ramp.at(0, c) = float(c);
  const HeatmapWindow w{0, double(cols), 0, 1, pixels, 1};
  std::vector<float> out;
  sample_heatmap_window(alternating, w, 4, out);
  float worst = 0.0f;
  for (int i = 1; i < pixels - 1; ++i) worst = std::max(worst, std::abs(out[std::size_t(i)]));  // the edge pixels' boxes lose cells
  CHECK(worst < 1e-5f);
  sample_heatmap_window(ramp, w, 4, out);
  for (int i = 2; i < pixels - 2; ++i) {  // away from the edges, where the box loses cells
    INFO("pixel " << i);
    CHECK(out[std::size_t(i)] == Approx((i + 0.5) * cols / pixels - 0.5).margin(1e-3));  // the centre's value
  }
  // The draft while dragging (one sample a pixel) takes the cell under the centre, as before.
  sample_heatmap_window(ramp, w, 1, out);
  CHECK(out[10] == std::floor((10 + 0.5) * cols / pixels));
}

TEST_CASE("pixels outside the matrix and missing cells are NaN") {
  Matrix m(1, 2);
  m.at(0, 0) = 1.0f;
  m.at(0, 1) = NAN;
  HeatmapWindow w{-1, 3, 0, 1, 4, 1};
  std::vector<float> out;
  sample_heatmap_window(m, w, 1, out);
  REQUIRE(out.size() > 3);
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

TEST_CASE("a Toeplitz similarity resamples to the same pixels as its materialised matrix") {
  for (int d : {64, 33}) {
    EncodingParams p;
    p.d_model = d;
    p.seq_len = 500;
    p.base = 300.0;
    const ToeplitzSimilarity t = sinusoidal_similarity_toeplitz(p, Metric::cosine);
    Matrix m;
    sinusoidal_similarity(p, Metric::cosine, m);
    // Zoomed out (box filter over 4 x 4 cells), zoomed in past the edge (NaN), and a flipped window.
    for (const HeatmapWindow& w : {HeatmapWindow{0, 500, 0, 500, 120, 90}, HeatmapWindow{450, 520, 10, 30, 64, 40},
                                   HeatmapWindow{0, 500, 500, 0, 77, 77}}) {
      std::vector<float> from_matrix, from_toeplitz, from_variant;
      sample_heatmap_window(m, w, 4, from_matrix);
      sample_heatmap_window(t, w, 4, from_toeplitz);
      sample_heatmap_window(HeatmapValues(&t), w, 4, from_variant);
      INFO("d " << d << " window " << w.x_left << ".." << w.x_right);
      REQUIRE(from_matrix.size() == from_toeplitz.size());
      for (std::size_t i = 0; i < from_matrix.size(); ++i) {
        if (std::isnan(from_matrix[i])) {
          REQUIRE(std::isnan(from_toeplitz[i]));
        } else {
          REQUIRE(from_toeplitz[i] == from_matrix[i]);
        }
      }
      CHECK(std::memcmp(from_variant.data(), from_toeplitz.data(), from_toeplitz.size() * sizeof(float)) == 0);
    }
  }
  std::vector<float> untouched(4, 7.0f);
  sample_heatmap_window(HeatmapValues(static_cast<const Matrix*>(nullptr)), HeatmapWindow{0, 1, 0, 1, 2, 2}, 1, untouched);
  REQUIRE(untouched.size() > 0);
  CHECK(untouched[0] == 7.0f);  // no source: nothing sampled
}

TEST_CASE("heatmap textures: each side rounded up to a multiple of 128, at most the largest image side") {
  CHECK(heatmap_texture_size(0, 0) == TextureSize{128, 128});
  CHECK(heatmap_texture_size(128, 1) == TextureSize{128, 128});
  CHECK(heatmap_texture_size(129, 300) == TextureSize{256, 384});
  CHECK(heatmap_texture_size(1500, 200) == TextureSize{1536, 256});  // wide and short: no square
  CHECK(heatmap_texture_size(2000, 2047) == TextureSize{2048, 2048});
  CHECK(heatmap_texture_size(2048, 5000) == TextureSize{2048, 2048});  // the plot layer caps images first
  for (int w = 1; w <= kMaxHeatmapImageSide; w += 37)
    for (int h = 1; h <= kMaxHeatmapImageSide; h += 41) {
      const TextureSize t = heatmap_texture_size(w, h);
      CHECK((t.width >= w && t.height >= h));                                    // it holds the image
      CHECK((t.width % kHeatmapTextureStep == 0 && t.height % kHeatmapTextureStep == 0));
      CHECK((t.width - w < kHeatmapTextureStep && t.height - h < kHeatmapTextureStep));  // the smallest such
    }
}
