// Animated GIFs read back with giflib: frame count, size, delays that add up to the frame rate,
// and colours (composited over the changed rectangles) close to what was written.
#include <catch2/catch.hpp>

#include <filesystem>

#include <gif_lib.h>

#include "app/media/gif_file.hpp"
#include "app/plot/colormap.hpp"
#include "core/base/errors.hpp"
#include "tests/temp_path.hpp"

using namespace peviz;
using namespace peviz::media;

namespace {

// Frame f: a viridis colour bar across the top half, a dark lower half with a white 8 x 8 square
// moving right by 4 px per frame.
RgbaImage test_frame(int w, int h, int f) {
  RgbaImage img{w, h, std::vector<std::uint8_t>(std::size_t(w) * std::size_t(h) * 4)};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = &img.pixels[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
      const bool square = y >= h / 2 + 4 && y < h / 2 + 12 && x >= 4 * f && x < 4 * f + 8;
      if (y < h / 2) {
        const auto* c = plot::kColormapRGB[0][x * 255 / (w - 1)];
        p[0] = c[0], p[1] = c[1], p[2] = c[2];
      } else {
        p[0] = p[1] = p[2] = square ? 255 : 20;
      }
      p[3] = 255;
    }
  return img;
}

struct GifCloser {
  void operator()(GifFileType* g) const {
    int e;
    DGifCloseFile(g, &e);
  }
};

}  // namespace

TEST_CASE("GIF frame delays add up to the asked rate") {
  for (int fps : {1, 7, 24, 25, 30, 50}) {
    int total = 0;
    for (int i = 0; i < 3 * fps; ++i) {
      const int d = gif_frame_delay(i, fps);
      CHECK(d >= 2);
      total += d;
    }
    CHECK(total == 300);  // 3 seconds
  }
  CHECK(gif_frame_delay(0, 30) == 3);
  CHECK(gif_frame_delay(1, 30) == 4);
}

TEST_CASE("a GIF reads back with its frames, size, delays and colours") {
  const int w = 128, h = 48, n = 12, fps = 30;
  GifWriter gif(w, h, fps);
  for (int f = 0; f < n; ++f) gif.add_frame(test_frame(w, h, f));
  const std::string path = unique_temp_path("gif-test-anim.gif");
  gif.write(path);

  int err = 0;
  std::unique_ptr<GifFileType, GifCloser> g(DGifOpenFileName(path.c_str(), &err));
  REQUIRE(g);
  REQUIRE(DGifSlurp(g.get()) == GIF_OK);
  CHECK(g->SWidth == w);
  CHECK(g->SHeight == h);
  REQUIRE(g->ImageCount == n);
  REQUIRE(g->SColorMap);
  int total_delay = 0;
  std::vector<int> canvas(std::size_t(w) * std::size_t(h), 0);  // palette indices, composited
  for (int f = 0; f < n; ++f) {
    GraphicsControlBlock gcb;
    REQUIRE(DGifSavedExtensionToGCB(g.get(), f, &gcb) == GIF_OK);
    total_delay += gcb.DelayTime;
    const SavedImage& im = g->SavedImages[f];
    const GifImageDesc& d = im.ImageDesc;
    if (f > 0) CHECK(d.Width * d.Height < w * h / 4);  // only the moving square's rectangle
    for (int y = 0; y < d.Height; ++y)
      for (int x = 0; x < d.Width; ++x)
        canvas[std::size_t(d.Top + y) * std::size_t(w) + std::size_t(d.Left + x)] = im.RasterBits[y * d.Width + x];
    const RgbaImage want = test_frame(w, h, f);
    int worst = 0;
    for (std::size_t i = 0; i < canvas.size(); ++i) {
      const GifColorType c = g->SColorMap->Colors[canvas[i]];
      worst = std::max({worst, std::abs(c.Red - want.pixels[4 * i]), std::abs(c.Green - want.pixels[4 * i + 1]),
                        std::abs(c.Blue - want.pixels[4 * i + 2])});
    }
    INFO("frame " << f);
    CHECK(worst <= 2);  // 128 viridis entries + 2 greys: fewer than 256 colours, nearly exact
  }
  CHECK(total_delay == 40);  // 12 frames at 30 fps = 0.4 s
  std::filesystem::remove(path);
}

TEST_CASE("the GIF writer refuses what it cannot do, leaving no file") {
  CHECK_THROWS_AS(GifWriter(0, 10, 10), ParamError);
  CHECK_THROWS_AS(GifWriter(10, 10, 0), ParamError);
  CHECK_THROWS_WITH(GifWriter(10, 10, 60), Catch::Contains("1 to 50 frames per second"));
  GifWriter gif(16, 16, 10);
  CHECK_THROWS_AS(gif.add_frame(test_frame(32, 16, 0)), ParamError);
  const std::string path = unique_temp_path("gif-test-empty.gif");
  CHECK_THROWS_AS(gif.write(path), ParamError);
  CHECK_FALSE(std::filesystem::exists(path));
  gif.add_frame(test_frame(16, 16, 0));
  CHECK_THROWS_AS(gif.write("/nonexistent-folder/x.gif"), ParamError);
}
