// A figure as plain drawing commands (lines, shapes, text, heatmap images, clips) in figure pixels,
// which the ImGui backend draws on screen and the vector writers (SVG, PDF) write. No ImGui, no GL.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/io/png_file.hpp"

namespace peviz::plot {

// Colours are 0xAABBGGRR (ImGui's ImU32 layout, so the screen backend passes them through).
using Rgba = std::uint32_t;
inline constexpr Rgba rgba(int r, int g, int b, int a = 255) {
  return Rgba(r) | Rgba(g) << 8 | Rgba(b) << 16 | Rgba(a) << 24;
}
inline constexpr int red(Rgba c) { return int(c & 0xff); }
inline constexpr int green(Rgba c) { return int(c >> 8 & 0xff); }
inline constexpr int blue(Rgba c) { return int(c >> 16 & 0xff); }
inline constexpr int alpha(Rgba c) { return int(c >> 24 & 0xff); }

// Coordinates: figure pixels, x to the right, y down, origin at the figure's top-left corner.
struct Point {
  float x = 0, y = 0;
  bool operator==(const Point&) const = default;
};

struct Polyline {  // a stroked path through the points (>= 2), optionally closed
  std::vector<Point> points;
  Rgba color = 0;
  float thickness = 1.0f;
  bool closed = false;
};
struct FilledRect {
  Point min, max;
  Rgba color = 0;
  float rounding = 0.0f;  // corner radius
};
struct StrokedRect {
  Point min, max;
  Rgba color = 0;
  float thickness = 1.0f;
  float rounding = 0.0f;
};
// A rectangle whose colour blends linearly between its corners (ImGui's AddRectFilledMultiColor);
// the colourbar uses vertical gradients (top_left == top_right, bottom_left == bottom_right).
struct GradientRect {
  Point min, max;
  Rgba top_left = 0, top_right = 0, bottom_right = 0, bottom_left = 0;
};
struct FilledPolygon {  // convex, points in order
  std::vector<Point> points;
  Rgba color = 0;
};
struct Circle {  // a marker: filled disc, or a ring of the given thickness
  Point center;
  float radius = 1.0f;
  Rgba color = 0;
  bool filled = true;
  float thickness = 1.0f;
};

// Text anchors: which point of the text's line box `position` names. The line box is ImGui's:
// `size` pixels tall (the font's ascender to descender, as stb_truetype scales it), as wide as
// the text. See baseline_offset / em_size for what that means for a vector font size.
enum class HAlign { left, center, right };
enum class VAlign { top, middle, bottom };
struct Text {
  Point position;
  float size = 16.0f;  // line height in pixels (ImGui's font size)
  HAlign h = HAlign::left;
  VAlign v = VAlign::top;
  Rgba color = 0;
  std::string text;  // UTF-8, one line
};

// A heatmap drawn into [min, max]. The cells come from `values` (rows x cols, NaN = missing) seen
// through `cells` (the window in cell units at the rectangle's edges, as on screen), coloured with
// `colormap` over [vmin, vmax] — or, when `resolved` is set, from that image directly. `texture`
// (with uv_max) is the screen backend's handle for the same picture; the vector writers ignore it.
struct HeatmapRect {
  Point min, max;
  HeatmapValues values;
  HeatmapWindow cells;  // width/height unused: resolve_heatmap picks the image size
  Colormap colormap = Colormap::viridis;
  double vmin = 0.0, vmax = 1.0;
  NanMeaning nan_meaning = NanMeaning::missing;
  std::shared_ptr<const RgbaImage> resolved;
  void* texture = nullptr;
  Point uv_max{1.0f, 1.0f};
};

struct PushClip {  // intersected with the current clip until the matching PopClip
  Point min, max;
};
struct PopClip {};

using DrawItem = std::variant<Polyline, FilledRect, StrokedRect, GradientRect, FilledPolygon, Circle, Text, HeatmapRect,
                              PushClip, PopClip>;

struct DisplayList {
  float width = 0, height = 0;  // figure size in pixels
  Rgba background = 0;          // alpha 0: transparent figure
  std::vector<DrawItem> items;  // drawn in order, later on top

  void line(Point a, Point b, Rgba color, float thickness = 1.0f) { items.push_back(Polyline{{a, b}, color, thickness, false}); }
  void text(Point at, float size, Rgba color, std::string s, HAlign h = HAlign::left, VAlign v = VAlign::top) {
    items.push_back(Text{at, size, h, v, color, std::move(s)});
  }
  template <class T>
  void add(T item) { items.push_back(std::move(item)); }
};

// DejaVu Sans (assets/fonts/DejaVuSans.ttf, the font of the window): ascender 1901, descender -483,
// 2048 units per em (its hhea and head tables). stb_truetype scales a "size" of s pixels so that
// ascender - descender = s, so the baseline sits 1901/2384 s below the line's top and the em is
// 2048/2384 s: the font size a vector format must ask for to get ImGui's glyphs.
inline constexpr float kFontAscender = 1901.0f, kFontDescender = -483.0f, kFontUnitsPerEm = 2048.0f;
inline constexpr const char* kFontFamily = "DejaVu Sans";
inline float em_size(float line_height) { return line_height * kFontUnitsPerEm / (kFontAscender - kFontDescender); }
// Where the baseline is, relative to the text's anchor point's y.
float baseline_offset(const Text& t);

// A vector figure leaves out the widgets and text lines drawn above its first plot: moves everything up so
// that the topmost item sits `margin` below the top, and shortens the figure by as much (nothing moves when
// the topmost item is already within the margin). Clip rectangles move with the items.
void trim_top_band(DisplayList& list, float margin);

// `text` as valid UTF-8 without control characters: invalid sequences (and surrogates, overlong
// forms, U+FFFE/U+FFFF) become U+FFFD, controls other than tab and newline are dropped.
std::string sanitize_utf8(std::string_view text);

// The largest heatmap image a vector figure embeds, per side: up to this many cells one image
// pixel is one cell; beyond it, the cells are box-filtered as on screen (sample_heatmap_window).
inline constexpr int kMaxVectorHeatmapSide = 2048;

// The picture of a heatmap at cell resolution (opaque; missing cells in kMissingRGB): every cell the
// window touches, one pixel each up to `max_side` per side, else box-filtered down to max_side.
// [min, max] is where the picture goes: past h.min/h.max where the window cuts a cell (the writer
// clips to h's rectangle). `h.resolved` as it is when set. An empty image: nothing to draw.
struct HeatmapPicture {
  RgbaImage image;
  Point min, max;
};
HeatmapPicture resolve_heatmap(const HeatmapRect& h, int max_side = kMaxVectorHeatmapSide);

}  // namespace peviz::plot
