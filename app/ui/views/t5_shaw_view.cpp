// T5 buckets and Shaw clipping: both relative-position matrices as categorical heatmaps, and bucket
// against distance showing T5's exact-then-logarithmic shape (HF T5Attention._relative_position_bucket;
// tensor2tensor _generate_relative_positions_matrix).
#include <algorithm>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"
#include "core/encodings/t5_buckets.hpp"

namespace peviz::app {

namespace {

void controls(AppState& s) {
  T5ShawOptions& o = s.pages.t5_shaw;
  constexpr Page page = Page::t5_shaw;
  page_slider(s, page, "length##t5", o.seq_len, limits::t5_shaw_seq_len);
  next_slider_on_line("buckets");
  page_slider(s, page, "buckets", o.num_buckets, limits::num_buckets);
  next_slider_on_line("max distance##t5");
  page_slider(s, page, "max distance##t5", o.max_distance, limits::t5_max_distance);
  next_on_line(radio_width("causal##t5"));
  if (ImGui::Checkbox("causal##t5", &o.causal)) s.pages.mark(page);
  hint("Bidirectional: half the buckets for keys after the query (+B/2). Causal: every future key is bucket 0.");
  next_slider_on_line("Shaw k");
  page_slider(s, page, "Shaw k", o.max_relative, limits::t5_shaw_max_relative);
}

// T5's bucket against the relative position, the end of its exact range marked.
void bucket_curve(const T5ShawOptions& o, int exact) {
  const int L = o.seq_len;
  if (!plot::begin_plot("##bucket_of_distance", ImVec2(-1, readable_height(ImGui::GetContentRegionAvail().y)))) return;
  plot::setup_axes("relative position r = j - i", "T5 bucket", {-double(L - 1), double(L - 1)},
                   {-0.5, o.num_buckets - 0.5}, plot::axis_integer, plot::axis_integer);
  plot::plot_line("bucket(r)", o.bucket_of_distance.data(), int(o.bucket_of_distance.size()), -double(L - 1), 1.0, 1,
                  plot::series_color(0), 2.0f);
  plot::plot_vline(exact, ImGui::GetColorU32(ImGuiCol_Text, 0.4f), 1.0f);
  plot::plot_text(exact, exact, "end of the exact range", ImGui::GetColorU32(ImGuiCol_Text, 0.7f));
  plot::end_plot();
}

}  // namespace

void draw_t5_shaw_view(AppState& s) {
  T5ShawOptions& o = s.pages.t5_shaw;
  view_title("T5 buckets and Shaw clipping: relative positions as a few ids");
  if (shows_controls(s)) controls(s);  // figures and presented slides leave the settings out
  if (o.buckets.empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const int exact = t5_exact_range(o.num_buckets, !o.causal);
  if (shows_part(s, kT5ShawNotes)) {
    ImGui::PushTextWrapPos(0.0f);  // wraps at the pane's right edge
    ImGui::TextDisabled("T5: |r| < %d gets its own bucket (exact), then buckets grow logarithmically up to |r| = %d; "
                        "Shaw: r clipped to [-%d, %d].", exact, o.max_distance, o.max_relative, o.max_relative);
    ImGui::PopTextWrapPos();
  }
  // The two maps side by side over the bucket curve; one under the other when the width is short. A presented step
  // that names only some of the three gives them the room of the others.
  const bool buckets = shows_part(s, kT5ShawBuckets), shaw = shows_part(s, kT5ShawShaw), curve = shows_part(s, kT5ShawCurve);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const int maps = int(buckets) + int(shaw);
  const bool beside = maps == 2 && fits_side_by_side(2, 2 * colorbar_extra_width());
  const float maps_total = curve ? avail.y * (maps == 1 ? 0.5f : 0.62f) : avail.y;  // one under the other: shared
  const float maps_h = maps_total / float(beside ? 1 : std::max(maps, 1)) - ImGui::GetStyle().ItemSpacing.y;
  const float top = readable_height(maps_h), half = beside ? 0.5f * (avail.x - spacing) : avail.x;
  if (buckets) {
    heatmap_panel(o.buckets_image, "##t5_buckets", "key j", "query i", "bucket", ImVec2(half, top),
                  "T5 bucket of (query i, key j)");
    record_page_region(s);
  }
  if (shaw) {
    if (beside) ImGui::SameLine();
    heatmap_panel(o.shaw_image, "##shaw", "key j", "query i", "clipped j - i", ImVec2(half, top),
                  "Shaw: clip(j - i, -k, k)");
  }
  if (!curve) return;
  bucket_curve(o, exact);
  if (maps == 0) record_page_region(s);
}

}  // namespace peviz::app
