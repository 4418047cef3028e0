// Animated GIF files (giflib): frames in as RGBA buffers, one shared palette over all of them
// (palette.hpp), frame delays that add up to the asked frame rate, written atomically.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/media/palette.hpp"
#include "core/io/png_file.hpp"

namespace peviz::media {

// GIF delays are whole hundredths of a second, and browsers slow anything under 2 down to 10:
// 50 frames per second is the fastest a GIF plays as asked.
inline constexpr int kMaxGifFps = 50;

// Delay of frame `index` in hundredths of a second: round(100 (i + 1) / fps) - round(100 i / fps),
// so that the first n frames last round(100 n / fps) hundredths (30 fps: 3, 4, 3, 3, 4, 3, ...).
int gif_frame_delay(int index, int fps);

// Collects frames, then writes them. Frames are kept deflated (zlib) until write(): a few MiB for
// a minute of a figure, not width * height * 4 bytes each.
class GifWriter {
 public:
  // Throws ParamError("width" | "height" | "fps", ...) for sizes outside [1, kMaxPngSide] or fps
  // outside [1, kMaxGifFps]. `ramps`: the colormaps the frames may show (build_palette keeps entries
  // for those they do show).
  GifWriter(int width, int height, int fps, std::vector<Ramp> ramps = {});
  // Throws ParamError("frames", ...) for a frame of another size.
  void add_frame(const RgbaImage& frame);
  int frame_count() const { return int(frames_.size()); }
  // Builds the palette, encodes (each frame after the first stores only the rectangle that changed),
  // loops forever, writes atomically. Throws ParamError(param, ...); nothing is left behind then.
  void write(const std::string& path, const std::string& param = "out");
  // The encoded file, as write() stores it.
  std::string encode();

 private:
  int width_, height_, fps_;
  std::vector<Ramp> ramps_;
  ColorCounts counts_;
  std::vector<std::string> frames_;  // RGBA, deflated
};

}  // namespace peviz::media
