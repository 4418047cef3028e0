// The Lab: choose a task, the encodings and a model size, press Train, and watch the loss curves, then the
// exact match against length (Kazemnejad et al. 2023, in miniature) and the attention maps past training.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/analysis_views.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

constexpr Page kPage = Page::lab;

const char* encoding_name(int k) { return train::to_string(train::kAllPositionEncodings[std::size_t(k)]).data(); }
int encoding_index(train::PositionEncoding pe) {
  const auto& all = train::kAllPositionEncodings;
  return int(std::find(all.begin(), all.end(), pe) - all.begin());
}
ImU32 encoding_color(int k) { return plot::series_color(k); }

void settings_controls(AppState& s, LabOptions& o, bool training) {
  ImGui::BeginDisabled(training);
  const char* tasks[] = {"copy", "reverse", "sort"};
  int task = int(o.task);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (ImGui::Combo("task", &task, tasks, 3)) {
    o.task = train::Task(task);
    s.analysis.mark(kPage);
  }
  hint("BOS x1..xn SEP y1..yn EOS over 10 symbols; y = x (copy), reversed, or sorted. Loss and accuracy on y and EOS.");
  ImGui::SameLine();
  std::vector<const char*> names;
  for (int k = 0; k < kLabEncodings; ++k) names.push_back(encoding_name(k));
  if (series_toggles("##lab_pe", names, o.compare.data())) s.analysis.mark(kPage);
  page_slider(s, kPage, "layers", o.layers, limits::train_layers);
  ImGui::SameLine();
  page_slider(s, kPage, "heads##lab", o.heads, limits::train_heads);
  ImGui::SameLine();
  page_slider(s, kPage, "d_model##lab", o.d_model, limits::train_d_model);
  ImGui::SameLine();
  page_slider(s, kPage, "batch", o.batch, limits::train_batch);
  page_slider(s, kPage, "steps", o.steps, limits::train_steps);
  ImGui::SameLine();
  page_slider(s, kPage, "train max n", o.train_max, limits::train_max);
  hint("Training sequences have n uniform in [1, train max]; the learned table has 2 x train max + 3 rows.");
  ImGui::SameLine();
  page_slider(s, kPage, "test max n", o.test_max, limits::test_max);
  hint("Exact match is measured at n = 5, 10, ..., test max (at most 4 x train max), 200 sequences each.");
  ImGui::SameLine();
  page_slider(s, kPage, "RoPE base##lab", o.rope_base, limits::base);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (ImGui::InputScalar("seed##lab", ImGuiDataType_U64, &o.seed)) s.analysis.mark(kPage);
  ImGui::EndDisabled();
  keep_lab_inputs_valid(o);
}

void run_buttons(AppState& s, LabOptions& o, bool training) {
  ImGui::BeginDisabled(training);
  if (ImGui::Button("Train")) {
    o.train_requested = true;
    s.analysis.mark(kPage);
  }
  ImGui::EndDisabled();
  hint("Trains one model per ticked encoding in the background, one run per core at a time.");
  ImGui::SameLine();
  ImGui::BeginDisabled(!training || (o.runs && o.runs->stopping()));
  if (ImGui::Button("Stop")) {
    o.stop_requested = true;
    s.analysis.mark(kPage);
  }
  ImGui::EndDisabled();
  hint("Running runs stop after their step and are evaluated as they are; queued ones do not start.");
  ImGui::SameLine();
  if (ImGui::Button("Show the trained learned table on Basics")) {
    o.use_table_requested = true;
    s.analysis.mark(kPage);
  }
  hint("The learned run's position table replaces the sidebar's learned table, as if loaded from a file: "
       "Basics, Learned tables and Criteria then show it.");
}

std::string run_status(const LabRunView& v) {
  const train::TrainSnapshot& p = v.snapshot;
  char text[160];
  switch (v.state) {
    case LabRunState::queued: return "queued";
    case LabRunState::failed: return "failed: " + v.error;
    case LabRunState::running:
      if (p.step >= p.steps) return "evaluating";
      std::snprintf(text, sizeof text, "step %d / %d, %.1f steps/s, %.0f s left", p.step, p.steps, p.steps_per_s,
                    p.eta_s);
      return text;
    case LabRunState::done:
      std::snprintf(text, sizeof text, "done: %d / %d steps%s, %.1f steps/s, final loss %.4f", p.step, p.steps,
                    p.step < p.steps ? " (stopped)" : "", p.steps_per_s, p.loss.empty() ? NAN : p.loss.back());
      return text;
  }
  return "";
}

// One line per run of the table below the buttons: its colour, name and progress.
void progress_lines(const LabOptions& o) {
  if (o.views.empty()) {
    ImGui::TextDisabled("No runs yet. Small settings (d_model 32, 300 steps) finish in seconds; the defaults in about "
                        "a minute per encoding.");
    return;
  }
  for (const LabRunView& v : o.views) {
    const int k = encoding_index(v.pe);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(encoding_color(k)), "%s", encoding_name(k));
    ImGui::SameLine(ImGui::GetCursorPosX() + 6.0f * ImGui::GetFontSize());
    const float fraction = v.snapshot.steps > 0 ? float(v.snapshot.step) / float(v.snapshot.steps) : 0.0f;
    ImGui::ProgressBar(fraction, ImVec2(ImGui::GetFontSize() * 8.0f, 0.0f), "");
    ImGui::SameLine();
    ImGui::TextUnformatted(run_status(v).c_str());
  }
}

