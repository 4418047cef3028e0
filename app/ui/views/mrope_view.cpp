// Multimodal RoPE: the t, h, w position ids of text + image + text, the score of an offset along each axis, and one
// image patch's scores with the others under M-RoPE beside 1D RoPE over the same tokens (core/models/mrope.hpp).
#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

constexpr const char* kAxisLabels[3] = {"t (time)", "h (row)", "w (column)"};

void model_combo(AppState& s) {
  MropeOptions& o = s.pages.mrope;
  const std::string shown = o.model ? o.model->name : "";
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  if (ImGui::BeginCombo("model##mrope", shown.c_str())) {
    for (const auto& m : mrope_models(s.pages))
      if (ImGui::Selectable(m->name.c_str(), m == o.model)) {
        o.model = m;
        s.pages.mark(Page::mrope);
      }
    ImGui::EndCombo();
  }
  hint("The multimodal RoPE models peviz ships, and a config.json with mrope_section opened with File > Open.");
}

void controls(AppState& s) {
  MropeOptions& o = s.pages.mrope;
  MropeSequence& q = o.sequence;
  constexpr Page page = Page::mrope;
  model_combo(s);
  next_slider_on_line("text before");
  page_slider(s, page, "text before", q.text_before, limits::mrope_text_before);
  next_slider_on_line("image rows");
  page_slider(s, page, "image rows", q.grid_h, limits::mrope_grid_h);
  hint("The image's rows of tokens after spatial merging (Qwen2-VL: one token per 28 x 28 pixels).");
  next_slider_on_line("image columns");
  page_slider(s, page, "image columns", q.grid_w, limits::mrope_grid_w);
  next_slider_on_line("text after");
  page_slider(s, page, "text after", q.text_after, limits::mrope_text_after);
  next_slider_on_line("patch row");
  page_slider(s, page, "patch row", o.patch_row, 0, q.grid_h - 1);
  next_slider_on_line("patch column");
  page_slider(s, page, "patch column", o.patch_col, 0, q.grid_w - 1);
  next_slider_on_line("max offset");
  page_slider(s, page, "max offset", o.max_offset, limits::mrope_max_offset);
}

void ids_plot(const MropeOptions& o, ImVec2 size) {
  if (!plot::begin_plot("##mrope_ids", size)) return;
  const double n = double(o.ids[0].size());
  const double top = o.ids[0].empty() ? 1.0 : double(std::max({o.ids[0].back(), o.ids[1].back(), o.ids[2].back()}));
  plot::setup_axes("token in the sequence", "position id", {-0.5, n - 0.5}, {0.0, top + 1.0});
  for (int a = 2; a >= 0; --a)  // t drawn last: on text tokens the three coincide
    plot::plot_line(kAxisLabels[a], o.ids[std::size_t(a)].data(), int(o.ids[std::size_t(a)].size()), 0.0, 1.0, 1,
                    plot::series_color(a), a == 0 ? 2.5f : 2.0f);
  const ImU32 edge = ImGui::GetColorU32(ImGuiCol_Text, 0.35f);
  plot::plot_vline(o.image_begin_end[0] - 0.5, edge, 1.0f);
  plot::plot_vline(o.image_begin_end[1] - 0.5, edge, 1.0f);
  plot::end_plot();
}

void axis_score_plot(const MropeOptions& o, ImVec2 size) {
  if (!plot::begin_plot("##mrope_axis_score", size)) return;
  plot::setup_axes("offset d along the axis", "mean cos(d theta_j)", {0.0, double(o.max_offset)}, {-0.3, 1.05});
  for (std::size_t a = 0; a < 3; ++a)
    if (!o.axis_score[a].empty())
      plot::plot_line(kAxisLabels[a], o.axis_score[a].data(), int(o.axis_score[a].size()), 0.0, 1.0, 1,
                      plot::series_color(int(a)), 2.0f);
  plot::plot_hline(0.0, ImGui::GetColorU32(ImGuiCol_Text, 0.3f), 1.0f);
  plot::end_plot();
}

// The scores of the patch's neighbour beside it and the one below (or above, at the last row), under both encodings.
void neighbour_line(const MropeOptions& o) {
  const int rows = int(o.patch_score.rows), cols = int(o.patch_score.cols);
  const std::size_t r = std::size_t(o.patch_row), c = std::size_t(o.patch_col);
  std::string text;
  char part[160];
  if (cols > 1) {
    const std::size_t beside = o.patch_col + 1 < cols ? c + 1 : c - 1;
    std::snprintf(part, sizeof part, "Patch %s: M-RoPE %.3f, 1D %.3f (1 token away). ",
                  beside > c ? "to the right" : "to the left", o.patch_score.at(r, beside), o.flat_score.at(r, beside));
    text += part;
  }
  if (rows > 1) {
    const std::size_t other = o.patch_row + 1 < rows ? r + 1 : r - 1;
    std::snprintf(part, sizeof part, "Patch %s: M-RoPE %.3f, 1D %.3f (%d tokens away).", other > r ? "below" : "above",
                  o.patch_score.at(other, c), o.flat_score.at(other, c), cols);
    text += part;
  }
  if (text.empty()) return;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
}

void patch_heatmaps(AppState& s, float height) {
  MropeOptions& o = s.pages.mrope;
  const bool beside = fits_side_by_side(2, 2 * colorbar_extra_width());
  const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  char title[96];
  std::snprintf(title, sizeof title, "M-RoPE: every patch's score with patch (%d, %d)", o.patch_row, o.patch_col);
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  heatmap_panel(o.patch_image, "##mrope_patch", "image column", "image row", "score", ImVec2(beside ? half : 0, height));
  ImGui::EndGroup();
  record_page_region(s);
  if (beside) ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextUnformatted("1D RoPE over the same tokens, row after row");
  heatmap_panel(o.flat_image, "##mrope_flat", "image column", "image row", "score", ImVec2(beside ? half : 0, height));
  ImGui::EndGroup();
}

}  // namespace

void draw_mrope_view(AppState& s) {
  MropeOptions& o = s.pages.mrope;
  view_title("Multimodal RoPE (Qwen2-VL's M-RoPE)");
  if (shows_controls(s)) controls(s);
  if (!o.model || o.ids[0].empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  ImGui::PushTextWrapPos(0.0f);
  if (mrope_keeps_own_model(s.pages))  // a model the user opened or chose, which this page cannot show
    ImGui::TextColored(warning_color(), "%s has no multimodal RoPE (no mrope_section in its config.json): this page "
                       "does not apply to it and shows %s.", s.pages.rope_model.model->name.c_str(), o.model->name.c_str());
  ImGui::TextDisabled("%s: %s. Text tokens take t = h = w = their index; an image's tokens share t and count rows in "
                      "h and columns in w (transformers' get_rope_index); the text after starts past the image.",
                      o.model->name.c_str(), o.pair_split.c_str());
  ImGui::PopTextWrapPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool beside = fits_side_by_side(2);
  const float top_h = readable_height(avail.y * 0.36f, plot::legend_room_above("##mrope_ids"));
  const float half = beside ? (avail.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f : -1.0f;
  ids_plot(o, ImVec2(half, top_h));
  if (beside) ImGui::SameLine();
  axis_score_plot(o, ImVec2(half, top_h));
  neighbour_line(o);
  patch_heatmaps(s, ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing());
}

}  // namespace peviz::app
