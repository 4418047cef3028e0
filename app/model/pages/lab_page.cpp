// The Lab page: trains tiny transformers with each positional encoding in the background (core/train) and
// shows their loss curves, exact match by length and attention maps (Kazemnejad et al. 2023, in miniature).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <tuple>
#include <utility>

#include "app/model/app_update.hpp"
#include "app/model/data_files.hpp"
#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "app/model/pages/lab_attention.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/train/experiment.hpp"
#include "core/train/run_io.hpp"

namespace peviz::app {

using train::PositionEncoding;
using train::TrainSettings;

constexpr int kWorkerNice = 10;  // training threads' nice value: below the frame loop (results do not depend on it)
// Without threads (the browser): training time per frame, on the frame loop's thread; the page stays at
// about 40 frames a second while the runs go on.
constexpr double kTrainingSliceS = 0.012;

// ---- settings ----------------------------------------------------------------------------------

namespace lab_local {  // this page's own names (the pages share a unity batch)
namespace {

// The Lab encodings' names, in the table's order (train::kLabEncodings): the attention run's choice.
constexpr auto kLabEncodingNames = [] {
  std::array<std::string_view, train::kLabEncodingCount> names{};
  for (std::size_t k = 0; k < names.size(); ++k) names[k] = train::kLabEncodings[k].name;
  return names;
}();

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
// Loss curves are drawn as means over buckets of steps: at most 1000 points a curve, and at most 6000 over the
// whole chart (one curve per run, plus a mean per encoding with several seeds), which keeps the chart's
// vertices under ImGui's 16-bit index limit with 18 or more runs.
constexpr int kMaxCurvePoints = 1000, kMaxChartPoints = 6000;

int loss_points_per_curve(const train::RunQueue& runs) {
  std::array<int, kLabEncodings> per_encoding{};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    ++per_encoding[std::size_t(lab_encoding_index(runs.settings(i).pe))];
  }
  int curves = 0;
  for (int n : per_encoding) curves += n + (n > 1 ? 1 : 0);
  return std::clamp(kMaxChartPoints / std::max(curves, 1), 50, kMaxCurvePoints);
}

TrainSettings settings_for(const LabOptions& o, PositionEncoding pe) { return train::run_settings(o.settings, pe); }

std::vector<std::uint64_t> seed_list(const LabOptions& o) {
  std::vector<std::uint64_t> seeds;
  for (int k = 0; k < o.seeds; ++k) seeds.push_back(o.settings.seed + std::uint64_t(k));
  return seeds;
}

// The seeds of the runs on the page, distinct and ascending; before any run, the seeds Train would use.
std::vector<std::uint64_t> shown_seeds(const LabOptions& o) {
  if (!o.runs || o.runs->size() == 0) return seed_list(o);
  std::vector<std::uint64_t> seeds;
  for (std::size_t i = 0; i < o.runs->size(); ++i) seeds.push_back(o.runs->settings(i).seed);
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  return seeds;
}

// "seed 3", "seeds 7-9" (consecutive) or "seeds 0, 4, 7".
std::string seeds_text(const std::vector<std::uint64_t>& seeds) {
  if (seeds.size() == 1) return "seed " + std::to_string(seeds[0]);
  if (seeds.back() - seeds.front() + 1 == seeds.size())
    return "seeds " + std::to_string(seeds.front()) + "-" + std::to_string(seeds.back());
  std::string text = "seeds ";
  for (std::size_t k = 0; k < seeds.size(); ++k) text += (k ? ", " : "") + std::to_string(seeds[k]);
  return text;
}

// The ticked encodings that have a meaning on the task (the view greys out the others: coupling on sort).
std::vector<PositionEncoding> chosen_encodings(const LabOptions& o) {
  std::vector<PositionEncoding> chosen;
  for (int k = 0; k < kLabEncodings; ++k)
    if (o.compare[std::size_t(k)] && encoding_fits_task(o, k)) chosen.push_back(train::kAllPositionEncodings[std::size_t(k)]);
  return chosen;
}

// The inputs through core's validation of a run (ranges, head dimension, test-max rule, memory), the
// RoPE base through the window's range, and the attention choices.
void check_inputs(const LabOptions& o) {
  train::validate(settings_for(o, PositionEncoding::rope));
  for (PositionEncoding pe : chosen_encodings(o)) train::validate(settings_for(o, pe));
  check_window_real(limits::base, o.settings.rope_base);
  check_int(limits::train_seeds, o.seeds);
  check_int(Limit{.name = "attention-length", .min = 1, .max = limits::test_max.max, .fallback = 1}, o.attention_length);
  check_int(Limit{.name = "attention-sample", .min = 0, .max = double(o.settings.test_samples - 1), .fallback = 0}, o.attention_sample);
  check_int(Limit{.name = "attention-pe", .min = 0, .max = double(kLabEncodings - 1),
                  .fallback = double(train::PositionEncoding::rope)},
            o.attention_pe);
  check_int(Limit{.name = "attention-beside", .min = -1, .max = double(kLabEncodings - 1), .fallback = -1}, o.beside_pe);
}

}  // namespace
}  // namespace lab_local

