// The Lab: choose a task, the encodings and a model size, press Train, and watch the loss curves, then the
// exact match against length (Kazemnejad et al. 2023, in miniature) and the attention maps past training.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

#include <imgui.h>

#include "app/model/figure.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/views/reproductions_view.hpp"
#include "app/ui/views/views.hpp"
#include "core/base/parallel.hpp"

namespace peviz::app {

namespace {

constexpr Page kLabPage = Page::lab;

const char* encoding_name(int k) { return train::to_string(train::kAllPositionEncodings[std::size_t(k)]).data(); }
// The same names as legend-less labels: a plot keeps the label pointer until end_plot.
const char* hidden_name(int k) {
  static const std::vector<std::string> hidden = [] {
    std::vector<std::string> names;
    for (const train::LabEncodingInfo& e : train::kLabEncodings) names.push_back("##" + std::string(e.name));
    return names;
  }();
  return hidden[std::size_t(k)].c_str();
}
// The palette in order, past its grey (index 7: it reads as a disabled checkbox beside the others).
ImU32 encoding_color(int k) { return plot::series_color(k < 7 ? k : k + 1); }

// The encodings to train, two checkboxes a line, each in its chart colour: the classic six, then the fixes
// (sampled position ids, FIRE) under their own heading. One without a meaning on the task is greyed out, saying why.
void encoding_checkboxes(AppState& s, LabOptions& o) {
  int column = 0;
  for (int k = 0; k < kLabEncodings; ++k) {
    if (k > 0 && !train::kLabEncodings[std::size_t(k)].classic && train::kLabEncodings[std::size_t(k) - 1].classic) {
      ImGui::TextDisabled("Fixes for longer inputs:");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The same mechanisms given other position ids: randomized (Ruoss et al. 2023) or coupled to "
                          "the input symbol each answer copies (Cho et al. 2024); and FIRE, a learned bias over the "
                          "distance divided by the query's position (Li et al. 2023). docs/lab.md, \"What fixes it\".");
      column = 0;
    }
    if (column++ % 2 == 1) ImGui::SameLine(ImGui::GetFontSize() * 9.0f);
    const bool fits = encoding_fits_task(o, k);
    ImGui::BeginDisabled(!fits);
    ImGui::PushStyleColor(ImGuiCol_Text, encoding_color(k));
    if (ImGui::Checkbox(encoding_name(k), &o.compare[std::size_t(k)])) s.pages.mark(kLabPage);
    ImGui::PopStyleColor();
    ImGui::EndDisabled();
    if (!fits && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", train::sampler_refusal(train::kLabEncodings[std::size_t(k)].positions, o.settings.task).c_str());
  }
}

// The position range, while an encoding with sampled ids is ticked.
void position_range_slider(AppState& s, LabOptions& o) {
  bool any_sampled = false;
  for (int k = 0; k < kLabEncodings; ++k)
    any_sampled = any_sampled ||
                  (o.compare[std::size_t(k)] && train::kLabEncodings[std::size_t(k)].positions != train::PositionSampler::contiguous);
  if (!any_sampled) return;
  page_slider(s, kLabPage, "position range", o.settings.position_range, limits::position_range);
  hint("rand-*: a sequence's ids are drawn from [0, range) and sorted (Ruoss et al. 2023); coupled: an answer symbol "
       "shares its input symbol's id, all shifted by a random start that keeps them below range (Cho et al. 2024). "
       "At least 2 x test max + 3.");
}

// An opened run beyond peviz's own limits (the PyTorch twin's): its settings as they are, and a way back.
void view_only_settings(AppState& s, LabOptions& o) {
  const train::TrainSettings& t = o.settings;
  ImGui::TextWrapped("Opened run, view only: %s, %s, %s, d_model %d, batch %d, %d steps, train max n %d, "
                     "test max n %d, lr %g.", std::string(train::to_string(t.task)).c_str(), counted(t.layers, "layer").c_str(),
                     counted(t.heads, "head").c_str(), t.d_model, t.batch, t.steps, t.train_max, t.test_max, t.lr);
  std::string beyond;
  for (const std::string& b : o.settings_beyond_limits) beyond += (beyond.empty() ? "" : ", ") + b;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("Beyond what peviz trains itself (%s): its curves, accuracy and attention maps are shown; "
                     "training goes through the PyTorch twin (peviz train --emit-pytorch).", beyond.c_str());
  ImGui::PopStyleColor();
  if (ImGui::Button("New experiment")) {
    o.new_experiment_requested = true;
    s.pages.mark(kLabPage);
  }
  hint("Back to the default settings for Train; the opened runs stay on the page until then.");
}

// What the page changed of the last input, and which ticked encodings a layer schedule or DroPE skips: in the
// refusal's orange, wrapped in the sidebar, until the next change.
void adjusted_lines(const LabOptions& o) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.6f, 0.3f, 1.0f));
  ImGui::PushTextWrapPos(0.0f);
  for (const std::string& line : o.adjusted) ImGui::TextUnformatted(line.c_str());
  if (!o.schedule_note.empty()) ImGui::TextUnformatted(o.schedule_note.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

void settings_controls(AppState& s, LabOptions& o, bool training) {
  if (!o.settings_beyond_limits.empty()) return view_only_settings(s, o);
  train::TrainSettings& t = o.settings;
  ImGui::BeginDisabled(training);
  int task = int(t.task);
  if (names_combo("task", task, train::kTaskNames)) {
    t.task = train::Task(task);
    s.pages.mark(kLabPage);
  }
  hint("BOS x1..xn SEP y1..yn EOS over 10 symbols; y = x (copy), reversed, or sorted; or add: BOS a SEP b SEP a + b "
       "EOS, n digits per operand, least significant first. Loss and accuracy on the answer and EOS.");
  encoding_checkboxes(s, o);
  page_slider(s, kLabPage, "layers", t.layers, limits::train_layers);
  page_slider(s, kLabPage, "heads##lab", t.heads, limits::train_heads);
  page_slider(s, kLabPage, "d_model##lab", t.d_model, limits::train_d_model);
  page_slider(s, kLabPage, "batch", t.batch, limits::train_batch);
  page_slider(s, kLabPage, "steps", t.steps, limits::train_steps);
  page_slider(s, kLabPage, "train max n", t.train_max, limits::train_max);
  hint("Training sequences have n uniform in [1, train max]; the learned table has 2 x train max + 3 rows.");
  page_slider(s, kLabPage, "test max n", t.test_max, limits::test_max);
  hint("Exact match is measured at n = 5, 10, ..., test max (at most 4 x train max), 200 sequences each.");
  page_slider(s, kLabPage, "RoPE base##lab", t.rope_base, limits::base);
  position_range_slider(s, o);
  page_slider(s, kLabPage, "EMA decay", t.ema_decay, limits::train_ema);
  hint("After every step the average ema = decay ema + (1 - decay) w; accuracy, attention and the saved run use it. "
       "0 = off. With dropout, Zsamboki et al. 2025 found it helps length generalisation (docs/lab.md).");
  page_slider(s, kLabPage, "dropout", t.dropout, limits::train_dropout);
  hint("In training only: each attention probability and each value of both residual branches is zeroed with this "
       "probability, the rest scaled by 1 / (1 - p). 0 = off.");
  page_slider(s, kLabPage, "NoPE every", t.nope_every, limits::train_nope_every);
  hint("A layer schedule: layers k - 1, 2k - 1, ... attend without the encoding (no rotation, no bias), as SmolLM3 "
       "and Llama 4 leave every fourth layer without RoPE. 0 = off. Only encodings acting in attention take it (RoPE, ALiBi, "
       "T5, FIRE and their id variants); NoPE, sinusoidal and learned runs are trained as without it.");
  page_slider(s, kLabPage, "DroPE steps", t.drope_steps, limits::train_drope_steps);
  hint("DroPE (Gelberg et al. 2026): the last this-many steps train without the encoding, a recalibration on a "
       "learning-rate schedule of its own, and the model is tested without it. 0 = off; fewer than the steps. "
       "Encodings acting in attention only, as NoPE every.");
  adjusted_lines(o);
  int scale = int(t.length_scale);
  if (names_combo("length scale", scale, train::kLengthScaleNames)) {
    t.length_scale = train::LengthScale(scale);
    s.pages.mark(kLabPage);
  }
  hint("The attention logits of a query that sees n keys: unscaled, times s ln n with s trained per layer and head "
       "(SSMax, Nakanishi 2025), or times max(1, ln n / ln L) past the longest training sequence L (log-n). The "
       "Softmax page draws both.");
  if (ImGui::InputScalar("seed##lab", ImGuiDataType_U64, &t.seed)) s.pages.mark(kLabPage);
  page_slider(s, kLabPage, "seeds", o.seeds, limits::train_seeds);
  hint("Runs per encoding, seeds seed, seed + 1, ...: the charts draw each encoding's mean with its min-max band.");
  ImGui::EndDisabled();
}

void run_buttons(AppState& s, LabOptions& o, bool training) {
  ImGui::BeginDisabled(training || !o.settings_beyond_limits.empty());
  if (ImGui::Button("Train")) {
    o.train_requested = true;
    s.pages.mark(kLabPage);
  }
  ImGui::EndDisabled();
  // Only the browser's one-thread build lacks threads, and the page loads it where it is not cross-origin isolated.
  hint(threads_available() ? "Trains one model per ticked encoding and seed in the background, one run per core at a time."
                            : "Training on one thread: this page is not cross-origin isolated (see docs/user-guide.md, "
                              "the browser). One model after another, a slice of steps per frame.");
  ImGui::SameLine();
  ImGui::BeginDisabled(!training || (o.runs && o.runs->stopping()));
  if (ImGui::Button("Stop")) {
    o.stop_requested = true;
    s.pages.mark(kLabPage);
  }
  ImGui::EndDisabled();
  hint("Running runs stop after their step and are evaluated as they are; queued ones do not start.");
  if (ImGui::Button("Trained table to Basics")) {
    o.use_table_requested = true;
    s.pages.mark(kLabPage);
  }
  hint("The learned run's position table replaces the sidebar's learned table, as if loaded from a file: "
       "Basics, Learned tables and Criteria then show it.");
}

// A run's state in a few words.
std::string run_status(const LabRunView& v, bool stopped) {
  const train::TrainSnapshot& p = v.snapshot;
  char text[160];
  switch (v.state) {
    case train::RunState::queued: return stopped ? "not started (stopped)" : "queued";
    case train::RunState::failed: return "failed: " + v.error;
    case train::RunState::running:
      if (p.step >= p.steps) return "evaluating";
      std::snprintf(text, sizeof text, "step %d / %d, %.0f steps/s, %.0f s left", p.step, p.steps, p.steps_per_s, p.eta_s);
      return text;
    case train::RunState::done:
      if (p.diverged_at > 0) {
        std::snprintf(text, sizeof text, "diverged at step %d (loss NaN)", p.diverged_at);
        return text;
      }
      std::snprintf(text, sizeof text, "%sloss %.4f", p.step < p.steps ? "stopped, " : "", p.loss.empty() ? NAN : p.loss.back());
      return text;
  }
  return "";
}

// One line per encoding: its colour and name, the progress over its seeds (a bar, when `bars`), and each seed's
// state (the running one's step and time left; when all are done, their final losses).
void progress_lines(const LabOptions& o, bool bars) {
  if (o.views.empty()) {
    ImGui::TextDisabled("No runs yet: press Train in the sidebar, or File > Open a saved experiment. Small settings "
                        "(d_model 32, 300 steps) finish in seconds.");
    return;
  }
  if (!o.opened_from.empty()) ImGui::TextDisabled("Opened from %s (trained earlier; nothing retrains)", o.opened_from.c_str());
  if (!o.unticked_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.6f, 0.3f, 1.0f));
    ImGui::TextWrapped("%s", o.unticked_note.c_str());
    ImGui::PopStyleColor();
  }
  // Every run shown (those of the ticked encodings, the series) trained to its last step: one line, each run's final
  // loss in its hover, so that the charts and the attention tiles get the page's height (six lines of full bars said
  // nothing more at 1280 x 720).
  const auto shown = [&](const LabRunView& v) {
    return std::any_of(o.series.begin(), o.series.end(), [&](const LabSeries& sr) { return sr.pe == v.pe; });
  };
  int runs = 0;
  bool settled = !o.series.empty();
  float lo = INFINITY, hi = -INFINITY;
  for (const LabRunView& v : o.views) {
    if (!shown(v)) continue;
    ++runs;
    settled = settled && v.state == train::RunState::done && v.snapshot.diverged_at <= 0 &&
              v.snapshot.step >= v.snapshot.steps && !v.snapshot.loss.empty();
    if (!v.snapshot.loss.empty()) lo = std::min(lo, v.snapshot.loss.back()), hi = std::max(hi, v.snapshot.loss.back());
  }
  if (settled) {
    ImGui::TextDisabled("%d %s of %d %s, all trained to the end: final loss %.4f to %.4f (hover for each run)", runs,
                        runs == 1 ? "run" : "runs", int(o.series.size()), o.series.size() == 1 ? "encoding" : "encodings",
                        double(lo), double(hi));
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
  }
  const bool stopped = o.runs && o.runs->stopping();
  for (const LabSeries& sr : o.series) {
    const int k = lab_encoding_index(sr.pe);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(encoding_color(k)), "%s", encoding_name(k));
    ImGui::SameLine(ImGui::GetCursorPosX() + 6.0f * ImGui::GetFontSize());
    float done = 0.0f;
    std::string text;
    for (const LabRunView& v : o.views) {
      if (v.pe != sr.pe) continue;
      done += v.snapshot.steps > 0 ? float(v.snapshot.step) / float(v.snapshot.steps) : 0.0f;
      if (v.state == train::RunState::queued && !stopped) continue;
      text += (text.empty() ? "" : "  |  ") + (sr.runs > 1 ? "seed " + std::to_string(v.seed) + ": " : "") +
              run_status(v, stopped);
    }
    if (bars && !settled) {
      ImGui::ProgressBar(done / float(std::max(sr.runs, 1)), ImVec2(ImGui::GetFontSize() * 6.0f, 0.0f), "");
      ImGui::SameLine();
    }
    ImGui::TextUnformatted(text.empty() ? "queued" : text.c_str());
  }
  if (settled) ImGui::EndTooltip();
}