void loss_plot(const LabOptions& o, ImVec2 size) {
  if (!plot::begin_plot("##lab_loss", size)) return;
  double lo = 0.0, hi = 0.0, steps = 1.0;
  bool any = false;
  for (const LabRunView& v : o.views) {
    steps = std::max(steps, double(v.snapshot.steps));
    for (float x : v.log_loss) {
      lo = any ? std::min(lo, double(x)) : x, hi = any ? std::max(hi, double(x)) : x;
      any = true;
    }
  }
  if (!any) lo = -3.0, hi = 0.5;
  plot::setup_axes("step", "training loss (log10)", {0.0, steps}, {lo - 0.1, hi + 0.1}, plot::axis_integer);
  for (const LabRunView& v : o.views) {
    const int k = encoding_index(v.pe);
    const double w = v.loss_bucket;
    plot::plot_line(encoding_name(k), v.log_loss.data(), int(v.log_loss.size()), 0.5 * (w + 1.0), w, 1, encoding_color(k),
                    1.5f);
  }
  plot::end_plot();
}

// Exact match against n: one line per run, a vertical line at train_max, "not defined" where the learned
// table has no rows for the sequence.
void accuracy_plot(AppState& s, const LabOptions& o, ImVec2 size) {
  if (!plot::begin_plot("##lab_accuracy", size)) return;
  const double last = o.lengths.empty() ? double(o.test_max) : double(o.lengths.back());
  plot::setup_axes("symbols per sequence n", "exact match", {0.0, 1.15 * last + 2.0}, {-0.05, 1.1}, plot::axis_integer);
  plot::plot_vline(o.runs_train_max > 0 ? o.runs_train_max : o.train_max, ImGui::GetColorU32(ImGuiCol_Text, 0.5f), 1.0f);
  plot::plot_text(o.runs_train_max > 0 ? o.runs_train_max : o.train_max, 1.06, "train max",
                  ImGui::GetColorU32(ImGuiCol_Text, 0.7f));
  for (const LabRunView& v : o.views) {
    if (!v.snapshot.evaluated) continue;
    const int k = encoding_index(v.pe);
    const std::size_t regular = o.lengths.size() > 1 && o.lengths.back() % 5 != 0 ? o.lengths.size() - 1 : o.lengths.size();
    plot::plot_line(encoding_name(k), v.exact_match.data(), int(regular), o.lengths.empty() ? 5.0 : o.lengths[0], 5.0, 1,
                    encoding_color(k), 2.0f);
    if (regular < o.lengths.size())  // the last length is test_max itself, not a multiple of 5
      plot::plot_line(("##" + std::string(encoding_name(k))).c_str(), v.exact_match.data() + regular - 1, 2,
                      o.lengths[regular - 1], o.lengths[regular] - o.lengths[regular - 1], 1, encoding_color(k), 2.0f);
    for (std::size_t i = 0; i < o.lengths.size() && i < v.exact_match.size(); ++i)
      if (std::isnan(v.exact_match[i])) plot::plot_text(o.lengths[i], 0.02 + 0.06 * k, "not defined", encoding_color(k));
  }
  plot::end_plot();
  record_page_region(s);
}

void attention_panel(AppState& s, LabOptions& o, float height) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (ImGui::BeginCombo("run##lab_attention", encoding_name(o.attention_pe))) {
    for (int k = 0; k < kLabEncodings; ++k)
      if (ImGui::Selectable(encoding_name(k), k == o.attention_pe)) {
        o.attention_pe = k;
        s.analysis.mark(kPage);
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  page_slider(s, kPage, "length n##lab_attention", o.attention_length, 1, std::max(o.train_max, o.test_max));
  hint("Lengths past train max show what the model attends to on sequences longer than any it was trained on.");
  ImGui::SameLine();
  if (o.attention_defined)
    ImGui::TextDisabled("test sequence 0, %d tokens: tile rows = layers 1..%d, tile columns = heads 1..%d; row = query, "
                        "column = key", o.attention_tokens, o.attention_layers, o.attention_heads);
  if (!o.attention_defined) {
    ImGui::TextColored(ImVec4(0.95f, 0.6f, 0.3f, 1.0f), "%s", o.attention_note.c_str());
    ImGui::Dummy(ImVec2(1.0f, std::max(height - ImGui::GetFrameHeightWithSpacing(), 1.0f)));
    return;
  }
  // Square cells: as wide as the tiles need at this height (plus the axis and the colourbar), at most the width.
  const float h = std::max(height - ImGui::GetFrameHeightWithSpacing(), 10.0f), em = ImGui::GetFontSize();
  const float w = h * float(o.attention.cols) / float(std::max<std::size_t>(o.attention.rows, 1)) + 9.0f * em;
  heatmap_panel(o.attention_image, "##lab_attention_maps", "key j", "query i", "attention probability",
                ImVec2(std::min(w, ImGui::GetContentRegionAvail().x), h));
}

}  // namespace

void draw_lab_view(AppState& s) {
  LabOptions& o = s.analysis.lab;
  const bool training = lab_training(o);
  view_title("Lab: train tiny transformers with each positional encoding, then test them on longer sequences");
  settings_controls(s, o, training);
  run_buttons(s, o, training);
  progress_lines(o);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float half = 0.5f * (avail.x - ImGui::GetStyle().ItemSpacing.x), top = std::max(avail.y * 0.45f, 60.0f);
  loss_plot(o, ImVec2(half, top));
  ImGui::SameLine();
  accuracy_plot(s, o, ImVec2(half, top));
  attention_panel(s, o, ImGui::GetContentRegionAvail().y);
}

}  // namespace peviz::app
