// Context-extension explorer: wavelength per pair (log scale) for every compared scaling side by side (their
// labels, colours and explanations from core's scaling table), and an opened model's own scaling; the original and
// target contexts, the YaRN ramp and the attention factors.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include <imgui.h>

#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"
#include "app/ui/views/config_inspector_view.hpp"
#include "app/ui/views/model_comparison_view.hpp"
#include "app/ui/views/rope_model_line.hpp"
#include "core/rope/rope_scaling.hpp"

namespace peviz::app {

namespace {

// The opened model's own scaling: the palette's seventh colour (pink; the sixth, brown, reads poorly on the dark
// theme), translucent: it is drawn wide under the others.
ImU32 own_color() { return (plot::series_color(6) & 0x00FFFFFFu) | 0x99000000u; }
// A compared scaling's legend name and colour (core's table); the table's strings are literals, so .data() ends in 0.
const char* label_of(RopeScaling kind) { return rope_scaling_row(kind).label.data(); }
ImU32 color_of(RopeScaling kind) { return plot::series_color(rope_scaling_row(kind).color); }
// The row whose scaling has a ramp over the pairs (YaRN's), or nullptr.
const ScalingWavelengths* ramp_row(const ContextExtension& r) {
  for (const ScalingWavelengths& row : r.rows)
    if (!row.scaled.yarn_ramp.empty()) return &row;
  return nullptr;
}
void controls(AppState& s) {
  ContextExtensionOptions& o = s.pages.context_extension;
  ContextExtensionParams& p = o.params;
  constexpr Page page = Page::context_extension;
  const LoadedRopeModel& model = s.pages.rope_model;
  const char* current = o.from_model ? model.model->name.c_str() : "custom";
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  if (ImGui::BeginCombo("model", current)) {
    for (const RopeModelPreset& m : rope_model_presets())
      if (ImGui::Selectable(m.name.c_str(), o.from_model && m.name == model.model->name))
        load_rope_model(s.pages, m.model, "");  // every RoPE page takes it
    ImGui::EndCombo();
  }
  hint("Real models, read from their published config.json files (assets/models/); File > Open (or drop) a "
       "Hugging Face config.json to read any other.");
  if (o.from_model) {
    rope_layer_combo(s);
    next_on_line(ImGui::GetFontSize() * 12.0f);
    ImGui::PushTextWrapPos(0.0f);  // wraps at the pane's right edge
    ImGui::TextDisabled("from its config.json: %s", model.note.c_str());
    ImGui::PopTextWrapPos();
    hint("Values the file spells out are shown bare; (default): the config class's default for a field the file "
         "leaves out; (derived): computed from other fields, as transformers does. \"config inspected\" says from "
         "which.");
    draw_layer_strip(*model.model);
  }
  bool changed = false;
  changed |= pairs_slider(s, page, "head_dim / 2##ext", p.rope.head_dim, limits::head_dim, kMinDynamicRotaryDim);
  next_slider_on_line("base##ext");
  changed |= page_slider(s, page, "base##ext", p.rope.base, limits::rope_base);
  next_slider_on_line("factor");
  changed |= page_slider(s, page, "factor", p.factor, limits::factor);
  hint("The scaling factor: target context / original context (rope_scaling.factor).");
  changed |= page_slider(s, page, "original length", p.original_len, limits::original_len);
  hint("original_max_position_embeddings: the context the model was trained on.");
  next_slider_on_line("target (0 = orig x factor)");
  changed |= page_slider(s, page, "target (0 = orig x factor)", p.target_len, limits::target_len);
  changed |= page_slider(s, page, (scaling_readers(ScalingField::beta_fast) + " beta_fast").c_str(), p.beta_fast,
                         limits::beta_fast);
  hint("YaRN keeps pairs that turn more than beta_fast times inside the original context.");
  next_slider_on_line("beta_slow");
  changed |= page_slider(s, page, "beta_slow", p.beta_slow, limits::beta_slow);
  hint("YaRN fully interpolates (divides by the factor) pairs that turn fewer than beta_slow times.");
  changed |= page_slider(s, page, (scaling_readers(ScalingField::low_freq_factor) + " low_freq_factor").c_str(),
                         p.low_freq_factor, limits::low_freq_factor);
  hint("llama3: pairs whose wavelength is longer than original length / low_freq_factor are divided by the factor.");
  next_slider_on_line("high_freq_factor");
  changed |= page_slider(s, page, "high_freq_factor", p.high_freq_factor, limits::high_freq_factor);
  hint("llama3: pairs whose wavelength is shorter than original length / high_freq_factor keep their frequency; "
       "between the two cuts the frequency is blended smoothly.");
  if (changed) o.from_model = false;  // no longer the model's settings
}

// One model's five scalings, or real models side by side.
void mode_switch(AppState& s, ContextExtensionOptions& o) {
  int mode = o.compare ? 1 : o.inspect ? 2 : 0;
  const int was = mode;
  if (ImGui::RadioButton("one model, every scaling", mode == 0)) mode = 0;
  next_on_line(radio_width("models compared"));
  if (ImGui::RadioButton("models compared", mode == 1)) mode = 1;
  hint("Up to four real models side by side: each one's wavelengths with its own scaling, and a table of its "
       "contexts and the bounds of Liu et al. 2023 and Men et al. 2024.");
  next_on_line(radio_width("config inspected"));
  if (ImGui::RadioButton("config inspected", mode == 2)) mode = 2;
  hint("The loaded model's config.json read layer by layer: each group's RoPE settings, where each value came "
       "from, and where frameworks are known to read it differently.");
  if (mode != was) {
    o.compare = mode == 1;
    o.inspect = mode == 2;
    s.pages.mark(Page::context_extension);
  }
}

// Llama 4's NoPE layers: the factor on their queries against position, up to the target context.
void query_scale_plot(const ContextExtensionOptions& o, double target, float height) {
  if (!plot::begin_plot("##query_scale", ImVec2(-1, height))) return;
  const double top = double(*std::max_element(o.query_scale.begin(), o.query_scale.end()));
  plot::setup_axes("position", "NoPE layers' query scale", {0.0, target}, {0.95, std::max(top, 1.05) + 0.05});
  plot::plot_line(o.query_scale_label.c_str(), o.query_scale.data(), int(o.query_scale.size()), 0.0,
                  target / double(kQueryScaleSamples - 1), 1, plot::series_color(4), 2.0f);
  plot::end_plot();
}

// The counts of pairs beyond the target context, per scaling, and the attention factor.
void notes(const ContextExtensionOptions& o, const ContextExtension& r) {
  ImGui::PushTextWrapPos(0.0f);  // the notes wrap at the pane's right edge
  ImGui::TextDisabled("pairs whose wavelength exceeds the target context %.0f (never complete a turn there):",
                      r.target_len);
  const auto count_note = [](const std::string& name, int pairs, ImU32 color) {
    const std::string count = name + " " + std::to_string(pairs);
    next_on_line(ImGui::CalcTextSize(count.c_str()).x);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color), "%s", count.c_str());
  };
  if (!o.own.label.empty()) count_note(o.own.label, o.own.pairs_beyond_target, plot::series_color(6));
  int unscaled_beyond_original = 0;
  for (const ScalingWavelengths& row : r.rows) {
    count_note(label_of(row.kind), row.pairs_beyond_target, color_of(row.kind));
    if (row.kind == RopeScaling::none) unscaled_beyond_original = row.pairs_beyond_original;
  }
  char factor[96] = "";
  std::string factors;  // the model's own, then each compared scaling that scales attention
  if (!o.own.label.empty()) std::snprintf(factor, sizeof factor, "%s %.4f; ", o.own.label.c_str(), o.own.attention_factor);
  factors += factor;
  for (const ScalingWavelengths& row : r.rows)
    if (scaling_reads(row.kind, ScalingField::attention_factor)) {
      std::snprintf(factor, sizeof factor, "%s %.4f; ", label_of(row.kind), row.scaled.attention_factor);
      factors += factor;
    }
  ImGui::TextDisabled("attention factor (multiplies cos and sin): %severy other scaling 1. Pairs beyond "
                      "the original %.0f without scaling: %d.",
                      factors.c_str(), double(o.params.original_len), unscaled_beyond_original);
  ImGui::PopTextWrapPos();
}