// Training loss: one thin line per run, and each encoding's mean over its seeds (thick) when it has several.
void loss_plot(const LabOptions& o, ImVec2 size) {
  if (!plot::begin_plot("##lab_loss", size)) return;
  double lo = 0.0, hi = 0.0, steps = 1.0;
  bool any = false;
  for (const LabRunView& v : o.views) {
    steps = std::max(steps, double(v.snapshot.steps));
    for (float x : v.log_loss) {
      if (!std::isfinite(x)) continue;
      lo = any ? std::min(lo, double(x)) : x, hi = any ? std::max(hi, double(x)) : x;
      any = true;
    }
  }
  if (!any) lo = -3.0, hi = 0.5;
  plot::setup_axes("step", "training loss (log10)", {0.0, steps}, {lo - 0.1, hi + 0.1}, plot::axis_integer);
  for (const LabSeries& sr : o.series) {
    const int k = lab_encoding_index(sr.pe);
    for (const LabRunView& v : o.views) {
      if (v.pe != sr.pe) continue;
      const double w = v.loss_bucket;
      plot::plot_line(sr.runs > 1 ? hidden_name(k) : encoding_name(k), v.log_loss.data(), int(v.log_loss.size()),
                      0.5 * (w + 1.0), w, 1, sr.runs > 1 ? (encoding_color(k) & 0x80FFFFFFu) : encoding_color(k),
                      sr.runs > 1 ? 1.0f : 1.5f);
    }
    if (sr.runs > 1 && !o.views.empty()) {
      const double w = o.views[0].loss_bucket;
      plot::plot_line(encoding_name(k), sr.mean_log_loss.data(), int(sr.mean_log_loss.size()), 0.5 * (w + 1.0), w, 1,
                      encoding_color(k), 2.0f);
    }
  }
  plot::end_plot();
}

