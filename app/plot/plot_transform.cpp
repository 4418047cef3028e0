// Linear axis mapping and zoom/pan arithmetic for the plotting layer.
#include "app/plot/plot_transform.hpp"

#include <cmath>

namespace peviz::plot {

float data_to_pixel(const AxisMap& m, double value) {
  const double span = m.range.span();
  if (span == 0.0) return 0.5f * (m.pixel_min + m.pixel_max);
  const double t = (value - m.range.min) / span;
  return float(m.pixel_min + t * (double(m.pixel_max) - m.pixel_min));
}

double pixel_to_data(const AxisMap& m, float pixel) {
  const double pixels = double(m.pixel_max) - m.pixel_min;
  if (pixels == 0.0) return m.range.min;
  const double t = (double(pixel) - m.pixel_min) / pixels;
  return m.range.min + t * m.range.span();
}

AxisRange zoom_range(AxisRange r, double anchor, double factor) {
  return {anchor + (r.min - anchor) * factor, anchor + (r.max - anchor) * factor};
}

AxisRange pan_range(const AxisMap& m, float pixel_delta) {
  const double pixels = double(m.pixel_max) - m.pixel_min;
  if (pixels == 0.0) return m.range;
  const double shift = -pixel_delta / pixels * m.range.span();
  return {m.range.min + shift, m.range.max + shift};
}

AxisRange sanitize_range(AxisRange r, AxisRange fallback, double min_span) {
  if (!std::isfinite(r.min) || !std::isfinite(r.max)) return fallback;
  if (std::abs(r.span()) < min_span) {
    const double mid = 0.5 * (r.min + r.max);
    const double half = 0.5 * min_span * (r.span() < 0 ? -1.0 : 1.0);
    return {mid - half, mid + half};
  }
  return r;
}

}  // namespace peviz::plot
