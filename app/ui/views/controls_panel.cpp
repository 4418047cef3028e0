// The sidebar: encoding parameters (applied live while dragging), highlight, appearance.
#include <algorithm>
#include <cinttypes>

#include <imgui.h>

#include "app/model/page_model.hpp"
#include "app/ui/views/views.hpp"
#include "core/encodings/absolute_encodings.hpp"

namespace peviz::app {

namespace {

constexpr ImGuiSliderFlags kSliderFlags = ImGuiSliderFlags_AlwaysClamp;

void section(const char* name) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", name);
  ImGui::Separator();
}

void encoding_controls(AppState& s) {
  EncodingParams& p = s.params;
  const auto table = encoding_table();
  const auto name_of = [](void* rows, int i, const char** out) {
    *out = static_cast<const EncodingInfo*>(rows)[i].name.data();  // literals: NUL-terminated
    return true;
  };
  int e = int(p.encoding);
  if (ImGui::Combo("encoding", &e, name_of, const_cast<EncodingInfo*>(table.data()), int(table.size()))) {
    p.encoding = Encoding(e);
    mark_params_changed(s);
  }
  std::string choices;
  for (std::size_t i = 0; i < table.size(); ++i)
    choices += (i == 0 ? "" : i + 1 == table.size() ? ", or " : ", ") + std::string(table[i].summary);
  hint(("Which absolute encoding to show: " + choices + ".").c_str());

  if (limit_slider("d_model", p.d_model, limits::d_model))
    mark_params_changed(s);
  hint(("Number of channels of the encoding vector, " + window_range_text(limits::d_model) + "; Ctrl+click to type a value.").c_str());

  if (limit_slider("sequence length", p.seq_len, limits::seq_len))
    mark_params_changed(s);
  hint(("Number of positions 0..L-1 shown in every view, L in " + window_range_text(limits::seq_len) +
        "; Ctrl+click to type a value.").c_str());

  const EncodingInputs& uses = encoding_info(p.encoding).inputs;
  if (limit_slider("base", p.base, limits::base))
    mark_params_changed(s);
  hint(("Base of the sinusoid wavelengths: pair i turns at base^(-2i/d) radians per position, so the slowest "
        "wavelength is about 2*pi*base; base in " + window_range_text(limits::base) + ", log scale.").c_str());
  for (double preset : {2.0, 100.0, 10000.0, 500000.0}) {
    char label[32];
    std::snprintf(label, sizeof label, "%g", preset);
    if (ImGui::SmallButton(label)) {
      p.base = preset;
      mark_params_changed(s);
    }
    hint(preset == 10000.0  ? "Base 10000: the original Transformer (Vaswani et al. 2017)."
         : preset == 500000.0 ? "Base 500000: Llama 3's RoPE base, for long contexts."
         : preset == 2.0      ? "Base 2: wavelengths close to the binary counter's ladder."
                              : "Base 100: a short ladder, fast for every channel.");
    ImGui::SameLine();
  }
  ImGui::TextDisabled("presets");

  ImGui::BeginDisabled(!uses.layout);
  int layout = int(p.layout);
  if (ImGui::RadioButton("interleaved", &layout, 0)) mark_params_changed(s);
  hint("Channel order [sin w0, cos w0, sin w1, cos w1, ...] as in the paper and the annotated Transformer.");
  ImGui::SameLine();
  if (ImGui::RadioButton("halves", &layout, 1)) mark_params_changed(s);
  hint("Channel order [all sines, then all cosines] as in tensor2tensor's get_timing_signal_1d.");
  p.layout = Layout(layout);
  ImGui::EndDisabled();

  ImGui::BeginDisabled(!uses.table);
  if (ImGui::InputScalar("seed", ImGuiDataType_U64, &p.seed, nullptr, nullptr, "%" PRIu64))
    mark_params_changed(s);
  hint("Seed of the random learned table (GPT-2 style: normal with standard deviation 0.02).");
  if (limit_slider("max length", p.max_len, limits::max_len))
    mark_params_changed(s);
  hint("Rows of the learned table: positions at or past it have no vector and are drawn as missing.");
  ImGui::EndDisabled();

  ImGui::BeginDisabled(!uses.signed_bits);
  if (ImGui::Checkbox("signed bits (-1/+1)", &p.signed_bits)) mark_params_changed(s);
  hint("Map the bits {0, 1} to {-1, +1} so every channel is centred on 0, like a sinusoid.");
  ImGui::EndDisabled();
}

void highlight_controls(AppState& s) {
  const BasicsOptions& basics = s.pages.basics;
  const int last = std::max(basics.has_results ? basics.computed.seq_len - 1 : s.params.seq_len - 1, 0);
  ImGui::SliderInt("highlight", &s.highlight_position, 0, last, "position %d", kSliderFlags);
  hint("The position marked in every view; clicking a plot or a table row picks it too.");
}

void appearance_controls(AppState& s) {
  int theme = int(s.theme);
  if (ImGui::RadioButton("dark", &theme, 0)) s.fonts_dirty = true;
  hint("Dark theme, for the screen.");
  ImGui::SameLine();
  if (ImGui::RadioButton("light", &theme, 1)) s.fonts_dirty = true;
  hint("Light theme, for slides and projectors.");
  s.theme = Theme(theme);
  float zoom_percent = s.ui_zoom * 100.0f;
  if (ImGui::SliderFloat("zoom", &zoom_percent, float(limits::ui_zoom.min * 100), float(limits::ui_zoom.max * 100),
                         "%.0f%%", kSliderFlags)) {
    s.ui_zoom = zoom_percent / 100.0f;
  }
  if (ImGui::IsItemDeactivatedAfterEdit()) s.fonts_dirty = true;
  hint("Text and widget size (Ctrl + and Ctrl - also work); the font is re-rasterised, so it stays crisp.");
}

}  // namespace

void draw_controls_panel(AppState& s) {
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.5f);
  if (s.pages.page == Page::lab) {  // the Lab trains its own models: the encoding controls do nothing there
    section("Lab");
    draw_lab_controls(s);
  } else if (uses_sidebar_encoding(s.pages.page)) {
    section("Encoding");
    encoding_controls(s);
    section("Highlight");
    highlight_controls(s);
  } else {  // a page with its own controls, above its plots
    section(page_title(s.pages.page));
    ImGui::TextWrapped("This page's settings are above its plots. The encoding settings (d_model, length, base) belong "
                       "to Basics, Criteria, Linear shift, Learned tables and Precision, and show here on those pages.");
  }
  section("Appearance");
  appearance_controls(s);
  ImGui::PopItemWidth();
  section("Mouse");
  ImGui::TextWrapped("Wheel: zoom (over an axis: that axis). Drag: pan. Double-click: reset. "
                     "Hover: exact values. Ctrl+click a slider: type a value.");
  if (s.last_frame_ms > 0.0) {
    ImGui::Spacing();
    ImGui::TextDisabled("frame %.1f ms, last recompute %.1f ms", s.last_frame_ms, s.change_recompute_ms);
    hint("Time of the last frame, and of the last update step that recomputed the encoding or similarity.");
  }
}

}  // namespace peviz::app
