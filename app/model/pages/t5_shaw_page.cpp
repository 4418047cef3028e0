// The T5 & Shaw page: T5's bucket matrix (HF compute_bias) and Shaw's clipped distances, and bucket against r.
#include <algorithm>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/encodings/shaw.hpp"
#include "core/encodings/t5_buckets.hpp"

namespace peviz::app {

namespace t5_shaw_local {  // this page's own names (the pages share a unity batch)
namespace {

Matrix from_ints(const NdArray& a) {
  Matrix m(a.shape[0], a.shape[1]);
  for (std::size_t i = 0; i < a.i32.size(); ++i) m.data[i] = float(a.i32[i]);
  return m;
}

T5BucketParams t5_params(const T5ShawOptions& o) { return square_t5_params(o.seq_len, o.num_buckets, o.max_distance, o.causal); }
ShawParams shaw_params(const T5ShawOptions& o) { return square_shaw_params(o.seq_len, o.max_relative); }

// T5 needs enough buckets for its exact range and a max distance past that range: a knob moved below
// either is lifted to the smallest valid value, so the page never holds a state core refuses (found by
// peviz --monkey 11: 32 buckets with max distance 4).
void keep_t5_knobs_valid(T5ShawOptions& o) {
  o.num_buckets = std::max(o.num_buckets, t5_min_buckets(!o.causal));
  o.max_distance = std::max(o.max_distance, t5_exact_range(o.num_buckets, !o.causal) + 1);
}

void update(AppState& s) {
  T5ShawOptions& o = s.pages.t5_shaw;
  check_window_int(limits::t5_shaw_seq_len, o.seq_len);
  keep_t5_knobs_valid(o);
  o.buckets = from_ints(t5_bucket_matrix(t5_params(o)));  // validates
  o.shaw = from_ints(shaw_relative_positions(shaw_params(o)));
  o.bucket_of_distance.clear();
  for (int r = -(o.seq_len - 1); r <= o.seq_len - 1; ++r)
    o.bucket_of_distance.push_back(float(t5_relative_position_bucket(r, !o.causal, o.num_buckets, o.max_distance)));
  // Ordered quantities, ordered palettes: bucket ids 0..B-1 sequential (viridis), Shaw's signed clipped
  // distance -k..k diverging around 0.
  set_heatmap(o.buckets_image, o.buckets, plot::Colormap::viridis, -0.5, o.num_buckets - 0.5);
  set_heatmap(o.shaw_image, o.shaw, plot::Colormap::diverging, -o.max_relative - 0.5, o.max_relative + 0.5);
}

// [2, L, L]: T5 bucket ids, then Shaw's clipped distances.
NdArray export_data(const AppState& s) {
  const T5ShawOptions& o = s.pages.t5_shaw;
  if (o.buckets.rows == 0) throw ParamError("out", "nothing computed yet for T5 / Shaw");
  std::vector<float> v(o.buckets.data);
  v.insert(v.end(), o.shaw.data.begin(), o.shaw.data.end());
  return NdArray::from_floats({2, o.buckets.rows, o.buckets.cols}, std::move(v));
}

std::string caption(const AppState& s) {
  const T5ShawOptions& o = s.pages.t5_shaw;
  const std::string dot = kCaptionDot;
  return "T5 " + std::to_string(o.num_buckets) + " buckets, max distance " + std::to_string(o.max_distance) +
         (o.causal ? " (causal)" : "") + dot + "Shaw k " + std::to_string(o.max_relative) + dot + "L " +
         std::to_string(o.seq_len);
}

void check(const PageStates& a) {
  validate(t5_params(a.t5_shaw));
  validate(shaw_params(a.t5_shaw));
}

void heatmaps(PageStates& a, std::vector<plot::HeatmapImage*>& out) {
  out.push_back(&a.t5_shaw.buckets_image);
  out.push_back(&a.t5_shaw.shaw_image);
}

}  // namespace

constexpr PageSetting kSettings[] = {
    {.key = "seq_len", .help = "Queries and keys 0..L-1", .access = member<&PageStates::t5_shaw, &T5ShawOptions::seq_len>(),
     .limit = &limits::t5_shaw_seq_len, .shared_flag = true},
    {.key = "num_buckets", .help = "T5's relative_attention_num_buckets",
     .access = member<&PageStates::t5_shaw, &T5ShawOptions::num_buckets>(), .limit = &limits::num_buckets, .shared_flag = true},
    {.key = "max_distance", .help = "T5's relative_attention_max_distance (log buckets up to it)",
     .access = member<&PageStates::t5_shaw, &T5ShawOptions::max_distance>(), .limit = &limits::t5_max_distance,
     .shared_flag = true},
    {.key = "causal", .help = "T5's causal (unidirectional) buckets", .access = member<&PageStates::t5_shaw, &T5ShawOptions::causal>(),
     .shared_flag = true},
    {.key = "max_relative", .help = "Shaw's clipping distance k", .access = member<&PageStates::t5_shaw, &T5ShawOptions::max_relative>(),
     .limit = &limits::t5_shaw_max_relative, .shared_flag = true},
};
}  // namespace t5_shaw_local

extern const PageModel t5_shaw_page{.name = "t5-shaw", .title = "T5 & Shaw", .json_key = "t5_shaw",
                                    .update = t5_shaw_local::update, .export_data = t5_shaw_local::export_data,
                                    .caption = t5_shaw_local::caption, .settings = t5_shaw_local::kSettings,
                                    .check = t5_shaw_local::check, .heatmaps = t5_shaw_local::heatmaps,
                                    .parts = kT5ShawParts};

}  // namespace peviz::app
