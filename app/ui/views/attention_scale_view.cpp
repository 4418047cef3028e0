// Attention against length: the factor each method puts on q.k / sqrt(d), and below it the weight one key with a
// logit margin keeps among n keys, both against log10 n, with the loaded model's own layer groups beside them.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// The method parameters' sliders, each beside the name of its method.
void scale_method_sliders(AppState& s) {
  AttentionScaleOptions& o = s.pages.attention_scale;
  constexpr Page page = Page::attention_scale;
  page_slider(s, page, "SSMax s", o.params.ssmax_s, limits::ssmax_s);
  hint("Scalable-Softmax (Nakanishi 2025): the logits times s ln n; s is learned per layer and head.");
  next_slider_on_line("log-n L");
  page_slider(s, page, "log-n L", o.params.train_length, limits::train_length);
  hint("Qwen's log-n attention: past the training length L the query is scaled by ln n / ln L.");
  next_slider_on_line("YaRN s");
  page_slider(s, page, "YaRN s", o.params.factor, limits::factor);
  hint("YaRN's attention factor 0.1 ln s + 1 on cos and sin, so (0.1 ln s + 1)^2 on the logits, at every length.");
  next_slider_on_line("Llama 4 a");
  page_slider(s, page, "Llama 4 a", o.params.attn_scale, limits::attn_scale);
  next_slider_on_line("Llama 4 F");
  page_slider(s, page, "Llama 4 F", o.params.floor_scale, limits::floor_scale);
  hint("Llama 4's temperature tuning on its NoPE layers: q times 1 + a ln(floor(n / F) + 1).");
}

void scale_controls(AppState& s) {
  AttentionScaleOptions& o = s.pages.attention_scale;
  constexpr Page page = Page::attention_scale;
  page_slider(s, page, "margin D", o.margin, limits::needle_margin);
  hint("How far the needle's logit stands above every other key's, before any scale.");
  next_slider_on_line("spread");
  page_slider(s, page, "spread", o.spread, limits::needle_spread);
  hint("Standard deviation of the other keys' logits: their sum of exponentials is taken at its mean.");
  next_slider_on_line("log10 max n");
  page_slider(s, page, "log10 max n", o.max_position_log10, limits::scale_max_log10);
  scale_method_sliders(s);
  if (ImGui::Checkbox("loaded model", &o.show_model)) s.pages.mark(page);
  hint("The model loaded (File > Open, or the Context extension page's model box): its own scale per group of "
       "layers, and its trained and extended context as thin grey lines, labelled.");
  bool shown[5] = {o.show_none, o.show_ssmax, o.show_logn, o.show_yarn, o.show_llama4};
  if (series_toggles("##scale_methods", {"none", "SSMax", "log-n", "YaRN", "Llama 4"}, shown)) {
    o.show_none = shown[0], o.show_ssmax = shown[1], o.show_logn = shown[2], o.show_yarn = shown[3];
    o.show_llama4 = shown[4];
  }
}

// The methods shown, each in its palette colour; then the model's groups, thicker, after them.
void scale_lines(const AttentionScaleOptions& o, const std::array<std::vector<float>, 5>& per_method,
                 const std::vector<std::vector<float>>& per_group) {
  static const char* const names[5] = {"none", "SSMax", "log-n (thin line: L)", "YaRN", "Llama 4"};
  const bool shown[5] = {o.show_none, o.show_ssmax, o.show_logn, o.show_yarn, o.show_llama4};
  const int n = int(o.log10_keys.size());
  for (int k = 0; k < 5; ++k)
    if (shown[k]) plot::plot_line(names[k], o.log10_keys.data(), per_method[std::size_t(k)].data(), n, plot::series_color(k), 2.0f);
  for (std::size_t g = 0; g < per_group.size(); ++g)
    plot::plot_line(o.model_labels[g].c_str(), o.log10_keys.data(), per_group[g].data(), n,
                    plot::series_color(int(5 + g)), 3.5f);
}

// Thin grey labelled lines at the model's trained and extended context, and log-n's L as a thin line in its colour.
void length_marks(const AttentionScaleOptions& o, double y_note) {
  const ImU32 grey = ImGui::GetColorU32(ImGuiCol_Text, 0.45f);
  const double top = o.max_position_log10;
  if (o.show_logn && o.params.train_length > 1 && std::log10(o.params.train_length) <= top)
    plot::plot_vline(std::log10(o.params.train_length), plot::series_color(2), 1.0f);
  if (o.model_scale.empty()) return;
  char text[96];
  if (o.model_trained > 0 && std::log10(o.model_trained) <= top) {
    plot::plot_vline(std::log10(o.model_trained), grey, 1.0f);
    std::snprintf(text, sizeof text, "trained %d", o.model_trained);
    plot::plot_text(std::log10(o.model_trained), y_note, text, grey);
  }
  if (o.model_extended > o.model_trained && std::log10(o.model_extended) <= top) {
    plot::plot_vline(std::log10(o.model_extended), grey, 1.0f);
    std::snprintf(text, sizeof text, "extended %d", o.model_extended);
    plot::plot_text(std::log10(o.model_extended), y_note, text, grey);
  }
}

double highest_scale(const AttentionScaleOptions& o) {
  double top = 1.2;
  const bool shown[5] = {o.show_none, o.show_ssmax, o.show_logn, o.show_yarn, o.show_llama4};
  for (std::size_t k = 0; k < 5; ++k)
    if (shown[k])
      for (float v : o.scale[k]) top = std::max(top, double(v) * 1.05);
  for (const auto& g : o.model_scale)
    for (float v : g) top = std::max(top, double(v) * 1.05);
  return top;
}

}  // namespace

void draw_attention_scale_view(AppState& s) {
  AttentionScaleOptions& o = s.pages.attention_scale;
  view_title("Attention against length: the scale on the logits, and what it leaves a needle");
  if (shows_controls(s)) scale_controls(s);
  if (shows_part(s, kScaleNotes)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("A query at position p sees n = p + 1 keys. Top: the factor c on q.k / sqrt(d). Bottom: the "
                        "weight of one key whose logit stands D above the others', 1 / (1 + (n - 1) e^(-c D)): with "
                        "c = 1 it fades like 1/n once n passes e^D.");
    ImGui::PopTextWrapPos();
  }
  if (o.log10_keys.empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const bool scale = shows_part(s, kScalePlot), needle = shows_part(s, kNeedlePlot);
  const float avail = ImGui::GetContentRegionAvail().y;
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  const float scale_h = readable_height(scale && needle ? 0.5f * (avail - gap) : avail, plot::legend_room_above("##scale"));
  const float needle_h = readable_height(scale ? avail - scale_h - gap : avail, plot::legend_room_above("##needle"));
  const plot::AxisRange x = {0.0, double(o.max_position_log10)};
  if (scale && plot::begin_plot("##scale", ImVec2(-1, scale_h))) {
    const double top = highest_scale(o);
    plot::setup_axes("log10 n (keys seen = position + 1)", "factor c on q.k / sqrt(d)", x, {0.0, top});
    scale_lines(o, o.scale, o.model_scale);
    length_marks(o, top * 0.97);
    plot::end_plot();
    record_page_region(s);
  }
  if (needle && plot::begin_plot("##needle", ImVec2(-1, needle_h))) {
    plot::setup_axes("log10 n (keys seen = position + 1)", "needle's weight", x, {0.0, 1.05});
    scale_lines(o, o.weight, o.model_weight);
    length_marks(o, 1.02);
    plot::end_plot();
    if (!scale) record_page_region(s);
  }
}

}  // namespace peviz::app