std::vector<TrainSettings> lab_settings(const LabOptions& o) {
  lab_local::check_inputs(o);
  return train::experiment_settings(o.settings, lab_local::chosen_encodings(o), lab_local::seed_list(o));
}

bool encoding_fits_task(const LabOptions& o, int k) {
  return train::sampler_refusal(train::kLabEncodings[std::size_t(k)].positions, o.settings.task).empty();
}

namespace {

// Sets `value` to `valid`, naming the change in `adjusted` ("DroPE steps 800 -> 499: fewer than the steps").
void adjust_lab_input(std::vector<std::string>& adjusted, int& value, int valid, const char* name, const char* why) {
  if (value == valid) return;
  adjusted.push_back(std::string(name) + " " + std::to_string(value) + " -> " + std::to_string(valid) + ": " + why);
  value = valid;
}

// The ticked encodings that add their positions to the embeddings, which NoPE every and DroPE steps do not reach.
std::string lab_schedule_note(const LabOptions& o) {
  const TrainSettings& t = o.settings;
  if (t.nope_every == 0 && t.drope_steps == 0) return "";
  std::string skipped;
  for (PositionEncoding pe : lab_local::chosen_encodings(o))
    if (!train::takes_layer_schedule(pe)) skipped += (skipped.empty() ? "" : ", ") + std::string(to_string(pe));
  if (skipped.empty()) return "";
  const char* what = t.nope_every && t.drope_steps ? "NoPE every and DroPE steps" : t.nope_every ? "NoPE every" : "DroPE steps";
  return std::string(what) + " not applied to " + skipped + " (positions added to the embeddings): trained as without it";
}

// Whether core refuses the page's runs at `batch` for their memory (and for nothing else).
bool lab_batch_too_big(const LabOptions& o, int batch) {
  TrainSettings t = lab_local::settings_for(o, PositionEncoding::rope);
  t.batch = batch;
  try {
    train::validate(t);
    return false;
  } catch (const ParamError& e) {
    return e.param == "batch";
  }
}

}  // namespace