// The lengths whose position ids and id distances training showed, shaded along the x axis (the axis label says
// so): up to train_max for every encoding, and past it, lighter, as far as a charted rand-* run's ids reach.
void seen_in_training_shading(const LabOptions& o, int train_max, double last) {
  const float lo[2] = {-0.05f, -0.05f}, hi[2] = {1.1f, 1.1f};
  const float seen[2] = {0.0f, float(train_max)};
  plot::plot_band(seen, lo, hi, 2, ImGui::GetColorU32(ImGuiCol_Text, 0.07f));
  if (o.covered_by_fixes <= train_max) return;
  const float rand_seen[2] = {float(train_max), float(std::min(double(o.covered_by_fixes), last))};
  plot::plot_band(rand_seen, lo, hi, 2, ImGui::GetColorU32(ImGuiCol_Text, 0.035f));
}

// Exact match against n: each encoding's mean over its seeds with the min-max band, a vertical line at
// train_max over the shading of what training showed; the legend says from which n an encoding is not defined
// (the learned table has no rows for it).
void accuracy_plot(AppState& s, const LabOptions& o, ImVec2 size) {
  if (!plot::begin_plot("##lab_accuracy", size)) return;
  const int train_max = o.runs_train_max > 0 ? o.runs_train_max : o.settings.train_max;
  const double last = o.lengths.empty() ? double(o.settings.test_max) : double(o.lengths.back());
  const std::string n_is = o.runs_task == train::Task::add ? "digits per operand n" : "symbols n";
  // The axis title names the lighter shading (the ids rand-* runs saw) where the chart is wide enough for it; on a
  // slide's narrow chart it would be cut.
  const std::string lighter = n_is + " (shaded: trained, lighter: rand ids)";
  const bool room = ImGui::CalcTextSize(lighter.c_str()).x + 6.0f * ImGui::GetFontSize() <= size.x;
  const std::string x_label = o.covered_by_fixes > train_max && room ? lighter : n_is + " (shaded: trained)";
  plot::setup_axes(x_label.c_str(), "exact match", {0.0, 1.15 * last + 2.0}, {-0.05, 1.1}, plot::axis_integer);
  seen_in_training_shading(o, train_max, last);
  plot::plot_vline(train_max, ImGui::GetColorU32(ImGuiCol_Text, 0.5f), 1.0f);
  plot::plot_text(train_max, 1.06, "train max", ImGui::GetColorU32(ImGuiCol_Text, 0.7f));
  const std::vector<float> xs(o.lengths.begin(), o.lengths.end());  // the x of each length, for the band and the line
  std::vector<std::string> names;  // legend labels, alive until end_plot: where a table has no rows, it says from where
  names.reserve(o.series.size());
  for (const LabSeries& sr : o.series) {
    if (sr.evaluated == 0) continue;
    const int k = lab_encoding_index(sr.pe);
    names.push_back(encoding_name(k));
    for (std::size_t i = 0; i < o.lengths.size() && i < sr.mean.size(); ++i)
      if (std::isnan(sr.mean[i]) && o.lengths[i] > train_max) {
        names.back() += ": undefined from n=" + std::to_string(o.lengths[i]);  // one word: a wrapped legend keeps it whole
        break;
      }
    if (sr.evaluated > 1) plot::plot_band(xs.data(), sr.lo.data(), sr.hi.data(), int(xs.size()), encoding_color(k) & 0x40FFFFFFu);
    plot::plot_line(names.back().c_str(), xs.data(), sr.mean.data(), int(std::min(xs.size(), sr.mean.size())),
                    encoding_color(k), 2.0f);
  }
  plot::end_plot();
  record_page_region(s);
}

