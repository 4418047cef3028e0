// The linear-shift page: PE(p+k) = R(k)·PE(p) for the sidebar's sinusoid (core/encodings/shift_analysis).
#include <algorithm>
#include <cmath>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/shift_analysis.hpp"

namespace peviz::app {

namespace linear_shift_local {  // this page's own names (the pages share a unity batch)
namespace {

void update(AppState& s) {
  LinearShiftOptions& o = s.pages.linear_shift;
  const EncodingParams& params = s.pages.basics.computed;
  o.sinusoidal = params.encoding == Encoding::sinusoidal;
  if (!o.sinusoidal) return;  // the page says why; nothing to compute
  const int L = params.seq_len;
  o.k = std::clamp(o.k, 0, std::max(L - 1, 0));
  o.p = std::clamp(o.p, 0, std::max(L - 1 - o.k, 0));
  EncodingParams longer = params;
  longer.seq_len = std::max(L, o.p + o.k + 1);
  const Matrix pe = encode(longer);
  const std::size_t d = pe.cols;
  o.rk = shift_matrix(params.d_model, params.base, params.layout, double(o.k));
  o.shifted.assign(pe.row(std::size_t(o.p + o.k)), pe.row(std::size_t(o.p + o.k)) + d);
  o.rotated.assign(d, 0.0f);
  apply_matrix(o.rk, pe.row(std::size_t(o.p)), o.rotated.data());
  o.difference.resize(d);
  o.max_error_here = 0.0;
  for (std::size_t c = 0; c < d; ++c) {
    o.difference[c] = o.shifted[c] - o.rotated[c];
    o.max_error_here = std::max(o.max_error_here, double(std::abs(o.difference[c])));
  }
  o.max_error_all_p = L > o.k ? measure_shift_identity(params, o.k).max_abs_error : 0.0;
  set_heatmap(o.rk_image, o.rk, plot::Colormap::diverging, -1.0, 1.0);
}

// Channel rows: PE(p+k), R(k) PE(p), difference.
NdArray export_data(const AppState& s) {
  const LinearShiftOptions& o = s.pages.linear_shift;
  if (!o.sinusoidal) throw ParamError("out", "the linear-shift view needs the sinusoidal encoding");
  return data_columns({o.shifted, o.rotated, o.difference});
}

void heatmaps(PageStates& a, std::vector<plot::HeatmapImage*>& out) { out.push_back(&a.linear_shift.rk_image); }

}  // namespace

// The sidebar's encoding and the page's own p and k (its file name too).
std::string caption(const AppState& s) {
  const LinearShiftOptions& o = s.pages.linear_shift;
  return absolute_caption(s.params) + kCaptionDot + "p = " + std::to_string(o.p) + ", k = " + std::to_string(o.k);
}

constexpr PageSetting kSettings[] = {
    {.key = "p", .help = "The base position p", .access = member<&PageStates::linear_shift, &LinearShiftOptions::p>(),
     .limit = &limits::shift_position},
    {.key = "k", .help = "The offset k: PE(p + k) = R(k) PE(p)", .access = member<&PageStates::linear_shift, &LinearShiftOptions::k>(),
     .limit = &limits::shift_offset},
};
}  // namespace linear_shift_local

extern const PageModel linear_shift_page{.name = "linear-shift", .title = "Linear shift", .json_key = "linear_shift",
                                         .follows_params = true, .update = linear_shift_local::update,
                                         .export_data = linear_shift_local::export_data,
                                         .caption = linear_shift_local::caption, .settings = linear_shift_local::kSettings,
                                         .heatmaps = linear_shift_local::heatmaps, .parts = kLinearShiftParts};

}  // namespace peviz::app