void keep_lab_inputs_valid(LabOptions& o) {
  o.adjusted.clear();
  o.schedule_note.clear();
  if (!o.settings_beyond_limits.empty()) return;  // an opened run's settings, shown as they are
  TrainSettings& t = o.settings;
  std::vector<std::string>& a = o.adjusted;
  const int m = 2 * t.heads;
  const int lo = (int(limits::train_d_model.min) + m - 1) / m * m, hi = int(limits::train_d_model.max) / m * m;
  adjust_lab_input(a, t.d_model, std::clamp((t.d_model + m / 2) / m * m, lo, hi), "d_model", "a multiple of 2 x heads");
  adjust_lab_input(a, t.test_max, std::min(t.test_max, 4 * t.train_max), "test max n", "at most 4 x train max n");
  // A layer schedule within the layers (1 would leave none with positions: the next valid value, 2, or off).
  adjust_lab_input(a, t.nope_every, t.nope_every == 1 ? 2 : t.nope_every, "NoPE every",
                   "1 would leave no layer with positions");
  const int schedule_within = t.nope_every > t.layers ? (t.layers >= 2 ? t.layers : 0) : t.nope_every;
  adjust_lab_input(a, t.nope_every, schedule_within, "NoPE every", "within the layers");
  // DroPE within the steps: at least the first step keeps its positions.
  adjust_lab_input(a, t.drope_steps, std::min(t.drope_steps, t.steps - 1), "DroPE steps", "fewer than the steps");
  // As wide as the ticked encodings' sampled ids need (core's minimum_position_range): a randomized run needs the
  // longest sequence, a coupled one only its ids' span.
  int range = t.position_range;
  for (PositionEncoding pe : lab_local::chosen_encodings(o))
    range = std::max(range, train::minimum_position_range(lab_local::settings_for(o, pe)));
  adjust_lab_input(a, t.position_range, range, "position range", "the ticked encodings' ids need it");
  o.schedule_note = lab_schedule_note(o);
  int batch = t.batch;
  while (batch > 1 && lab_batch_too_big(o, batch)) batch /= 2;  // other rules: the status line says which
  adjust_lab_input(a, t.batch, batch, "batch", "halved until a run fits the memory budget");
}

bool lab_training(const LabOptions& o) { return o.runs && !o.runs->ended(); }

