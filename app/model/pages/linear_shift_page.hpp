// The linear shift page's options and cached results (its update, export, caption and state JSON: linear_shift_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

// The parts a presented lesson step can name in its "show" list (PageModel::parts), in drawing order: vectors: PE(p
// + k) and R(k) PE(p); difference: their difference; rotation: R(k).
inline constexpr const char *kLinearShiftVectors = "vectors",
                            *kLinearShiftDifference = "difference",
                            *kLinearShiftRotation = "rotation";
inline constexpr std::array<const char*, 3> kLinearShiftParts = {
    kLinearShiftVectors,
    kLinearShiftDifference,
    kLinearShiftRotation};

struct LinearShiftOptions {
  int p = int(limits::shift_position.fallback);  // base position
  int k = int(limits::shift_offset.fallback);  // offset
  // cache (sinusoidal table of the sidebar's d_model, base and layout)
  std::vector<float> shifted, rotated, difference;  // PE(p+k), R(k) PE(p), their difference
  Matrix rk;                      // R(k), d x d
  double max_error_here = 0.0;    // max |difference| at this p
  double max_error_all_p = 0.0;   // the same over every p in 0..L-1-k (measure_shift_identity)
  bool sinusoidal = true;
  plot::HeatmapImage rk_image;
};

}  // namespace peviz::app