// Flowing text: the next item on this line when `text` still fits before `right_edge` (screen x), else on the next.
void same_line_if_fits(const std::string& text, float right_edge) {
  const float gap = ImGui::GetFontSize() * 0.3f;
  if (ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize(text.c_str()).x <= right_edge) ImGui::SameLine(0.0f, gap);
}
float pane_right_edge() { return ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x; }

// The test sequence as text; with `mark_answer`, the answer positions coloured right (green) or, from the first
// wrong one, red (two runs side by side share the line unmarked: each column says where its run goes wrong).
void sequence_line(const LabAttention& a, int n, bool mark_answer) {
  ImGui::TextDisabled("sequence:");
  for (int i = 0; i < int(a.tokens_ids.size()); ++i) {
    const int id = a.tokens_ids[std::size_t(i)];
    const std::string text = id == train::kBos ? "BOS" : id == train::kSep ? "SEP" : id == train::kEos ? "EOS" : std::to_string(id);
    same_line_if_fits("[" + text + "]", pane_right_edge());
    const bool answer = mark_answer && i > a.answer_start;
    const bool wrong = mark_answer && a.wrong >= 0 && i == a.wrong + 1;
    const ImVec4 color = wrong ? ImVec4(1.0f, 0.35f, 0.35f, 1.0f) : answer ? ImVec4(0.5f, 0.85f, 0.5f, 1.0f)
                                                                          : ImGui::GetStyleColorVec4(ImGuiCol_Text);
    ImGui::TextColored(color, wrong ? "[%s]" : "%s", text.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("token %d: %s", i, train::token_role(a.task, i, n).c_str());
  }
}

// The shown sequence's position ids under its tokens' line: an id training never showed in orange, and the widest
// id distance a query meets here beside the widest training showed (Ruoss et al. 2023: the unseen ones break it).
void position_ids_line(const LabAttention& a, float right_edge) {
  if (a.position_ids.empty()) return;
  const ImVec4 unseen(1.0f, 0.6f, 0.2f, 1.0f);
  ImGui::TextDisabled("position ids:");
  for (const LabAttention::IdRun& r : a.id_runs) {  // consecutive ids as "first-last"
    const std::string text = r.first == r.last ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.last);
    same_line_if_fits(text, right_edge);
    if (!r.seen) ImGui::TextColored(unseen, "%s", text.c_str());
    else ImGui::TextUnformatted(text.c_str());
  }
  // Orange when something here is beyond training: a wider id distance, or ids it never showed (then named).
  const bool beyond = a.widest > a.coverage.max_distance;
  const bool any_unseen = std::any_of(a.id_runs.begin(), a.id_runs.end(), [](const LabAttention::IdRun& r) { return !r.seen; });
  ImGui::PushTextWrapPos(right_edge - ImGui::GetWindowPos().x);
  ImGui::TextColored(beyond || any_unseen ? unseen : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
                     any_unseen ? "widest distance %d %s training's %d; ids > %d unseen"
                                : "widest distance %d %s training's %d; every id seen (up to %d)",
                     a.widest, beyond ? ">" : "<=", a.coverage.max_distance, a.coverage.max_id);
  ImGui::PopTextWrapPos();
}

