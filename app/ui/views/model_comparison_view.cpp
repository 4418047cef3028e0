// Real models side by side: tick up to four, see each one's wavelengths per pair and a table of its bounds.
#include "app/ui/views/model_comparison_view.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

constexpr Page kComparisonPage = Page::context_extension;

// The models to tick: every shipped RoPE model (each of its layer types) and the configs opened this session.
std::vector<ComparedModel> candidates(const ContextExtensionOptions& o) {
  std::vector<ComparedModel> out;
  const auto add = [&](const std::shared_ptr<const ModelConfig>& m, const std::string& path) {
    if (m->layer_types.size() < 2) return out.push_back({m, "", path});
    for (const LayerTypeRope& lt : m->layer_types) out.push_back({m, lt.layer_type, path});
  };
  for (const RopeModelPreset& p : rope_model_presets()) add(p.model, "");
  for (const ComparedModel& c : o.opened) add(c.model, c.path);
  return out;
}

std::string label_of(const ComparedModel& c) {
  return c.layer_type.empty() ? c.model->name : c.model->name + " (" + c.layer_type + ")";
}

void picker(AppState& s, ContextExtensionOptions& o) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("Tick up to %d models (File > Open or a drop adds any config.json):", kMaxComparedModels);
  ImGui::PopTextWrapPos();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const bool full = int(o.compared.size()) >= kMaxComparedModels;
  bool first = true;
  for (const ComparedModel& c : candidates(o)) {
    const std::string label = label_of(c) + "##cmp";
    bool ticked = is_compared(o, *c.model, c.layer_type);
    const float w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                    ImGui::CalcTextSize(label_of(c).c_str()).x + ImGui::GetStyle().ItemSpacing.x;
    if (!first && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
    first = false;
    ImGui::BeginDisabled(full && !ticked);
    if (ImGui::Checkbox(label.c_str(), &ticked) && toggle_compared(o, c)) {
      s.pages.mark(kComparisonPage);
      s.pages.mark(Page::rope_decay);  // it draws the compared models too
    }
    ImGui::EndDisabled();
  }
}

void wavelength_plot(AppState& s, const ContextExtensionOptions& o, float height) {
  if (!plot::begin_plot("##compared", ImVec2(-1, height))) return;
  double hi = 1.0;
  for (const auto& w : o.compared_log10)
    for (float v : w) hi = std::max(hi, double(v) + 0.2);
  for (const RopeModelSummary& m : o.summaries) hi = std::max(hi, std::log10(double(m.extended_len)) + 0.3);
  plot::setup_axes("pair j / (R/2): 0 = the fastest pair, 1 = the slowest", "log10 wavelength (positions)",
                   {-0.02, 1.02}, {0.5, hi});
  for (std::size_t k = 0; k < o.summaries.size(); ++k) {
    const RopeModelSummary& m = o.summaries[k];
    const ImU32 colour = plot::series_color(int(k));
    const int n = int(o.compared_log10[k].size());
    const double dx = n > 1 ? 1.0 / (n - 1) : 1.0;
    // Labels must live until end_plot (the legend and hover read them): literals and the state's names.
    plot::plot_line("##unscaled", o.compared_log10_unscaled[k].data(), n, 0.0, dx, 1,
                    (colour & 0x00FFFFFFu) | 0x80000000u, 1.0f);
    plot::plot_line(o.compared_labels[k].c_str(), o.compared_log10[k].data(), n, 0.0, dx, 1, colour, 2.0f);
    plot::plot_hline(std::log10(double(m.extended_len)), colour, 1.0f);
    plot::plot_text(0.0, std::log10(double(m.extended_len)), ("context " + std::to_string(m.extended_len)).c_str(),
                    colour);
  }
  plot::end_plot();
  record_page_region(s);
}

const char* yes_no(bool v) { return v ? "yes" : "no"; }

// "48, 12 NoPE" (or "48, 36 linear"); the hover lists the layer map's groups.
void layers_cell(const RopeModelSummary& m, const ComparedModel& c) {
  if (!m.layers) return ImGui::TextDisabled("?"), hint("The config does not say how many layers the model has.");
  std::string text = std::to_string(m.layers);
  if (m.nope_layers) text += ", " + std::to_string(m.nope_layers) + " NoPE";
  if (m.positionless_layers) text += ", " + std::to_string(m.positionless_layers) + " linear";
  ImGui::TextUnformatted(text.c_str());
  hint(describe_layers(*c.model).c_str());
}