namespace lab_local {
namespace {

// The first test length past the training range (where extrapolation shows), else the last one.
int first_length_beyond(const std::vector<int>& lengths, int train_max) {
  const auto beyond = std::find_if(lengths.begin(), lengths.end(), [&](int n) { return n > train_max; });
  return beyond != lengths.end() ? *beyond : lengths.back();
}

// Train: one run per chosen encoding and seed, on background_workers() workers; none where there are no threads
// (the browser's one-thread build), where update() trains a slice of steps per frame.
void start_runs(LabOptions& o) {
  if (lab_training(o)) throw ParamError("train", "runs are still going: press Stop first");
  std::vector<TrainSettings> settings = lab_settings(o);
  if (settings.empty()) throw ParamError("pe", "choose at least one encoding to train");
  const int cores = threads_available() ? background_workers() : 0;
  o.views.clear();
  o.series.clear();
  o.lengths = train::test_lengths(o.settings.test_max);
  o.runs_train_max = o.settings.train_max;
  o.runs_task = o.settings.task;
  if (o.attention_length <= o.runs_train_max) o.attention_length = first_length_beyond(o.lengths, o.runs_train_max);
  o.runs.reset();  // the previous runs have ended: their destructor joins at once
  o.opened_from.clear();
  o.opened_shipped.clear();
  o.experiment.clear();
  ++o.generation;
  o.runs = std::make_shared<train::RunQueue>(std::move(settings), cores, kWorkerNice);
}

// log10 of the mean training loss over buckets of `bucket` steps (the last bucket may be partial).
std::vector<float> bucketed_log_loss(const std::vector<float>& loss, int bucket) {
  std::vector<float> out;
  for (std::size_t b = 0; b < loss.size(); b += std::size_t(bucket)) {
    const std::size_t e = std::min(loss.size(), b + std::size_t(bucket));
    double sum = 0.0;
    for (std::size_t i = b; i < e; ++i) sum += loss[i];
    out.push_back(float(std::log10(std::max(sum / double(e - b), 1e-12))));
  }
  return out;
}

// Copies each run's snapshot (a finished run's only once) into what the view draws.
void refresh_views(LabOptions& o) {
  if (!o.runs) return;
  const train::RunQueue& runs = *o.runs;
  const int points = loss_points_per_curve(runs);
  o.views.resize(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    LabRunView& v = o.views[i];
    const train::RunState state = runs.state(i);
    if (v.state == state && (state == train::RunState::done || state == train::RunState::failed)) continue;
    v.pe = runs.settings(i).pe;
    v.seed = runs.settings(i).seed;
    v.state = state;
    v.error = runs.error(i);
    const train::TrainRun* run = runs.run(i);
    if (!run) continue;
    v.snapshot = run->snapshot();
    v.loss_bucket = std::max(1, (runs.settings(i).steps + points - 1) / points);
    v.log_loss = bucketed_log_loss(v.snapshot.loss, v.loss_bucket);
    v.exact_match.assign(o.lengths.size(), kNaN);
    for (const train::LengthAccuracy& a : v.snapshot.accuracy) {
      const auto at = std::find(o.lengths.begin(), o.lengths.end(), a.n);
      if (at != o.lengths.end() && a.exact_match) v.exact_match[std::size_t(at - o.lengths.begin())] = float(*a.exact_match);
    }
  }
}

// One series per ticked encoding among the runs (an unticked one leaves the charts at once, as Train would drop
// it): the mean of its seeds' loss curves, and the mean, minimum and maximum exact match per length over its
// evaluated seeds (a length not defined for any is NaN).
void refresh_series(LabOptions& o) {
  o.series.clear();
  for (PositionEncoding pe : train::kAllPositionEncodings) {
    if (!o.compare[std::size_t(lab_encoding_index(pe))]) continue;
    LabSeries sr;
    sr.pe = pe;
    std::vector<double> loss_sum;
    std::vector<int> loss_count;
    std::vector<const train::TrainSnapshot*> seeds;
    for (const LabRunView& v : o.views) {
      if (v.pe != pe) continue;
      ++sr.runs;
      if (v.log_loss.size() > loss_sum.size()) loss_sum.resize(v.log_loss.size(), 0.0), loss_count.resize(v.log_loss.size(), 0);
      for (std::size_t b = 0; b < v.log_loss.size(); ++b) loss_sum[b] += v.log_loss[b], ++loss_count[b];
      seeds.push_back(&v.snapshot);
    }
    if (sr.runs == 0) continue;
    for (std::size_t b = 0; b < loss_sum.size(); ++b) sr.mean_log_loss.push_back(float(loss_sum[b] / loss_count[b]));
    // The line and band over the seeds: core's rule, which the experiment's per-encoding CSV writes too.
    const train::SeedsAccuracy acc = train::seeds_accuracy(o.lengths, seeds);
    sr.evaluated = acc.evaluated;
    for (std::size_t k = 0; k < o.lengths.size(); ++k) {
      sr.mean.push_back(float(acc.mean[k]));
      sr.lo.push_back(float(acc.lo[k]));
      sr.hi.push_back(float(acc.hi[k]));
    }
    o.series.push_back(std::move(sr));
  }
  o.unticked_note.clear();
  if (!o.series.empty() || o.views.empty()) return;
  std::vector<PositionEncoding> present;
  for (const LabRunView& v : o.views)
    if (std::find(present.begin(), present.end(), v.pe) == present.end()) present.push_back(v.pe);
  for (PositionEncoding pe : present) o.unticked_note += (o.unticked_note.empty() ? "" : ", ") + std::string(to_string(pe));
  o.unticked_note = "No ticked encoding is among these runs (" + o.unticked_note +
                    "): tick one to chart it, or press Train.";
}

// The longest n whose ids and id distances training covered for some charted rand-* run (core's covered_length).
void refresh_coverage(LabOptions& o) {
  o.covered_by_fixes = 0;
  for (std::size_t i = 0; o.runs && i < o.runs->size(); ++i) {
    const train::TrainSettings& t = o.runs->settings(i);
    const auto shown = std::find_if(o.series.begin(), o.series.end(), [&](const LabSeries& sr) { return sr.pe == t.pe; });
    if (train::sampler_of(t.pe) == train::PositionSampler::randomized && shown != o.series.end() && shown->evaluated > 0)
      o.covered_by_fixes = std::max(o.covered_by_fixes, train::covered_length(train::sampler_of(t.pe), t.task, t.train_max, t.position_range));
  }
}

// Opens assets/lab/<name>.json (a shipped experiment); the page notes why when it cannot. The length the state asked
// for (a preset's "attention_length") stays when it is a tested length past the runs' training length.
void open_shipped(AppState& s, const std::string& name) {
  LabOptions& o = s.pages.lab;
  const std::string relative = "assets/lab/" + name + ".json";
  const std::filesystem::path path = find_data_file(relative);
  if (path.empty()) throw ParamError("experiment", "no shipped experiment '" + name + "': " + describe_search(relative));
  const int asked_length = o.attention_length;
  open_lab_experiment(s, path.string());
  o.opened_shipped = name;
  if (asked_length > o.runs_train_max && std::find(o.lengths.begin(), o.lengths.end(), asked_length) != o.lengths.end())
    o.attention_length = asked_length;
}

// Before anything ran, the shipped default experiment, if installed. Inputs that a link, a preset or the session
// set (they differ from the defaults) stay in the sidebar: the page shows the shipped runs, and Train trains what
// was asked.
void show_default_experiment(AppState& s) {
  LabOptions& o = s.pages.lab;
  const LabOptions defaults;
  const bool asked = o.settings != defaults.settings || o.compare != defaults.compare || o.seeds != defaults.seeds;
  const auto inputs = std::tuple(o.settings, o.compare, o.seeds);
  try {
    open_shipped(s, kDefaultExperiment);
  } catch (const ParamError&) {
  }
  if (asked) std::tie(o.settings, o.compare, o.seeds) = inputs;
}

void update(AppState& s) {
  LabOptions& o = s.pages.lab;
  if (std::exchange(o.stop_requested, false) && o.runs) o.runs->stop();
  if (std::exchange(o.new_experiment_requested, false)) {  // the opened runs stay on the page
    o.settings = TrainSettings{};
    o.settings_beyond_limits.clear();
  }
  keep_lab_inputs_valid(o);  // after the sidebar moved a slider: before the next frame shows it
  if (std::exchange(o.train_requested, false)) start_runs(o);
  if (!o.experiment.empty() && o.experiment != o.opened_shipped) open_shipped(s, std::exchange(o.experiment, ""));
  if (!o.runs && !std::exchange(o.shipped_shown, true)) show_default_experiment(s);
  if (std::exchange(o.use_table_requested, false)) use_trained_table(s);
  if (o.runs) o.runs->advance(kTrainingSliceS);  // without threads only
  if (o.runs && o.runs->ended()) o.runs->wait();
  refresh_views(o);
  refresh_series(o);
  refresh_coverage(o);
  refresh_lab_attention(o);
  if (o.show == LabShow::reproductions && o.reproductions.empty()) o.reproductions = train::reproduction_rows();
}

// Per frame: while runs go on (or have just ended), the page refreshes from their snapshots.
void advance(AppState& s, double) {
  const LabOptions& o = s.pages.lab;
  if (!o.runs) return;
  bool behind = o.views.size() != o.runs->size();
  for (std::size_t i = 0; i < o.views.size() && !behind; ++i) behind = o.views[i].state != o.runs->state(i);
  if (behind || lab_training(o)) s.pages.mark(Page::lab);
}

bool busy(const AppState& s) { return lab_training(s.pages.lab); }

// Columns: n, then the exact match of nope, sinusoidal, learned, rope, alibi, t5 at that length, the mean over
// the seeds (kAllPositionEncodings order; NaN = not defined, not trained or not evaluated yet). Before any run: the
// test lengths of the current settings, all NaN.
NdArray export_data(const AppState& s) {
  const LabOptions& o = s.pages.lab;
  const std::vector<int> lengths = o.lengths.empty() ? train::test_lengths(o.settings.test_max) : o.lengths;
  std::vector<std::vector<float>> cols(1 + kLabEncodings, std::vector<float>(lengths.size(), kNaN));
  for (std::size_t k = 0; k < lengths.size(); ++k) cols[0][k] = float(lengths[k]);
  for (const LabSeries& sr : o.series) {
    const std::size_t c = 1 + std::size_t(lab_encoding_index(sr.pe));
    for (std::size_t k = 0; k < sr.mean.size() && k < lengths.size(); ++k) cols[c][k] = sr.mean[k];
  }
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const LabOptions& o = s.pages.lab;
  const std::string dot = kCaptionDot;
  if (o.show == LabShow::reproductions)  // the table, not the page's runs
    return "Lab" + dot + "Reproductions: the papers' claims against our seeds";
  // The figure's runs when there are some (the sliders may have moved since), else what Train would run.
  const TrainSettings& t = o.runs && o.runs->size() > 0 ? o.runs->settings(0) : o.settings;
  const std::string seeds = seeds_text(shown_seeds(o));
  return "Lab" + dot + std::string(train::to_string(t.task)) + dot + counted(t.layers, "layer") + " x " +
         counted(t.heads, "head") + ", d_model " + std::to_string(t.d_model) + dot + "batch " +
         std::to_string(t.batch) + ", " + std::to_string(t.steps) + " steps" + dot + "train n <= " +
         std::to_string(t.train_max) + ", test to " + std::to_string(t.test_max) + dot + seeds +
         (t.length_scale == train::LengthScale::ssmax ? dot + "SSMax logits"
          : t.length_scale == train::LengthScale::logn ? dot + "log-n logits" : std::string());
}

// An encoding's index in kAllPositionEncodings from its name; ParamError(key) naming the known ones otherwise.
int encoding_index(const std::string& name, const char* key) {
  PositionEncoding pe;
  if (!train::parse_position_encoding(name, pe))
    throw ParamError(key, "must be one of " + train::lab_encoding_names() + ", got " + name);
  return lab_encoding_index(pe);
}

// The ticked encodings and the second attention run (a list, and a choice with "none"), and the experiment.
// The keys read_extra reads besides the settings table's (PageModel::extra_keys).
inline constexpr const char* kExtraKeys[] = {"encodings", "attention_beside", "experiment"};

bool read_extra(const nlohmann::json& j, PageStates& a) {
  LabOptions& o = a.lab;
  if (j.contains("encodings")) {
    const nlohmann::json& e = j.at("encodings");
    if (!e.is_array()) throw ParamError("encodings", "must be an array of encoding names");
    o.compare.fill(false);
    for (const nlohmann::json& name : e) {
      PositionEncoding pe;
      if (!name.is_string() || !train::parse_position_encoding(name.get<std::string>(), pe))
        throw ParamError("encodings", "must name one of " + train::lab_encoding_names() + ", got " + name.dump());
      o.compare[std::size_t(lab_encoding_index(pe))] = true;
    }
  }
  if (j.contains("attention_beside")) {
    std::string beside;
    read(j, "attention_beside", beside);
    o.beside_pe = beside.empty() ? -1 : encoding_index(beside, "attention_beside");
  }
  read(j, "experiment", o.experiment);
  return false;
}

void write_extra(const PageStates& a, nlohmann::json& j) {
  const LabOptions& o = a.lab;
  nlohmann::json encodings = nlohmann::json::array();
  for (int k = 0; k < kLabEncodings; ++k)
    if (o.compare[std::size_t(k)]) encodings.push_back(std::string(kLabEncodingNames[std::size_t(k)]));
  j["encodings"] = encodings;
  j["attention_beside"] = o.beside_pe < 0 ? std::string() : std::string(kLabEncodingNames[std::size_t(o.beside_pe)]);
  j["experiment"] = o.experiment.empty() ? o.opened_shipped : o.experiment;
}

void check(const PageStates& a) { check_inputs(a.lab); }

// The runs' settings (core's limits: train::validate checks them together in check_inputs) and the views'. The
// caption names the runs shown (an opened or trained experiment), not these settings for the next Train.
#define PEVIZ_LAB_TRAIN(field, limit_row, text)                                                                \
  {.key = #field, .help = text, .access = member<&PageStates::lab, &LabOptions::settings, &TrainSettings::field>(), \
   .limit = &limits::limit_row, .full_range = true, .in_caption = false}
constexpr PageSetting kSettings[] = {
    {.key = "task", .help = "What the runs learn: copy, reverse or sort the symbols, or add two numbers",
     .access = choice_member<train::kTaskNames, &PageStates::lab, &LabOptions::settings, &TrainSettings::task>(), .in_caption = false},
    PEVIZ_LAB_TRAIN(layers, train_layers, "Transformer layers"),
    PEVIZ_LAB_TRAIN(heads, train_heads, "Attention heads (d_model / heads even)"),
    PEVIZ_LAB_TRAIN(d_model, train_d_model, "Model width"),
    PEVIZ_LAB_TRAIN(batch, train_batch, "Sequences per step"),
    PEVIZ_LAB_TRAIN(steps, train_steps, "Training steps"),
    PEVIZ_LAB_TRAIN(train_max, train_max, "Training lengths n = 1..this"),
    PEVIZ_LAB_TRAIN(test_max, test_max, "Test lengths n = 5, 10, ..., this (at most 4 x train_max)"),
    {.key = "seed", .help = "The first run's seed (each further seed +1)",
     .access = member<&PageStates::lab, &LabOptions::settings, &TrainSettings::seed>(), .in_caption = false},
    {.key = "rope_base", .help = "RoPE's base", .access = member<&PageStates::lab, &LabOptions::settings, &TrainSettings::rope_base>(),
     .limit = &limits::base, .in_caption = false},
    PEVIZ_LAB_TRAIN(position_range, position_range, "Randomized and coupled ids: drawn from [0, this)"),
    PEVIZ_LAB_TRAIN(ema_decay, train_ema, "Decay of the weights' moving average, evaluated in their place; 0 = off"),
    PEVIZ_LAB_TRAIN(dropout, train_dropout, "Dropout on attention probabilities and residual branches; 0 = off"),
    PEVIZ_LAB_TRAIN(nope_every, train_nope_every, "Every this-many-th layer without positions (0 = off)"),
    PEVIZ_LAB_TRAIN(drope_steps, train_drope_steps, "DroPE: the last this-many steps without positions (0 = off)"),
    {.key = "length_scale", .help = "The attention logits' length scale: none, ssmax (s ln n, s trained) or logn",
     .access = choice_member<train::kLengthScaleNames, &PageStates::lab, &LabOptions::settings, &TrainSettings::length_scale>(),
     .in_caption = false},
    {.key = "seeds", .help = "Runs per encoding", .access = member<&PageStates::lab, &LabOptions::seeds>(),
     .limit = &limits::train_seeds, .full_range = true, .in_caption = false},
    {.key = "attention_pe", .help = "The run whose attention maps are drawn",
     .access = choice_member<kLabEncodingNames, &PageStates::lab, &LabOptions::attention_pe>(), .in_caption = false},
    {.key = "attention_length", .help = "The attention maps' test sequence: its n symbols",
     .access = member<&PageStates::lab, &LabOptions::attention_length>(), .in_caption = false},
    {.key = "attention_sample", .help = "The attention maps' test sequence: which one of that length",
     .access = member<&PageStates::lab, &LabOptions::attention_sample>(), .in_caption = false},
    {.key = "show", .help = "What the page shows: all, the charts, the attention maps or the Reproductions table",
     .access = choice_member<kLabShowNames, &PageStates::lab, &LabOptions::show>(), .in_caption = false},
};
#undef PEVIZ_LAB_TRAIN

void heatmaps(PageStates& a, std::vector<plot::HeatmapImage*>& out) {
  out.push_back(&a.lab.attention.maps_image);
  out.push_back(&a.lab.attention.query_image);
  out.push_back(&a.lab.beside.maps_image);
  out.push_back(&a.lab.beside.query_image);
  out.push_back(&a.lab.pair_image);
}

}  // namespace
}  // namespace lab_local