// The wavelength per pair of every scaling shown, the pairs that never turn inside the target context circled.
void wavelength_plot(const ContextExtensionOptions& o, double target, float height) {
  if (!plot::begin_plot("##wavelengths", ImVec2(-1, height))) return;
  const int n = int(o.log10_wavelength[0].size());
  double hi = std::log10(target) + 0.5;
  for (const auto& w : o.log10_wavelength)
    for (float v : w) hi = std::max(hi, double(v) + 0.2);
  for (float v : o.own.log10_wavelength) hi = std::max(hi, double(v) + 0.2);
  plot::setup_axes("pair j", "log10 wavelength (positions)", {-0.5, n - 0.5}, {0.5, hi}, plot::axis_integer);
  // The model's own scaling first, wide and translucent: the knobs' curve of the same kind shows through it.
  if (!o.own.label.empty())
    plot::plot_line(o.own.label.c_str(), o.own.log10_wavelength.data(), int(o.own.log10_wavelength.size()), 0.0, 1.0, 1,
                    own_color(), 6.0f);
  for (std::size_t k = 0; k < o.log10_wavelength.size(); ++k) {
    if (!o.shown[k]) continue;
    const RopeScaling kind = o.result.rows[k].kind;
    const auto& w = o.log10_wavelength[k];
    plot::plot_line(label_of(kind), w.data(), n, 0.0, 1.0, 1, color_of(kind), kind == RopeScaling::none ? 2.5f : 1.5f);
    for (int j = 0; j < n; ++j)
      if (w[std::size_t(j)] > std::log10(target))
        plot::canvas_circle(plot::data_to_screen(j, w[std::size_t(j)]), 3.5f, color_of(kind));
  }
  const ImU32 line = ImGui::GetColorU32(ImGuiCol_Text, 0.55f);
  const double orig = double(o.params.original_len);
  plot::plot_hline(std::log10(orig), line, 1.0f);
  plot::plot_text(0.0, std::log10(orig), "original context", line);
  // In the text colour: the highlight's orange is the palette's linear (PI) orange on the light theme.
  const ImU32 reference = ImGui::GetColorU32(ImGuiCol_Text);
  plot::plot_hline(std::log10(target), reference, 1.5f);
  plot::plot_text(0.0, std::log10(target), "target context", reference);
  plot::end_plot();
}

