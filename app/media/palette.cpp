// Median-cut palette over the colours of all frames, and memoised nearest-colour lookup.
#include "app/media/palette.hpp"

#include <algorithm>
#include <limits>

namespace peviz::media {

namespace {

struct Entry {
  std::uint32_t rgb;  // r | g << 8 | b << 16
  std::uint32_t count;
  int channel(int c) const { return int(rgb >> (8 * c) & 0xFF); }
};

struct Box {
  std::size_t begin, end;  // entries [begin, end)
  int lo[3], hi[3];
  int widest() const {
    int c = 0;
    for (int k = 1; k < 3; ++k)
      if (hi[k] - lo[k] > hi[c] - lo[c]) c = k;
    return c;
  }
  int extent() const { return hi[widest()] - lo[widest()]; }
};

Box make_box(const std::vector<Entry>& e, std::size_t begin, std::size_t end) {
  Box b{begin, end, {255, 255, 255}, {0, 0, 0}};
  for (std::size_t i = begin; i < end; ++i)
    for (int c = 0; c < 3; ++c) {
      b.lo[c] = std::min(b.lo[c], e[i].channel(c));
      b.hi[c] = std::max(b.hi[c], e[i].channel(c));
    }
  return b;
}

// The colour a box stands for. A box that one colour dominates (more than half its pixels: a flat
// background with its anti-aliased edges) keeps that colour exactly. Otherwise the centre of the
// bounding box: nearest, in the worst case, to every colour in it (half its extent per channel),
// so a gradient's error stays bounded, where a mean would favour frequent colours over rare ones.
Rgb box_colour(const std::vector<Entry>& e, const Box& b) {
  std::uint64_t total = 0;
  std::size_t top = b.begin;
  for (std::size_t i = b.begin; i < b.end; ++i) {
    total += e[i].count;
    if (e[i].count > e[top].count) top = i;
  }
  if (2 * std::uint64_t(e[top].count) > total)
    return {std::uint8_t(e[top].channel(0)), std::uint8_t(e[top].channel(1)), std::uint8_t(e[top].channel(2))};
  Rgb out{};
  for (int c = 0; c < 3; ++c) out[std::size_t(c)] = std::uint8_t((b.lo[c] + b.hi[c] + 1) / 2);
  return out;
}

}  // namespace

void ColorCounts::add(const std::uint8_t* rgba, std::size_t pixels) {
  for (std::size_t i = 0; i < pixels; ++i, rgba += 4) {
    std::uint16_t& n = count[std::size_t(rgba[0]) | std::size_t(rgba[1]) << 8 | std::size_t(rgba[2]) << 16];
    if (n < 0xFFFF) ++n;
  }
}

std::vector<Rgb> build_palette(const ColorCounts& counts, int max_colors) {
  max_colors = std::clamp(max_colors, 1, 256);
  std::vector<Entry> e;
  for (std::uint32_t rgb = 0; rgb < counts.count.size(); ++rgb)
    if (counts.count[rgb]) e.push_back({rgb, counts.count[rgb]});
  if (e.empty()) return {Rgb{0, 0, 0}};
  std::vector<Box> boxes = {make_box(e, 0, e.size())};
  while (int(boxes.size()) < max_colors) {
    // The box spanning the widest range of one channel: halving it shrinks the worst error most.
    const auto widest = std::max_element(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) { return a.extent() < b.extent(); });
    if (widest->extent() == 0) break;  // every box holds one colour
    const Box b = *widest;
    const int c = b.widest(), middle = (b.lo[c] + b.hi[c] + 1) / 2;
    const auto split = std::partition(e.begin() + std::ptrdiff_t(b.begin), e.begin() + std::ptrdiff_t(b.end),
                                      [&](const Entry& x) { return x.channel(c) < middle; });
    const std::size_t mid = std::size_t(split - e.begin());
    *widest = make_box(e, b.begin, mid);
    boxes.push_back(make_box(e, mid, b.end));
  }
  std::vector<Rgb> palette;
  for (const Box& b : boxes) palette.push_back(box_colour(e, b));
  return palette;
}

PaletteLookup::PaletteLookup(std::vector<Rgb> palette)
    : colors(std::move(palette)), cache(std::size_t(1) << 24, 0xFFFF) {}

std::uint8_t PaletteLookup::index(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  std::uint16_t& slot = cache[std::size_t(r) | std::size_t(g) << 8 | std::size_t(b) << 16];
  if (slot != 0xFFFF) return std::uint8_t(slot);
  int best = 0, best_d = std::numeric_limits<int>::max();
  for (std::size_t i = 0; i < colors.size(); ++i) {
    const int dr = int(colors[i][0]) - r, dg = int(colors[i][1]) - g, db = int(colors[i][2]) - b;
    const int d = dr * dr + dg * dg + db * db;
    if (d < best_d) {
      best_d = d;
      best = int(i);
    }
  }
  slot = std::uint16_t(best);
  return std::uint8_t(best);
}

}  // namespace peviz::media
