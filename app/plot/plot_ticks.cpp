// Nice-number axis ticks and tick labels.
#include "app/plot/plot_ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace peviz::plot {

double nice_step(double span, int target_count) {
  span = std::abs(span);
  if (!std::isfinite(span) || span <= 0.0) return 0.0;
  const double raw = span / std::max(target_count, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;  // in [1, 10)
  double nice = 10.0;
  if (fraction < 1.5) nice = 1.0;
  else if (fraction < 3.0) nice = 2.0;
  else if (fraction < 7.0) nice = 5.0;
  return nice * magnitude;
}

namespace {
std::vector<double> ticks_with_step(double lo, double hi, double step) {
  std::vector<double> out;
  if (step <= 0.0 || !std::isfinite(step)) return out;
  if (lo > hi) std::swap(lo, hi);
  const double first = std::ceil(lo / step - 1e-9) * step;
  for (int i = 0; i < 1000; ++i) {
    double v = first + i * step;
    if (v > hi + step * 1e-9) break;
    if (std::abs(v) < step * 1e-9) v = 0.0;  // no "-0" or 1e-17 at the origin
    out.push_back(v);
  }
  return out;
}
}  // namespace

namespace {
// Ticks at the nice step for `target_count`, or for up to 8 times as many when that leaves fewer than two inside
// [lo, hi] (a short axis over 0.5 .. 7 with room for two: step 5 gives only "5"; step 2 gives 2, 4 and 6). One tick
// cannot give the axis a scale. `min_step` > 0: never finer than it (integer axes).
std::vector<double> at_least_two_ticks(double lo, double hi, int target_count, double min_step) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
  std::vector<double> ticks;
  for (int target = std::max(target_count, 1); target <= 8 * std::max(target_count, 1); target *= 2) {
    ticks = ticks_with_step(lo, hi, std::max(min_step, nice_step(hi - lo, target)));
    if (ticks.size() >= 2) break;
  }
  return ticks;
}
}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target_count) { return at_least_two_ticks(lo, hi, target_count, 0.0); }

std::vector<double> nice_integer_ticks(double lo, double hi, int target_count) {
  return at_least_two_ticks(lo, hi, target_count, 1.0);
}

std::vector<int> tile_cell_ticks(double lo, double hi, int period, int target_count) {
  if (period < 2 || !std::isfinite(lo) || !std::isfinite(hi)) return {};
  if (lo > hi) std::swap(lo, hi);
  const double first_tile = std::max(0.0, std::floor(lo / period)), last_tile = std::floor((hi - 0.5) / period);
  if (last_tile < first_tile || last_tile - first_tile > 1e6) return {};
  const int tiles = int(last_tile - first_tile) + 1, side = period - 1, target = std::max(target_count, 1);
  const auto local_ticks = [&](int count) {
    std::vector<int> local;
    const std::vector<double> ticks = nice_integer_ticks(0, side - 1, count);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : double(period);
    for (double v : ticks)  // a tick closer than half a step to the next tile's 0 would collide with its label
      if (v == 0 || v + 0.5 * step <= period) local.push_back(int(std::lround(v)));
    return local;
  };
  // Room for two per tile: each tile its own; room for one: each tile's 0 and the first tile a scale (3 ticks), so
  // that the axis says how far a tile reaches.
  const std::vector<int> each = target >= 2 * tiles && side > 1 ? local_ticks(target / tiles) : std::vector<int>{0};
  const std::vector<int> first = target >= tiles && target < 2 * tiles && side > 1 ? local_ticks(3) : each;
  const int tile_step = std::max(1, (tiles + target - 1) / target);
  std::vector<int> cells;
  for (int t = int(first_tile); t <= int(last_tile); t += tile_step)
    for (int v : t == int(first_tile) ? first : each) {
      const int cell = t * period + v;
      if (v >= 0 && v < side && cell + 0.5 >= lo && cell + 0.5 <= hi) cells.push_back(cell);
    }
  return cells;
}

namespace {

std::string with_true_minus(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '-' ? std::string("\u2212") : std::string(1, c);
  return out;
}

std::string ascii_tick(double value, double step) {
  char buf[64];
  // Within rounding of zero (a tick computed as first + i * step): "0", never "0.00000000".
  const double a = std::abs(value);
  if (a == 0.0 || (step > 0.0 && a < step * 1e-6)) return "0";
  // Tiny or huge steps (and, without a step, tiny or huge values): scientific, with the significant
  // digits that tell ticks `step` apart (5e-08, 1.5e-07; 2e+07).
  const bool scientific = step > 0.0 ? (step < 1e-4 || a >= 1e6) : (a < 1e-4 || a >= 1e6);
  if (scientific) {
    int digits = 3;
    if (step > 0.0) digits = std::clamp(int(std::floor(std::log10(a)) - std::floor(std::log10(step))) + 1, 1, 17);
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, value);
    // Always the exponent form (%g would print 1e-04 as 0.0001 beside 5e-05), without the
    // mantissa's trailing zeros: 1.0e-07 -> 1e-07.
    std::string out = buf;
    const std::size_t e = out.find('e');
    std::size_t end = e;
    while (end > 0 && out[end - 1] == '0') --end;
    if (end > 0 && out[end - 1] == '.') --end;
    return out.erase(end, e - end);
  }
  int decimals = 0;
  if (step > 0.0 && step < 1.0) decimals = std::min(8, int(std::ceil(-std::log10(step) - 1e-9)));
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

}  // namespace

std::string format_tick(double value, double step) { return with_true_minus(ascii_tick(value, step)); }

std::string format_value(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", std::clamp(digits, 1, 17), value);
  return buf;
}

}  // namespace peviz::plot
