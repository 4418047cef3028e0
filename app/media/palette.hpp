// One shared palette of at most 256 colours for all frames of a GIF: every colour the frames use is
// counted; the most frequent colours (backgrounds, widget frames and outlines, series) keep entries of
// their own, so do the colour ramps (heatmap colormaps) the frames show, sampled evenly; the rest of the
// colour cube is cut where the set is widest (Heckbert's median cut, "Color image quantization for frame
// buffer display", SIGGRAPH 1982, splitting each box at the middle of its widest channel instead of at
// the median, which bounds the worst error rather than the mean one). Without the first two, the many
// colours of cross-faded frames took the entries: colour bars banded and light widgets vanished.
// No dithering: dither noise crawls from frame to frame in an animation.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace peviz::media {

using Rgb = std::array<std::uint8_t, 3>;

// Which 24-bit colours occur (and how often, saturating at 65535) in the frames added so far.
struct ColorCounts {
  std::vector<std::uint16_t> count = std::vector<std::uint16_t>(std::size_t(1) << 24, 0);  // 32 MiB, once per GIF
  void add(const std::uint8_t* rgba, std::size_t pixels);  // RGBA bytes; alpha ignored
};

// A colour ramp a frame may show (a colormap's entries, low to high).
using Ramp = std::vector<Rgb>;

// At most max_colors colours (1..256): every colour when there are that few. Else, in this order:
// the max_colors / 4 most frequent colours exactly; for each ramp that at least 0.5% of the other
// pixels lie on (within 3 per channel of an entry), evenly spaced entries of the ramp (half of
// max_colors among the ramps used, at most 96 each); then one entry per box of the median cut of the
// colours left: its dominant colour when one holds most of its pixels, else the box's centre (which
// bounds the worst error). Empty counts give one black entry.
std::vector<Rgb> build_palette(const ColorCounts& counts, int max_colors = 256, const std::vector<Ramp>& ramps = {});

// The index of the palette entry nearest (squared RGB distance) to each colour, memoised.
struct PaletteLookup {
  explicit PaletteLookup(std::vector<Rgb> palette);
  std::uint8_t index(std::uint8_t r, std::uint8_t g, std::uint8_t b);
  const std::vector<Rgb>& palette() const { return colors; }

 private:
  std::vector<Rgb> colors;
  std::vector<std::uint16_t> cache;  // 2^24 entries, 0xFFFF = not looked up yet
};

}  // namespace peviz::media