// Where the run's answer first goes wrong (red), or that it is exact (green); `where`, if given, says where that
// query's row is drawn.
void verdict_line(const LabAttention& a, int n, const char* where) {
  const std::string then = where ? std::string("; that query's attention is ") + where : std::string();
  if (a.wrong >= 0) {
    const int k = a.wrong - a.answer_start;  // answer token k: y(k+1) or c(k), or EOS
    const auto name = [](int id) { return id == train::kEos ? std::string("EOS") : id >= train::kSymbols ? std::string("?")
                                                                                                   : std::to_string(id); };
    const std::string wrong_token = train::token_role(a.task, a.wrong + 1, n), said = name(a.answer[std::size_t(k)]),
                      right = name(a.tokens_ids[std::size_t(a.wrong + 1)]);
    if (where)
      ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "first wrong answer token: %s, the model says %s where %s is "
                         "right (query %d, %s)%s", wrong_token.c_str(), said.c_str(), right.c_str(), a.wrong,
                         train::token_role(a.task, a.wrong, n).c_str(), then.c_str());
    else  // a column beside another: the short form
      ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "first wrong: %s = %s, not %s", wrong_token.c_str(),
                         said.c_str(), right.c_str());
  }
  else
    ImGui::TextColored(ImVec4(0.5f, 0.85f, 0.5f, 1.0f), "answered exactly%s",
                       where ? ("; the last query's attention is " + std::string(where)).c_str() : "");
}

