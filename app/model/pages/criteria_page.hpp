// The criteria page's options and cached results (its update, export, caption and state JSON: criteria_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/criteria.hpp"
#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

// The parts a presented lesson step can name in its "show" list (PageModel::parts), in drawing order: notes: what
// was measured and the pass thresholds; table: the scorecard; fraction: t/(L-1) at two lengths; integer: the integer t.
inline constexpr const char *kCriteriaNotes = "notes", *kCriteriaTable = "table", *kCriteriaFraction = "fraction",
                            *kCriteriaInteger = "integer";
inline constexpr std::array<const char*, 4> kCriteriaParts = {kCriteriaNotes, kCriteriaTable, kCriteriaFraction,
                                                              kCriteriaInteger};

struct CriteriaOptions {
  // The two lengths of the "same offset" plot.
  int length_a = int(limits::criteria_length.fallback), length_b = int(limits::criteria_length_long.fallback);
  // cache: one report per encoding of core's table (its order) at the sidebar's parameters
  std::vector<CriteriaReport> reports = std::vector<CriteriaReport>(encoding_table().size());
  std::vector<std::string> errors = std::vector<std::string>(encoding_table().size());  // ParamError text: not measured
  int measured_len = 0;                // L used (capped for the O(L^2 d) measurements)
  std::vector<float> normalized_a, normalized_b, integer_values;
};

}  // namespace peviz::app
