// The criteria of a good position encoding (unique, consistent distance, bounded, deterministic,
// extrapolation) measured as numbers for any absolute encoding at a given length.
#pragma once
#include <string>

#include "core/encodings/params.hpp"

namespace peviz {

struct CriteriaReport {
  // Unique: every position gets its own vector. Smallest Euclidean distance between two distinct
  // positions, and where it occurs.
  double min_distance = 0.0;
  int closest_p = 0, closest_q = 0;
  bool unique = false;

  // Consistent distance: |PE(t+k) - PE(t)| should depend on k only, not on t nor on L.
  // spread_over_t: max over k = 1..K of (max_t - min_t) / mean_t of that distance.
  // change_with_length: relative change of the mean distance at offset 1 between L and 2L.
  double spread_over_t = 0.0;
  double change_with_length = 0.0;
  bool consistent = false;

  // Bounded: max |value| at L, 2L and 4L; growth = max_abs(4L) / max_abs(L).
  double max_abs = 0.0, max_abs_2l = 0.0, max_abs_4l = 0.0, growth = 0.0;
  bool bounded = false;

  // Deterministic: the same parameters give a bit-identical table.
  bool deterministic = false;

  // Extrapolation: defined for positions beyond the length it was built for?
  bool extrapolates = false;
  std::string extrapolation_note;
};

// Throws ParamError for invalid parameters. Cost O(L^2 d) for non-sinusoidal encodings.
CriteriaReport measure_criteria(const EncodingParams& p);

}  // namespace peviz
