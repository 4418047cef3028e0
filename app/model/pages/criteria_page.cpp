// The criteria page: unique, consistent distance, bounded, deterministic and extrapolation for every encoding.
#include <algorithm>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"

namespace peviz::app {

namespace criteria_local {  // this page's own names (the pages share a unity batch)
namespace {

// Criteria cost O(L^2 d) for non-sinusoidal tables: the scorecard measures at most this many positions.
constexpr int kCriteriaMaxLen = 512;

std::vector<float> normalized_positions(int L) {
  std::vector<float> v(static_cast<std::size_t>(L));
  for (int t = 0; t < L; ++t) v[std::size_t(t)] = L > 1 ? float(t) / float(L - 1) : 0.0f;
  return v;
}

void update(AppState& s) {
  const BasicsOptions& basics = s.pages.basics;
  CriteriaOptions& o = s.pages.criteria;
  o.measured_len = std::min(basics.computed.seq_len, kCriteriaMaxLen);
  const auto table = encoding_table();
  o.reports.assign(table.size(), CriteriaReport{});
  o.errors.assign(table.size(), std::string());
  for (std::size_t e = 0; e < table.size(); ++e) {
    EncodingParams p = basics.computed;
    p.encoding = table[e].id;
    p.seq_len = o.measured_len;
    if (table[e].inputs.table)  // a table has no rows past its length: measure inside it
      p.seq_len = std::min(p.seq_len, p.learned_table ? int(p.learned_table->rows) : p.max_len);
    try {
      o.reports[e] = measure_criteria(p);
    } catch (const ParamError& err) {
      o.errors[e] = err.what();
    }
  }
  check_int(limits::criteria_length, o.length_a);
  check_int(limits::criteria_length, o.length_b);
  o.normalized_a = normalized_positions(o.length_a);
  o.normalized_b = normalized_positions(o.length_b);
  const int n = std::max(o.length_a, o.length_b) * 4;
  o.integer_values.resize(std::size_t(n));
  for (int t = 0; t < n; ++t) o.integer_values[std::size_t(t)] = float(t);
}

// One row per encoding of core's table, in its order; columns: unique, min distance,
// consistent, spread over t, change with length, bounded, max |value|, growth, deterministic, extrapolates.
NdArray export_data(const AppState& s) {
  std::vector<std::vector<float>> cols(10);
  for (const CriteriaReport& r : s.pages.criteria.reports) {
    const double v[10] = {double(r.unique), r.min_distance, double(r.consistent), r.spread_over_t, r.change_with_length,
                          double(r.bounded), r.max_abs, r.growth, double(r.deterministic), double(r.extrapolates)};
    for (std::size_t c = 0; c < 10; ++c) cols[c].push_back(float(v[c]));
  }
  return data_columns(cols);
}

}  // namespace

// The sidebar's encoding and the page's own two lengths (its file name too).
std::string caption(const AppState& s) {
  const CriteriaOptions& o = s.pages.criteria;
  return absolute_caption(s.params) + kCaptionDot + "lengths " + std::to_string(o.length_a) + ", " +
         std::to_string(o.length_b);
}

constexpr PageSetting kSettings[] = {
    {.key = "length_a", .help = "The shorter of the two lengths the same-offset plot compares",
     .access = member<&PageStates::criteria, &CriteriaOptions::length_a>(), .limit = &limits::criteria_length},
    {.key = "length_b", .help = "The longer of the two lengths the same-offset plot compares",
     .access = member<&PageStates::criteria, &CriteriaOptions::length_b>(), .limit = &limits::criteria_length_long},
};
}  // namespace criteria_local

extern const PageModel criteria_page{.name = "criteria", .title = "Criteria", .json_key = "criteria",
                                     .follows_params = true, .update = criteria_local::update,
                                     .export_data = criteria_local::export_data, .caption = criteria_local::caption,
                                     .settings = criteria_local::kSettings, .parts = kCriteriaParts};

}  // namespace peviz::app