extern const PageModel lab_page{.name = "lab", .title = "Lab", .json_key = "lab", .update = lab_local::update,
                                .advance = lab_local::advance, .busy = lab_local::busy, .busy_frame_s = 0.1,
                                .export_data = lab_local::export_data, .caption = lab_local::caption,
                                .settings = lab_local::kSettings, .read_extra = lab_local::read_extra,
                                .write_extra = lab_local::write_extra, .extra_keys = lab_local::kExtraKeys, .check = lab_local::check,
                                .heatmaps = lab_local::heatmaps};

const train::TrainRun* first_run_of(const LabOptions& o, PositionEncoding pe, std::size_t* index) {
  if (!o.runs) return nullptr;
  for (std::size_t i = 0; i < o.runs->size(); ++i)
    if (o.runs->settings(i).pe == pe) {
      if (index) *index = i;
      return o.runs->run(i);
    }
  return nullptr;
}

void use_trained_table(AppState& s) {
  const train::TrainRun* run = first_run_of(s.pages.lab, PositionEncoding::learned);
  if (!run) throw ParamError("pe", "no learned run yet: tick learned and press Train");
  const train::TrainSnapshot snap = run->snapshot();
  const std::string what = "trained in the Lab (" + std::string(train::to_string(run->settings().task)) + ", step " +
                           std::to_string(snap.step) + " of " + std::to_string(snap.steps) + ", seed " +
                           std::to_string(run->settings().seed) + ")";
  install_learned_table(s, std::make_shared<Matrix>(run->learned_table()), "lab: " + what, what);
  s.params.seq_len = s.params.max_len;  // every row of the trained table on screen
  s.pages.page = Page::basics;
}

