// Display list helpers: text baselines and heatmap pictures at cell resolution.
#include "app/plot/display_list.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "app/plot/heatmap_sampling.hpp"

namespace peviz::plot {

namespace {

// The filter a heatmap with more cells than kMaxVectorHeatmapSide is drawn with (the screen's kHeatmapMaxSamples:
// the full box filter, the same picture as the window shows).
constexpr int kVectorHeatmapSamples = 4;

// The whole cells an edge-to-edge window [from, to] (either order) touches, within [0, count],
// keeping the direction: from' <= to' when from <= to.
void whole_cells(double from, double to, std::size_t count, double& from_out, double& to_out) {
  const double n = double(count);
  if (from <= to) {
    from_out = std::clamp(std::floor(from), 0.0, n);
    to_out = std::clamp(std::ceil(to), 0.0, n);
  } else {
    from_out = std::clamp(std::ceil(from), 0.0, n);
    to_out = std::clamp(std::floor(to), 0.0, n);
  }
}

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the valid UTF-8 sequence at s[i] (1..4), or 0 when it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const unsigned char c = (unsigned char)s[i];
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  std::uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
  for (std::size_t k = 1; k < n; ++k) {
    if (!is_continuation((unsigned char)s[i + k])) return 0;
    cp = cp << 6 | ((unsigned char)s[i + k] & 0x3F);
  }
  static constexpr std::uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinimum[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF) return 0;
  return n;
}

}  // namespace

std::string sanitize_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    if (n > 1 || (unsigned char)text[i] >= 0x20 || text[i] == '\t' || text[i] == '\n') out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

float baseline_offset(const Text& t) {
  const float ascent = t.size * kFontAscender / (kFontAscender - kFontDescender);
  switch (t.v) {
    case VAlign::top: return ascent;
    case VAlign::middle: return ascent - 0.5f * t.size;
    case VAlign::bottom: return ascent - t.size;
  }
  return ascent;
}

HeatmapPicture resolve_heatmap(const HeatmapRect& h, int max_side) {
  HeatmapPicture out;
  if (h.resolved) {
    out.image = *h.resolved;
    out.min = h.min;
    out.max = h.max;
    return out;
  }
  if (!has_values(h.values) || max_side < 1) return out;
  const HeatmapWindow& c = h.cells;
  if (!(std::isfinite(c.x_left) && std::isfinite(c.x_right) && std::isfinite(c.y_top) && std::isfinite(c.y_bottom)) ||
      c.x_left == c.x_right || c.y_top == c.y_bottom)
    return out;
  HeatmapWindow w;
  whole_cells(c.x_left, c.x_right, value_cols(h.values), w.x_left, w.x_right);
  whole_cells(c.y_top, c.y_bottom, value_rows(h.values), w.y_top, w.y_bottom);
  const double cols = std::abs(w.x_right - w.x_left), rows = std::abs(w.y_bottom - w.y_top);
  if (cols < 1 || rows < 1) return out;
  w.width = int(std::min(cols, double(max_side)));
  w.height = int(std::min(rows, double(max_side)));
  std::vector<float> values;
  sample_heatmap_window(h.values, w, kVectorHeatmapSamples, values);
  out.image.width = w.width;
  out.image.height = w.height;
  out.image.pixels.resize(std::size_t(w.width) * std::size_t(w.height) * 4);
  for (std::size_t i = 0; i < std::size_t(w.width) * std::size_t(w.height); ++i) {
    const Rgba col = std::isnan(values[i]) ? nan_color(h.nan_meaning)
                                           : colormap_color(h.colormap, colormap_position(values[i], h.vmin, h.vmax));
    std::uint8_t* p = &out.image.pixels[4 * i];
    p[0] = std::uint8_t(red(col));
    p[1] = std::uint8_t(green(col));
    p[2] = std::uint8_t(blue(col));
    p[3] = 255;
  }
  // The whole cells reach a little past the rectangle when it cuts cells: place them on the same
  // linear map from cells to pixels (the writer clips to [min, max]).
  const auto x_at = [&](double x) { return float(h.min.x + (x - c.x_left) / (c.x_right - c.x_left) * (h.max.x - h.min.x)); };
  const auto y_at = [&](double y) { return float(h.min.y + (y - c.y_top) / (c.y_bottom - c.y_top) * (h.max.y - h.min.y)); };
  out.min = {x_at(w.x_left), y_at(w.y_top)};
  out.max = {x_at(w.x_right), y_at(w.y_bottom)};
  return out;
}

namespace {

// The points of an item, for reading and moving them.
template <class F>
void for_each_point(DrawItem& item, F f) {
  std::visit([&](auto& d) {
    using T = std::decay_t<decltype(d)>;
    if constexpr (std::is_same_v<T, Polyline> || std::is_same_v<T, FilledPolygon>) {
      for (Point& p : d.points) f(p);
    } else if constexpr (std::is_same_v<T, Circle>) {
      f(d.center);
    } else if constexpr (std::is_same_v<T, Text>) {
      f(d.position);
    } else if constexpr (!std::is_same_v<T, PopClip>) {
      f(d.min);
      f(d.max);
    }
  }, item);
}

}  // namespace

void trim_top_band(DisplayList& list, float margin) {
  float top = list.height;
  for (DrawItem& item : list.items) {
    if (std::holds_alternative<PushClip>(item)) continue;
    float rise = 0.0f;  // how far the item reaches above its anchor point
    if (const Text* t = std::get_if<Text>(&item)) rise = t->v == VAlign::middle ? 0.5f * t->size : t->v == VAlign::bottom ? t->size : 0.0f;
    if (const Circle* c = std::get_if<Circle>(&item)) rise = c->radius;
    for_each_point(item, [&](Point& p) { top = std::min(top, p.y - rise); });
  }
  const float shift = top - margin;
  if (!(shift > 0.0f) || list.items.empty()) return;
  for (DrawItem& item : list.items) for_each_point(item, [&](Point& p) { p.y -= shift; });
  list.height -= shift;
}

}  // namespace peviz::plot
