// The loaded RoPE model's line on the RoPE pages: its name and knobs, its layer types, or a button to take them.
#include "app/ui/views/rope_model_line.hpp"

#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/model/page_model.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// A layer group's colour on the strip and in its legend: the series colours, grey for layers without positions.
ImU32 group_colour(const std::vector<LayerGroup>& groups, std::size_t g) {
  if (groups[g].attention == LayerSpan::linear) return ImGui::GetColorU32(ImGuiCol_TextDisabled);
  return plot::series_color(int(g));
}

void layer_tooltip(const ModelConfig& m, std::size_t i) {
  const ModelLayer& l = m.layers[i];
  ImGui::BeginTooltip();
  ImGui::Text("layer %zu of %zu: %s", i, m.layers.size(), describe(m.layer_groups[std::size_t(l.group)]).c_str());
  ImGui::Text("transformers' layer type: %s", l.layer_type.c_str());
  if (l.query_scaled) ImGui::Text("queries x %s", query_scale_formula(m, l).c_str());
  ImGui::EndTooltip();
}

}  // namespace

void draw_layer_strip(const ModelConfig& m) {
  if (m.layers.empty()) return;
  const std::vector<LayerGroup>& groups = m.layer_groups;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float cell = std::clamp(avail * 0.45f / float(m.layers.size()), 2.0f, ImGui::GetFontSize() * 0.7f);
  const ImVec2 size(cell * float(m.layers.size()), ImGui::GetFontSize() * 0.8f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("layers:");
  ImGui::SameLine();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float top = at.y + (ImGui::GetFrameHeight() - size.y) * 0.5f;
  ImGui::InvisibleButton("##layer_map", ImVec2(size.x, ImGui::GetFrameHeight()));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const float x = at.x + cell * float(i);
    const float gap = cell >= 4.0f ? 1.0f : 0.0f;
    draw->AddRectFilled(ImVec2(x, top), ImVec2(x + cell - gap, top + size.y),
                        group_colour(groups, std::size_t(m.layers[i].group)));
  }
  if (ImGui::IsItemHovered()) {
    const float u = (ImGui::GetIO().MousePos.x - at.x) / cell;
    layer_tooltip(m, std::size_t(std::clamp(int(u), 0, int(m.layers.size()) - 1)));
  }
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::string text = std::to_string(groups[g].layers) + " " + describe(groups[g]);
    const float w = ImGui::CalcTextSize(text.c_str()).x + ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(group_colour(groups, g)), "%s", text.c_str());
  }
  // What the map does not show, said on screen as in the exports' "unmodelled".
  if (m.unmodelled.empty()) return;
  std::string text = "not drawn: ";
  for (std::size_t i = 0; i < m.unmodelled.size(); ++i) text += (i ? "; " : "") + m.unmodelled[i];
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", text.c_str());
  ImGui::PopTextWrapPos();
}

void rope_layer_combo(AppState& s) {
  const LoadedRopeModel& m = s.pages.rope_model;
  const auto& types = m.model->layer_types;
  if (types.size() < 2) return;
  next_on_line(ImGui::GetFontSize() * 10.0f, "layers");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  const int shown = std::clamp(m.layer, 0, int(types.size()) - 1);
  if (ImGui::BeginCombo("layers##rope_model", types[std::size_t(shown)].layer_type.c_str())) {
    for (std::size_t i = 0; i < types.size(); ++i)
      if (ImGui::Selectable(types[i].layer_type.c_str(), int(i) == shown)) choose_rope_layer(s.pages, int(i));
    ImGui::EndCombo();
  }
  hint("The model's attention layer types: each has its own RoPE base (and scaling). Every page that shows the "
       "model switches with it.");
}

void draw_rope_model_line(AppState& s, Page page) {
  if (!shows_controls(s)) return;
  const PageModel& p = page_model(page);
  if (!p.follows_rope_model) return;
  const LoadedRopeModel& m = s.pages.rope_model;
  const std::string& name = m.model->name;
  if (p.follows_rope_model(s.pages)) {
    const RopeParams r = single_rope(m);
    ImGui::AlignTextToFramePadding();
    ImGui::PushTextWrapPos(0.0f);  // wraps at the pane's right edge
    ImGui::TextDisabled("model: %s, %d rotating channels, base %g (its config.json, unscaled)", name.c_str(),
                        r.head_dim, r.base);
    ImGui::PopTextWrapPos();
    hint("The model loaded (File > Open, a drop, --open, or Context extension's model box). Moving a knob makes "
         "this page's settings custom; Context extension shows the model's scaling.");
    rope_layer_combo(s);
    draw_layer_strip(*m.model);
    return;
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("custom settings;");
  const std::string use = "use " + name;
  next_on_line(small_button_width(use.c_str()));
  if (ImGui::SmallButton(use.c_str())) take_rope_model(s.pages, int(page));
  hint("Put the loaded model's rotary channels and base (of the layer type shown) on this page.");
}

}  // namespace peviz::app