std::vector<std::string> save_lab_runs(const AppState& s, const std::string& folder, long long unix_seconds) {
  const LabOptions& o = s.pages.lab;
  namespace fs = std::filesystem;
  std::vector<const train::TrainRun*> finished;
  for (std::size_t i = 0; o.runs && i < o.runs->size(); ++i)
    if (o.runs->state(i) == train::RunState::done && o.runs->run(i)) finished.push_back(o.runs->run(i));
  if (finished.empty()) throw ParamError("out", "no finished lab run to save: press Train and wait for a run to end");
  std::error_code ec;
  fs::create_directories(folder, ec);
  const std::string task(train::to_string(finished[0]->settings().task));
  return train::save_experiment(finished, (fs::path(folder) / ("peviz-lab-" + task + "-" + std::to_string(unix_seconds) +
                                                               ".safetensors")).string());
}

void open_lab_experiment(AppState& s, const std::string& path) {
  if (lab_training(s.pages.lab)) throw ParamError("open", "runs are still going: press Stop first");
  std::vector<std::unique_ptr<train::TrainRun>> runs = train::open_experiment(path);
  LabOptions& o = s.pages.lab;
  const TrainSettings t = runs[0]->settings();  // a copy: the runs move into the queue below
  o.settings = t;
  // A run file keeps the position range only where the run drew its ids (rand-*, coupled): the sidebar shows the
  // range those runs trained with, not the default that the first, contiguous run was read with.
  for (const auto& r : runs)
    if (train::sampler_of(r->settings().pe) != train::PositionSampler::contiguous) {
      o.settings.position_range = r->settings().position_range;
      break;
    }
  o.compare.fill(false);
  for (const auto& r : runs) {
    o.compare[std::size_t(lab_encoding_index(r->settings().pe))] = true;
  }
  // The attention panel shows an opened run: the one it showed when the file has it, else the file's first.
  if (!o.compare[std::size_t(o.attention_pe)]) o.attention_pe = lab_encoding_index(t.pe);
  o.runs = std::make_shared<train::RunQueue>(std::move(runs));
  // Train afterwards uses as many seeds as were opened, from the lowest (the caption names the opened ones).
  const std::vector<std::uint64_t> seeds = lab_local::shown_seeds(o);
  o.settings.seed = seeds.front();
  o.seeds = int(std::min<std::size_t>(seeds.size(), std::size_t(limits::train_seeds.max)));
  o.views.clear();
  o.series.clear();
  o.lengths = train::test_lengths(t.test_max);
  o.runs_train_max = t.train_max;
  o.runs_task = t.task;
  o.attention_length = lab_local::first_length_beyond(o.lengths, t.train_max);
  o.opened_from = path;
  o.settings_beyond_limits = train::beyond_engine_limits(t);
  o.opened_shipped.clear();
  o.experiment.clear();
  o.error.clear();
  ++o.generation;
  s.pages.page = Page::lab;
  s.pages.mark(Page::lab);
}

}  // namespace peviz::app
