// Median-cut palette over the colours of all frames, and memoised nearest-colour lookup.
#include "app/media/palette.hpp"

#include <algorithm>
#include <limits>

namespace peviz::media {

namespace {

constexpr std::uint64_t kFlatShare = 8192;    // a flat colour covers at least 1/8192 of the counted pixels
constexpr int kRampReach = 3;                  // a colour within 3 per channel of a ramp's entry lies on it
constexpr std::uint64_t kRampShare = 200;      // a ramp is used when 1/200 (0.5%) of the pixels lie on it
constexpr std::size_t kMaxRampEntries = 96;    // entries per ramp: steps of ~3 table entries, about one JND

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

// One entry per box of the median cut of `e` (reordered), at most `slots` boxes; nothing for no colours.
std::vector<Rgb> median_cut(std::vector<Entry>& e, int slots) {
  if (e.empty() || slots < 1) return {};
  std::vector<Box> boxes = {make_box(e, 0, e.size())};
  while (int(boxes.size()) < slots) {
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
  std::vector<Rgb> out;
  for (const Box& b : boxes) out.push_back(box_colour(e, b));
  return out;
}

Rgb rgb_of(const Entry& x) { return {std::uint8_t(x.channel(0)), std::uint8_t(x.channel(1)), std::uint8_t(x.channel(2))}; }

// Up to n of the most frequent colours, each covering at least 1/kFlatShare of the counted pixels
// (flat fills: backgrounds, widget frames, outlines, series), removed from `e`. Ties go to the lower
// colour value, so the palette does not depend on the order of equal counts.
std::vector<Rgb> take_frequent(std::vector<Entry>& e, std::size_t n) {
  std::uint64_t total = 0;
  for (const Entry& x : e) total += x.count;
  const auto more_frequent = [](const Entry& a, const Entry& b) { return a.count != b.count ? a.count > b.count : a.rgb < b.rgb; };
  n = std::min(n, e.size());
  std::partial_sort(e.begin(), e.begin() + std::ptrdiff_t(n), e.end(), more_frequent);
  std::size_t taken = 0;
  while (taken < n && std::uint64_t(e[taken].count) * kFlatShare >= total) ++taken;
  std::vector<Rgb> out;
  for (std::size_t i = 0; i < taken; ++i) out.push_back(rgb_of(e[i]));
  e.erase(e.begin(), e.begin() + std::ptrdiff_t(taken));
  return out;
}

// Marks, per colour, which ramps (bit r for ramp r < 8) have an entry within kRampReach per channel.
std::vector<std::uint8_t> ramp_marks(const std::vector<Ramp>& ramps) {
  std::vector<std::uint8_t> marks(std::size_t(1) << 24, 0);
  for (std::size_t r = 0; r < std::min<std::size_t>(ramps.size(), 8); ++r)
    for (const Rgb& c : ramps[r])
      for (int dr = -kRampReach; dr <= kRampReach; ++dr)
        for (int dg = -kRampReach; dg <= kRampReach; ++dg)
          for (int db = -kRampReach; db <= kRampReach; ++db) {
            const int x = c[0] + dr, y = c[1] + dg, z = c[2] + db;
            if (x < 0 || y < 0 || z < 0 || x > 255 || y > 255 || z > 255) continue;
            marks[std::size_t(x) | std::size_t(y) << 8 | std::size_t(z) << 16] |= std::uint8_t(1u << r);
          }
  return marks;
}

// k entries of a ramp, evenly spaced from its first to its last.
std::vector<Rgb> sample_ramp(const Ramp& ramp, std::size_t k) {
  std::vector<Rgb> out;
  for (std::size_t i = 0; i < k; ++i) out.push_back(ramp[k < 2 ? 0 : (i * (ramp.size() - 1) + (k - 1) / 2) / (k - 1)]);
  return out;
}

// Entries for the ramps that at least 1/kRampShare of the pixels in `e` lie on, `budget` in all (at most
// kMaxRampEntries each); the colours on a used ramp are removed from `e`, the ramp's entries stand for them.
std::vector<Rgb> take_ramps(std::vector<Entry>& e, const std::vector<Ramp>& ramps, std::size_t budget) {
  if (ramps.empty() || e.empty()) return {};
  const std::vector<std::uint8_t> marks = ramp_marks(ramps);
  std::vector<std::uint64_t> on(8, 0);
  std::uint64_t total = 0;
  for (const Entry& x : e) {
    total += x.count;
    for (std::size_t r = 0; r < 8; ++r)
      if (marks[x.rgb] >> r & 1) on[r] += x.count;
  }
  std::uint8_t used = 0;
  for (std::size_t r = 0; r < std::min<std::size_t>(ramps.size(), 8); ++r)
    if (!ramps[r].empty() && on[r] * kRampShare >= total) used |= std::uint8_t(1u << r);
  const auto used_count = std::size_t(__builtin_popcount(used));
  if (used_count == 0) return {};
  const std::size_t each = std::min(kMaxRampEntries, budget / used_count);
  std::vector<Rgb> out;
  for (std::size_t r = 0; r < 8; ++r)
    if (used >> r & 1) {
      const std::vector<Rgb> s = sample_ramp(ramps[r], each);
      out.insert(out.end(), s.begin(), s.end());
    }
  e.erase(std::remove_if(e.begin(), e.end(), [&](const Entry& x) { return (marks[x.rgb] & used) != 0; }), e.end());
  return out;
}

}  // namespace

void ColorCounts::add(const std::uint8_t* rgba, std::size_t pixels) {
  for (std::size_t i = 0; i < pixels; ++i, rgba += 4) {
    std::uint16_t& n = count[std::size_t(rgba[0]) | std::size_t(rgba[1]) << 8 | std::size_t(rgba[2]) << 16];
    if (n < 0xFFFF) ++n;
  }
}

std::vector<Rgb> build_palette(const ColorCounts& counts, int max_colors, const std::vector<Ramp>& ramps) {
  max_colors = std::clamp(max_colors, 1, 256);
  std::vector<Entry> e;
  for (std::uint32_t rgb = 0; rgb < counts.count.size(); ++rgb)
    if (counts.count[rgb]) e.push_back({rgb, counts.count[rgb]});
  if (e.empty()) return {Rgb{0, 0, 0}};
  std::vector<Rgb> palette;
  if (e.size() > std::size_t(max_colors)) {
    palette = take_frequent(e, std::size_t(max_colors) / 4);
    const std::vector<Rgb> on_ramps = take_ramps(e, ramps, std::size_t(max_colors) / 2);
    palette.insert(palette.end(), on_ramps.begin(), on_ramps.end());
  }
  const std::vector<Rgb> cut = median_cut(e, max_colors - int(palette.size()));
  palette.insert(palette.end(), cut.begin(), cut.end());
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
