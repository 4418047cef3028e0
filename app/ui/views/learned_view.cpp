// Learned embeddings, real and random: open a .npy or .safetensors file (a file dialog, or drop it on
// the window), pick its 2-D tensor, and every absolute view shows it; positions past the table are missing.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

void file_dialog(AppState& s, float width, float height) {
  LearnedOptions& o = s.pages.learned;
  ImGui::BeginChild("##file_dialog", ImVec2(width, height), true);
  ImGui::TextWrapped("%s", o.directory.c_str());
  for (const std::string& e : o.entries) {
    const bool folder = !e.empty() && e.back() == '/';
    const std::filesystem::path full = std::filesystem::path(o.directory) / e;
    if (ImGui::Selectable(e.c_str(), !folder && full.string() == o.path, ImGuiSelectableFlags_AllowDoubleClick)) {
      if (folder) {
        o.directory = std::filesystem::weakly_canonical(full).string();
        o.list_directory = true;
      } else {
        o.path = full.string();
        o.tensor = -1;
        o.tensors.clear();
        o.load_requested = true;
      }
      s.pages.mark(Page::learned);
    }
  }
  ImGui::EndChild();
}

void tensor_list(AppState& s, float width, float height) {
  LearnedOptions& o = s.pages.learned;
  ImGui::BeginChild("##tensors", ImVec2(width, height), true);
  if (o.tensors.empty()) {
    ImGui::PushTextWrapPos(0.0f);  // wraps at the list's right edge
    ImGui::TextDisabled(".npy: one table. .safetensors: its tensors are listed here.");
    ImGui::PopTextWrapPos();
  }
  for (std::size_t i = 0; i < o.tensors.size(); ++i) {
    const SafetensorsTensor& t = o.tensors[i];
    std::string label = t.name + "  " + t.dtype + " [";
    for (std::size_t k = 0; k < t.shape.size(); ++k) label += (k ? ", " : "") + std::to_string(t.shape[k]);
    label += "]";
    if (!t.loadable_table()) {
      ImGui::TextDisabled("%s", label.c_str());
      hint("Not a 2-D F32/F16/BF16/F64 table: cannot be shown as [position, channel].");
      continue;
    }
    if (ImGui::Selectable(label.c_str(), int(i) == o.tensor)) {
      o.tensor = int(i);
      o.load_requested = true;
      s.pages.mark(Page::learned);
    }
  }
  ImGui::EndChild();
}

}  // namespace

void draw_learned_view(AppState& s) {
  BasicsOptions& basics = s.pages.basics;
  LearnedOptions& o = s.pages.learned;
  view_title("Learned position tables: open a .npy or .safetensors file, or drop one on the window");
  if (shows_controls(s)) {  // the buttons; figures and presented slides leave them out
    next_on_line(small_button_width("random table"));
    if (ImGui::SmallButton("random table")) {
      s.params.encoding = Encoding::learned;
      s.params.learned_table.reset();
      s.params.learned_source.clear();
      o.loaded_name.clear();
      mark_params_changed(s);
    }
    hint("Back to the random GPT-2-style N(0, 0.02^2) table of the sidebar's d_model, max_len and seed.");
    next_on_line(small_button_width("trained table"));
    if (ImGui::SmallButton("trained table")) {
      o.shipped_requested = true;
      s.pages.mark(Page::learned);
    }
    hint("The position table that the Lab's shipped experiment learned on copy (seed 0): one row per position "
         "of its longest training sequence. Past its last row a learned table has nothing to give.");
  }
  if (!o.error.empty()) ImGui::TextColored(ImVec4(0.95f, 0.35f, 0.3f, 1), "%s", o.error.c_str());
  if (shows_controls(s)) {  // the file dialog and the tensor list; figures and presented slides leave them out
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float top = std::min(avail.y * 0.32f, 16.0f * ImGui::GetFontSize());
    file_dialog(s, avail.x * 0.45f, top);
    ImGui::SameLine();
    tensor_list(s, 0, top);
  }
  const EncodingParams& p = basics.computed;
  if (!basics.has_results || p.encoding != Encoding::learned) {
    ImGui::TextWrapped("The sidebar shows encoding '%s'. Open a file (or press 'random table') to look at a learned "
                       "table; the waves, heatmap, similarity and criteria views then all work on it.",
                       std::string(to_string(p.encoding)).c_str());
    return;
  }
  const int rows = p.learned_table ? int(p.learned_table->rows) : p.max_len;
  ImGui::TextWrapped("%s: %d positions x %d channels, showing L = %d. %s Basics shows its waves and similarity; "
                     "Criteria scores it.",
                     o.loaded_name.empty() ? "random table" : o.loaded_name.c_str(), rows, int(basics.encoding.cols),
                     p.seq_len,
                     rows < p.seq_len ? "Positions past the table have no row (missing): a learned table cannot "
                                        "extrapolate."
                                      : "Raise the sequence length past the table to see it run out.");
  const float rest = ImGui::GetContentRegionAvail().y;
  const float norm_h = readable_height(rest * 0.3f);
  ScreenRect image, bar;
  const HeatmapPanel panel{"##learned_table", "channel", "value", double(basics.encoding.cols), false};
  heatmap_with_colorbar(s, basics.encoding_image, panel, readable_height(rest - norm_h - ImGui::GetStyle().ItemSpacing.y), image,
                        bar);
  float* region = s.pages.plot_region;
  region[0] = image.x0, region[1] = image.y0, region[2] = image.x1, region[3] = image.y1;
  if (plot::begin_plot("##row_norms", ImVec2(-1, norm_h))) {
    double hi = 0.0;
    for (float v : o.row_norm)
      if (!std::isnan(v)) hi = std::max(hi, double(v));
    plot::setup_axes("position t", "|PE(t)|", {0.0, double(p.seq_len)}, {0.0, 1.1 * std::max(hi, 1e-6)},
                     plot::axis_integer);
    plot::plot_line("row norm (missing past the table)", o.row_norm.data(), int(o.row_norm.size()), 0.0, 1.0, 1,
                    plot::series_color(0), 1.5f);
    if (rows < p.seq_len) {
      plot::plot_vline(rows, plot::missing_color(), 2.0f);
      plot::plot_text(rows, 0.5 * hi, "no embedding from here", plot::missing_color());
    }
    plot::end_plot();
  }
}

}  // namespace peviz::app
