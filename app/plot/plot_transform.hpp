// Data <-> pixel mapping of one plot axis, and the zoom/pan arithmetic: pure functions.
#pragma once

namespace peviz::plot {

// A closed interval of data values shown on an axis (min may exceed max: inverted axis).
struct AxisRange {
  double min = 0.0;
  double max = 1.0;
  double span() const { return max - min; }
};

// Maps data [range.min, range.max] linearly onto pixels [pixel_min, pixel_max].
// For a y axis pass pixel_min = bottom, pixel_max = top so larger values go up.
struct AxisMap {
  AxisRange range;
  float pixel_min = 0.0f;
  float pixel_max = 1.0f;
};

float data_to_pixel(const AxisMap& m, double value);
double pixel_to_data(const AxisMap& m, float pixel);

// Zooms about `anchor` (a data value that stays under the cursor): factor < 1 zooms in.
AxisRange zoom_range(AxisRange r, double anchor, double factor);
// Pans by a pixel drag: the data under the cursor follows it.
AxisRange pan_range(const AxisMap& m, float pixel_delta);
// Keeps a zoomed/panned range from degenerating: at least `min_span` wide, finite.
AxisRange sanitize_range(AxisRange r, AxisRange fallback, double min_span);

}  // namespace peviz::plot
