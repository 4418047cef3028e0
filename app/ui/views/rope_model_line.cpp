// The loaded RoPE model's line on the RoPE pages: its name and knobs, its layer types, or a button to take them.
#include "app/ui/views/rope_model_line.hpp"

#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/model/page_model.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

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
  if (drawing_figure(s)) return;
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
