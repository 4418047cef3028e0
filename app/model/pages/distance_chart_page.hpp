// The distance chart page's options and cached results (its update, export, caption and state JSON: distance_chart_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/encodings/distance_series.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

struct DistanceChartOptions {
  DistanceSeriesParams params;
  bool from_model = false;        // params.rope is the loaded model's rotary dim, base and pairing (unscaled)
  std::vector<bool> shown;        // per series (legend toggles); grows with the series list
  // cache
  DistanceSeries series;
  Matrix normalised;
  // While the page follows a model whose RoPE layers (of the layer type shown) attend in chunks or a sliding
  // window: its size (0 = none; the chart marks r = +-span_window) and a sentence saying so.
  int span_window = 0;
  std::string span_note;
};

}  // namespace peviz::app