// The header and one row per model, and room for the horizontal scroll bar when the pane is narrow.
float table_height(const ContextExtensionOptions& o) {
  const float row = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y + 1.0f;
  return row * float(o.summaries.size() + 1) + ImGui::GetStyle().ScrollbarSize + 2.0f;
}

// One model's row: its name in its curve's colour, then the columns of kComparisonColumns.
void bounds_row(const ContextExtensionOptions& o, std::size_t k) {
  const RopeModelSummary& m = o.summaries[k];
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  const std::size_t slash = m.name.find('/');  // "meta-llama/Llama-2-7b-hf" -> "Llama-2-7b-hf"
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(plot::series_color(int(k))), "%s",
                     m.name.c_str() + (slash == std::string::npos ? 0 : slash + 1));
  if (slash != std::string::npos) hint(m.name.c_str());
  ImGui::TableNextColumn();
  layers_cell(m, o.compared[k]);
  ImGui::TableNextColumn();
  ImGui::Text("%d", m.rotary_dim);
  ImGui::TableNextColumn();
  ImGui::Text("%g", m.base);
  ImGui::TableNextColumn();
  if (m.scaling == RopeScaling::none) ImGui::TextUnformatted("none");
  else ImGui::Text("%s x%g", std::string(to_string(m.scaling)).c_str(), m.factor);
  ImGui::TableNextColumn();
  ImGui::Text("%d", m.original_len);
  ImGui::TableNextColumn();
  ImGui::Text("%d", m.extended_len);
  ImGui::TableNextColumn();
  ImGui::Text("%d", m.span);
  ImGui::TableNextColumn();
  ImGui::Text("%d/%zu", m.pairs_turning_original, m.wavelength.size());
  ImGui::TableNextColumn();
  ImGui::Text("%d/%zu", m.pairs_turning_extended, m.wavelength.size());
  ImGui::TableNextColumn();
  ImGui::Text("%d/%d", m.critical_dim, m.rotary_dim);
  ImGui::TableNextColumn();
  if (m.min_base) ImGui::Text("%.3g", *m.min_base);
  else ImGui::TextUnformatted("> 1e12");
  if (ImGui::IsItemHovered() && k < o.holding_scans.size()) hint(holding_bases_text(m, o.holding_scans[k]).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(yes_no(!m.fails_at));
  if (m.fails_at) hint(("B(m) < 0 first at m = " + std::to_string(*m.fails_at) + " at the model's base").c_str());
}

void bounds_table(const ContextExtensionOptions& o) {
  constexpr int kColumns = int(std::size(kComparisonColumns));
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_ScrollX;
  if (!ImGui::BeginTable("##bounds", kColumns, flags, ImVec2(0, table_height(o)))) return;
  for (int i = 0; i < kColumns; ++i) ImGui::TableSetupColumn(kComparisonColumns[i].title);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int i = 0; i < kColumns; ++i) {
    ImGui::TableSetColumnIndex(i);
    ImGui::TableHeader(kComparisonColumns[i].title);
    hint(kComparisonColumns[i].meaning);
  }
  for (std::size_t k = 0; k < o.summaries.size(); ++k) bounds_row(o, k);
  ImGui::EndTable();
}

}  // namespace

void draw_model_comparison(AppState& s) {
  ContextExtensionOptions& o = s.pages.context_extension;
  if (shows_controls(s)) picker(s, o);
  if (o.summaries.empty()) {
    ImGui::TextDisabled("no model ticked yet");
    return;
  }
  // A tick this frame changed the models before the update step summarised them again (next frame): the cached
  // rows no longer match o.compared (peviz --monkey 55123 indexed past it).
  if (o.summaries.size() != o.compared.size()) return;
  ImGui::PushTextWrapPos(0.0f);  // wrap at the pane's edge
  ImGui::TextDisabled("Thick: each model's wavelengths with its own scaling at its extended context; thin: unscaled. "
                      "A pair below its model's context line completes a turn there.");
  ImGui::PopTextWrapPos();
  const float avail = ImGui::GetContentRegionAvail().y - table_height(o) - ImGui::GetStyle().ItemSpacing.y;
  wavelength_plot(s, o, readable_height(avail));
  bounds_table(o);
}

}  // namespace peviz::app