// The legend that shows or hides each compared scaling, its explanation on hover.
void scaling_toggles(ContextExtensionOptions& o) {
  const std::vector<RopeScaling> kinds = compared_scalings();
  std::vector<const char*> names, hints;
  std::vector<int> colors;
  const auto shown = std::make_unique<bool[]>(kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const RopeScalingRow& row = rope_scaling_row(kinds[i]);
    names.push_back(row.label.data());
    hints.push_back(row.explanation.data());
    colors.push_back(row.color);
    shown[i] = o.shown[i];
  }
  if (series_toggles("##ext_toggles", names, shown.get(), 0, hints, colors))
    for (std::size_t i = 0; i < kinds.size(); ++i) o.shown[i] = shown[i];
}

}  // namespace

void draw_context_extension_view(AppState& s) {
  ContextExtensionOptions& o = s.pages.context_extension;
  view_title(o.compare   ? "Context extension: real models compared, wavelength per pair"
             : o.inspect ? "Config inspector: every layer's RoPE as transformers reads the config"
                         : "Context extension: wavelength per pair for every scaling (HF modeling_rope_utils)");
  if (shows_controls(s)) mode_switch(s, o);
  if (o.compare) return draw_model_comparison(s);
  if (o.inspect) return draw_config_inspector(s);
  if (shows_controls(s)) {  // the settings and the series shown; figures and presented slides leave them out
    controls(s);
    scaling_toggles(o);
  }
  const ContextExtension& r = o.result;
  if (r.rows.empty() || r.rows.size() != o.shown.size()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const double target = r.target_len;
  notes(o, r);
  // The wavelengths over the ramp; a presented step that names one of them gives it the whole height.
  const bool wavelengths = shows_part(s, kContextExtensionWavelengths), ramp = shows_part(s, kContextExtensionRamp);
  const float avail = ImGui::GetContentRegionAvail().y;
  const float ramp_legend = std::max(plot::legend_room_above("##yarn_ramp"), plot::legend_room_above("##query_scale"));
  const float ramp_h = readable_height(wavelengths ? avail * 0.3f : avail, ramp_legend);
  const int n = int(o.log10_wavelength[0].size());
  // The wavelengths are the page: at least 60% of the height, the ramp below it scrolled to where room is short.
  const float wavelengths_h =
      readable_height(ramp ? std::max(avail - ramp_h - ImGui::GetStyle().ItemSpacing.y, 0.6f * avail) : avail);
  if (wavelengths) {
    wavelength_plot(o, target, wavelengths_h);
    record_page_region(s);
  }
  if (!ramp) return;
  // Beside the ramp, Llama 4's query scale on its NoPE layers when the model has one.
  const bool scaled = !o.query_scale.empty();
  const float ramp_w = scaled ? (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f : -1.0f;
  const ScalingWavelengths* with_ramp = ramp_row(r);
  // The axis keeps the label's pointer until end_plot draws it: the text lives as long as the plot.
  const std::string ramp_label = with_ramp ? std::string(label_of(with_ramp->kind)) + " ramp" : std::string();
  if (with_ramp && plot::begin_plot("##yarn_ramp", ImVec2(ramp_w, ramp_h))) {
    plot::setup_axes("pair j", ramp_label.c_str(), {-0.5, n - 0.5}, {-0.05, 1.05}, plot::axis_integer);
    plot::plot_line("ramp: 0 keeps the pair, 1 divides its frequency by the factor", o.ramp.data(), int(o.ramp.size()),
                    0.0, 1.0, 1, color_of(with_ramp->kind), 2.0f);
    plot::end_plot();
  }
  if (!wavelengths) record_page_region(s);
  if (!scaled) return;
  ImGui::SameLine();
  query_scale_plot(o, target, ramp_h);
}

}  // namespace peviz::app