// The run, the run beside it, the length and the test sequence whose attention is shown.
void attention_controls(AppState& s, LabOptions& o) {
  const train::TrainSettings& t = o.settings;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (ImGui::BeginCombo("run##lab_attention", encoding_name(o.attention_pe))) {
    for (int k = 0; k < kLabEncodings; ++k)
      if (ImGui::Selectable(encoding_name(k), k == o.attention_pe)) {
        o.attention_pe = k;
        s.pages.mark(kLabPage);
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (ImGui::BeginCombo("beside##lab_attention", o.beside_pe < 0 ? "none" : encoding_name(o.beside_pe))) {
    for (int k = -1; k < kLabEncodings; ++k)
      if (ImGui::Selectable(k < 0 ? "none" : encoding_name(k), k == o.beside_pe)) {
        o.beside_pe = k;
        s.pages.mark(kLabPage);
      }
    ImGui::EndCombo();
  }
  hint("A second run beside the first, on the same test sequence: where each one's answer query looks.");
  next_slider_on_line("length n##lab_attention");
  page_slider(s, kLabPage, "length n##lab_attention", o.attention_length, 1, std::max(t.train_max, t.test_max));
  hint("Lengths past train max show what the model attends to on sequences longer than any it was trained on.");
  next_slider_on_line("test sequence##lab_attention");
  page_slider(s, kLabPage, "test sequence##lab_attention", o.attention_sample, 0, t.test_samples - 1);
  hint("Which of the test sequences of this length (the same ones the exact match is measured on).");
}

// The answer query's attention over the keys, one row per layer and head, under its heading.
void query_row_panel(LabAttention& a, int n, const char* id, float width, float height) {
  const int query = a.query;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);  // the heading wraps at its heatmap's width
  ImGui::Text("attention of query %d (%s); one row per layer and head (%d x %d)", query, train::token_role(a.task, query, n).c_str(),
              a.layers, a.heads);
  ImGui::PopTextWrapPos();
  heatmap_panel(a.query_image, id, "key j", "layer x head", "attention probability",
                ImVec2(width, readable_height(height - ImGui::GetTextLineHeightWithSpacing())));
}

// One run of two side by side: its name, verdict and position ids, in a column `width` wide.
void beside_column(const LabAttention& a, int pe, int n, float width) {
  ImGui::BeginGroup();
  const float right = ImGui::GetCursorScreenPos().x + width;
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(encoding_color(pe)), "%s", encoding_name(pe));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  if (a.defined) verdict_line(a, n, nullptr);
  else ImGui::TextColored(ImVec4(0.95f, 0.6f, 0.3f, 1.0f), "%s", a.note.c_str());
  ImGui::PopTextWrapPos();
  if (a.defined) position_ids_line(a, right);
  ImGui::Dummy(ImVec2(width, 1.0f));
  ImGui::EndGroup();
}

