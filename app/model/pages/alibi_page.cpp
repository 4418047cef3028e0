// The ALiBi page: slopes per head, one head's bias and every head tiled (Press et al. 2022; causal -m·(i-j)).
#include <algorithm>
#include <cmath>
#include <limits>

#include "app/model/app_update.hpp"
#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/encodings/alibi.hpp"

namespace peviz::app {

namespace alibi_local {  // this page's own names (the pages share a unity batch)
namespace {

void update(AppState& s) {
  AlibiOptions& o = s.pages.alibi;
  check_window_int(limits::alibi_seq_len, o.seq_len);
  check_window_int(limits::alibi_heads, o.heads);
  o.slopes = alibi_slopes(o.heads);
  o.slopes_f.assign(o.slopes.begin(), o.slopes.end());
  const NdArray bias = alibi_bias(o.heads, o.seq_len, o.bidirectional);
  o.head = std::clamp(o.head, 0, o.heads - 1);
  const std::size_t L = std::size_t(o.seq_len), per_head = L * L;
  o.head_bias.reshape(L, L);
  std::copy_n(bias.f32.begin() + std::ptrdiff_t(per_head * std::size_t(o.head)), per_head, o.head_bias.data.begin());
  Matrix stacked(std::size_t(o.heads) * L, L);
  std::copy(bias.f32.begin(), bias.f32.end(), stacked.data.begin());
  // Per-head scale: head h's largest |bias| is m_h (L - 1), at its farthest key; dividing by it gives every
  // tile the range [-1, 0], so the gentle heads' gradients show. L = 1 has no distance to divide by.
  if (o.per_head_scale && o.seq_len > 1)
    for (int h = 0; h < o.heads; ++h) {
      const float peak = float(o.slopes[std::size_t(h)] * double(o.seq_len - 1));
      float* first = stacked.data.data() + std::size_t(h) * per_head;
      std::transform(first, first + per_head, first, [peak](float v) { return v / peak; });
    }
  o.grid_cols = o.grid_cols_wanted > 0 ? std::min(o.grid_cols_wanted, o.heads) : int(std::ceil(std::sqrt(double(o.heads))));
  o.grid = tile_heads(stacked, o.heads, o.seq_len, o.grid_cols);
  // One shared scale: down to the steepest head's farthest key (head 0 only for a power-of-two H: the others
  // interleave the next power's steeper slopes); per head: [-1, 0].
  const double steepest = *std::max_element(o.slopes.begin(), o.slopes.end());
  const double lo = o.per_head_scale && o.seq_len > 1 ? -1.0 : -steepest * double(o.seq_len - 1);
  set_heatmap(o.head_image, o.head_bias, plot::Colormap::magma, -o.slopes[std::size_t(o.head)] * double(o.seq_len - 1), 0.0);
  set_heatmap(o.grid_image, o.grid, plot::Colormap::magma, lo, 0.0);
  // Future keys of the causal mask are NaN: drawn grey as masked, not as missing data.
  o.head_image.nan_meaning = o.grid_image.nan_meaning = plot::NanMeaning::masked;
  o.grid_image.tile_side = o.seq_len, o.grid_image.tiles_across = o.grid_cols, o.grid_image.tile_count = o.heads;
}

// [heads, L, L], NaN where masked (as peviz export alibi-bias).
NdArray export_data(const AppState& s) {
  const AlibiOptions& o = s.pages.alibi;
  return alibi_bias(o.heads, o.seq_len, o.bidirectional);
}

std::string caption(const AppState& s) {
  const AlibiOptions& o = s.pages.alibi;
  const std::string dot = kCaptionDot;
  return "ALiBi" + dot + counted(o.heads, "head")+ dot + "L " + std::to_string(o.seq_len) + dot +
         (o.bidirectional ? "bidirectional" : "causal") + (o.per_head_scale ? dot + "each head on its own scale" : "");
}

void heatmaps(PageStates& a, std::vector<plot::HeatmapImage*>& out) {
  out.push_back(&a.alibi.head_image);
  out.push_back(&a.alibi.grid_image);
}

}  // namespace

void check(const PageStates& a) { validate_alibi_heads(a.alibi.heads); }

constexpr PageSetting kSettings[] = {
    {.key = "heads", .help = "Attention heads H (slopes 2^(-8h/H))", .access = member<&PageStates::alibi, &AlibiOptions::heads>(),
     .limit = &limits::alibi_heads, .shared_flag = true},
    {.key = "seq_len", .help = "Positions 0..L-1", .access = member<&PageStates::alibi, &AlibiOptions::seq_len>(),
     .limit = &limits::alibi_seq_len, .shared_flag = true},
    {.key = "bidirectional", .help = "The symmetric bias -m|i-j| instead of the causal -m(i-j)",
     .access = member<&PageStates::alibi, &AlibiOptions::bidirectional>(), .shared_flag = true},
    {.key = "head", .help = "The head shown large (0-based; clamped to the heads)",
     .access = member<&PageStates::alibi, &AlibiOptions::head>(), .in_caption = false},  // the plot's own title
    {.key = "per_head_scale", .help = "Each head's tile on its own colour scale (its largest |bias|)",
     .access = member<&PageStates::alibi, &AlibiOptions::per_head_scale>()},
};
}  // namespace alibi_local

Matrix tile_heads(const Matrix& stacked, int heads, int seq_len, int cols) {
  const int rows = (heads + cols - 1) / cols;
  const std::size_t L = std::size_t(seq_len), gutter = 1;
  Matrix out(std::size_t(rows) * (L + gutter) - gutter, std::size_t(cols) * (L + gutter) - gutter,
             std::numeric_limits<float>::quiet_NaN());
  for (int h = 0; h < heads; ++h) {
    const std::size_t r0 = std::size_t(h / cols) * (L + gutter), c0 = std::size_t(h % cols) * (L + gutter);
    for (std::size_t i = 0; i < L; ++i) std::copy_n(stacked.row(std::size_t(h) * L + i), L, out.row(r0 + i) + c0);
  }
  return out;
}

extern const PageModel alibi_page{.name = "alibi", .title = "ALiBi", .json_key = "alibi", .update = alibi_local::update,
                                  .export_data = alibi_local::export_data, .caption = alibi_local::caption,
                                  .settings = alibi_local::kSettings, .check = alibi_local::check,
                                  .heatmaps = alibi_local::heatmaps, .parts = kAlibiParts};

}  // namespace peviz::app