// Two runs on the same test sequence (the run list's and the "beside" one's): their words side by side, then the
// query both are shown at, one row per layer and head of each, in one picture on one colour scale.
void side_by_side_panel(LabOptions& o) {
  const LabAttention& first = o.attention.defined ? o.attention : o.beside;
  const int n = train::length_of_sequence(first.task, first.tokens);
  if (first.defined) sequence_line(first, n, false);
  const float spacing = ImGui::GetStyle().ItemSpacing.x, em = ImGui::GetFontSize();
  const float width = 0.5f * (ImGui::GetContentRegionAvail().x - spacing - em);
  beside_column(o.attention, o.attention_pe, n, width);
  ImGui::SameLine(0.0f, spacing + em);
  beside_column(o.beside, o.beside_pe, n, width);
  if (o.pair_rows.rows == 0) return;
  const LabAttention& a = o.attention;
  const float avail = ImGui::GetContentRegionAvail().x;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text("attention of query %d (%s): %s's %d x %d layer x head rows above the grey line, %s's below", a.query,
              train::token_role(a.task, a.query, n).c_str(), encoding_name(o.attention_pe), a.layers, a.heads, encoding_name(o.beside_pe));
  ImGui::PopTextWrapPos();
  heatmap_panel(o.pair_image, "##lab_pair_rows", "key j", "layer x head, both runs", "attention probability",
                ImVec2(avail, readable_height(ImGui::GetContentRegionAvail().y)));
}

void attention_panel(AppState& s, LabOptions& o, float height) {
  if (shows_controls(s)) attention_controls(s, o);  // figures and presented slides leave them out
  if (o.beside_pe >= 0) return side_by_side_panel(o);
  LabAttention& a = o.attention;
  if (!a.defined) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(0.95f, 0.6f, 0.3f, 1.0f), "%s", a.note.c_str());
    ImGui::PopTextWrapPos();
    ImGui::Dummy(ImVec2(1.0f, std::max(height - 2.0f * ImGui::GetFrameHeightWithSpacing(), 1.0f)));
    return;
  }
  const int n = train::length_of_sequence(a.task, a.tokens);
  sequence_line(a, n, true);
  position_ids_line(a, pane_right_edge());
  ImGui::PushTextWrapPos(0.0f);  // the verdict wraps at the pane's right edge
  verdict_line(a, n, "on the right");
  ImGui::TextDisabled("Tiles: rows = layers 1..%d, columns = heads 1..%d; row = query, column = key", a.layers, a.heads);
  ImGui::PopTextWrapPos();
  // Square cells: as wide as the tiles need at this height (plus the axis and the colourbar), at most 60% of the
  // width and at least readable; the query's row beside them, or under them when the width is short and the charts
  // share the page.
  const float h = readable_height(ImGui::GetContentRegionAvail().y), em = ImGui::GetFontSize();
  const float avail = ImGui::GetContentRegionAvail().x, spacing = ImGui::GetStyle().ItemSpacing.x;
  const float panel_min = readable_heatmap_panel_width();
  const bool beside = o.show == LabShow::attention || fits_side_by_side(2, 2 * colorbar_extra_width());
  const float w = h * float(a.maps.cols) / float(std::max<std::size_t>(a.maps.rows, 1)) + 9.0f * em;
  const float tiles_w = o.show == LabShow::attention ? 0.5f * (avail - spacing)  // the panel fills the page: halves
                        : beside ? std::clamp(w, panel_min, std::max(0.6f * avail, panel_min)) : avail;
  heatmap_panel(a.maps_image, "##lab_attention_maps", "key j", "query i", "attention probability", ImVec2(tiles_w, h));
  if (beside) ImGui::SameLine();
  ImGui::BeginGroup();
  const float row_w = o.show == LabShow::attention ? avail - tiles_w - spacing
                      : beside ? std::max(avail - tiles_w - spacing, panel_min) : avail;
  query_row_panel(a, n, "##lab_query_row", row_w, h);
  ImGui::EndGroup();
}

}  // namespace

void draw_lab_controls(AppState& s) {
  LabOptions& o = s.pages.lab;
  const bool training = lab_training(o);
  settings_controls(s, o, training);
  run_buttons(s, o, training);
  int show = int(o.show);
  const char* shows[] = {"charts and attention", "charts", "attention", "the Reproductions table"};
  if (ImGui::Combo("show##lab", &show, shows, int(std::size(shows)))) {
    o.show = LabShow(show);
    s.pages.mark(kLabPage);
  }
  hint("What the page draws: the loss and accuracy charts, the attention panel, both, or the Reproductions table "
       "(each method's paper and claim against the lab's seeds of it).");
}

void draw_lab_view(AppState& s) {
  LabOptions& o = s.pages.lab;
  if (!presenting_lesson(s))  // a lesson's slide has the settings in its header and the step's words beside it
    view_title("Lab: train tiny transformers with each positional encoding, then test them on longer sequences");
  // A figure keeps the words, not the bars; a lesson's slide of finished runs leaves both to the title line.
  if (o.show == LabShow::reproductions) return draw_reproductions(s);  // the table, not the runs on the page
  if (!presenting_lesson(s) || lab_training(o)) progress_lines(o, !drawing_figure(s));
  if (o.show == LabShow::attention) return attention_panel(s, o, ImGui::GetContentRegionAvail().y);
  // Loss and accuracy side by side (one under the other when the width is short), the attention maps below.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool beside = fits_side_by_side(2);
  const float width = beside ? 0.5f * (avail.x - ImGui::GetStyle().ItemSpacing.x) : avail.x;
  // A legend's rows above a chart come on top of the readable minimum (the page scrolls when it must).
  const float legend_rows = std::max(plot::legend_room_above("##lab_loss"), plot::legend_room_above("##lab_accuracy"));
  // The charts fill the page, or leave the attention panel its part (most of the page; a note needs one line).
  const bool only_note = !o.attention.defined && o.beside_pe < 0;
  const float share = o.show == LabShow::charts ? (beside ? 1.0f : 0.5f) : only_note ? 0.8f : beside ? 0.45f : 0.3f;
  const float top = std::max(avail.y * share - (o.show == LabShow::charts ? ImGui::GetStyle().ItemSpacing.y : 0.0f),
                             kMinPlotHeightEm * ImGui::GetFontSize() + legend_rows);
  loss_plot(o, ImVec2(width, top));
  if (beside) ImGui::SameLine();
  accuracy_plot(s, o, ImVec2(width, top));
  if (o.show == LabShow::all) attention_panel(s, o, ImGui::GetContentRegionAvail().y);
}

}  // namespace peviz::app
