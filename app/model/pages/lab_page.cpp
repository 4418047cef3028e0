// The Lab page: trains tiny transformers with each positional encoding in the background (core/train) and
// shows their loss curves, exact match by length and attention maps (Kazemnejad et al. 2023, in miniature).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "app/model/analysis_update.hpp"
#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/train/run_io.hpp"

namespace peviz::app {

using train::PositionEncoding;
using train::TrainSettings;

// ---- the background runs ----------------------------------------------------------------------

constexpr int kWorkerNice = 10;  // training threads' nice value

LabRuns::LabRuns(std::vector<TrainSettings> runs, int workers)
    : settings_(std::move(runs)), slots_(std::make_unique<Slot[]>(settings_.size())) {
  const int n = std::clamp(workers, 1, std::max(1, int(settings_.size())));
  live_workers_.store(n);
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
}

LabRuns::~LabRuns() {
  abandon_.store(true);
  cancel_.store(true);
  join_ended();
}

const train::TrainRun* LabRuns::run(std::size_t i) const {
  return state(i) == LabRunState::queued ? nullptr : slots_[i].run.get();
}

std::string LabRuns::error(std::size_t i) const { return state(i) == LabRunState::failed ? slots_[i].error : ""; }

// Joins the workers not joined yet (after they have ended, or after cancel: waits for their current step).
void LabRuns::join_ended() {
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
}

// A worker: takes the next queued run until none is left or Stop; each run steps until done or cancelled,
// then evaluates (skipped when the owner is going away).
void LabRuns::work() {
#ifdef __linux__
  // Below the frame loop: with one run per core, the window's thread would otherwise queue behind them
  // (Linux gives each thread its own nice value; the results do not depend on it).
  setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), kWorkerNice);
#endif
  for (std::size_t i = next_++; i < settings_.size() && !cancel_.load(); i = next_++) {
    Slot& slot = slots_[i];
    try {
      slot.run = std::make_unique<train::TrainRun>(settings_[i]);
      slot.state.store(LabRunState::running, std::memory_order_release);
      while (!cancel_.load(std::memory_order_relaxed) && slot.run->step()) {
      }
      if (!abandon_.load()) slot.run->evaluate();
      slot.state.store(LabRunState::done, std::memory_order_release);
    } catch (const std::exception& e) {  // ParamError, bad_alloc: the run fails, the window goes on
      slot.error = e.what();
      slot.state.store(LabRunState::failed, std::memory_order_release);
    }
  }
  live_workers_.fetch_sub(1, std::memory_order_release);
}

// ---- settings ----------------------------------------------------------------------------------

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr int kMaxCurvePoints = 1000;  // loss curves are drawn as means over buckets of steps

TrainSettings settings_for(const LabOptions& o, PositionEncoding pe) {
  TrainSettings t;
  t.task = o.task;
  t.pe = pe;
  t.layers = o.layers;
  t.heads = o.heads;
  t.d_model = o.d_model;
  t.batch = o.batch;
  t.steps = o.steps;
  t.train_max = o.train_max;
  t.test_max = o.test_max;
  t.seed = o.seed;
  t.rope_base = o.rope_base;
  return t;
}

// The inputs through core's validation of a run (ranges, head dimension, test-max rule, memory), the
// RoPE base through the window's range, and the attention choices.
void check_inputs(const LabOptions& o) {
  train::validate(settings_for(o, PositionEncoding::rope));
  check_window_real(limits::base, o.rope_base);
  check_int(Limit{"attention-length", 1, limits::test_max.max, 20}, o.attention_length);
  check_int(Limit{"attention-pe", 0, double(kLabEncodings - 1), 3}, o.attention_pe);
}

}  // namespace

std::vector<TrainSettings> lab_settings(const LabOptions& o) {
  check_inputs(o);
  std::vector<TrainSettings> out;
  for (int k = 0; k < kLabEncodings; ++k)
    if (o.compare[std::size_t(k)]) out.push_back(settings_for(o, train::kAllPositionEncodings[std::size_t(k)]));
  return out;
}

void keep_lab_inputs_valid(LabOptions& o) {
  const int m = 2 * o.heads;
  const int lo = (int(limits::train_d_model.min) + m - 1) / m * m, hi = int(limits::train_d_model.max) / m * m;
  o.d_model = std::clamp((o.d_model + m / 2) / m * m, lo, hi);
  o.test_max = std::min(o.test_max, 4 * o.train_max);
  for (;;) {
    try {
      train::validate(settings_for(o, PositionEncoding::rope));
      return;
    } catch (const ParamError& e) {
      if (e.param != "batch" || o.batch <= 1) return;  // another rule: the status line says which
      o.batch /= 2;
    }
  }
}

bool lab_training(const LabOptions& o) { return o.runs && !o.runs->ended(); }

namespace {

// Train: one run per chosen encoding, at most one worker per core.
void start_runs(LabOptions& o) {
  if (lab_training(o)) throw ParamError("train", "runs are still going: press Stop first");
  std::vector<TrainSettings> settings = lab_settings(o);
  if (settings.empty()) throw ParamError("pe", "choose at least one encoding to train");
  const int cores = std::max(1, int(std::thread::hardware_concurrency()));
  o.views.clear();
  o.lengths = train::test_lengths(o.test_max);
  o.runs_train_max = o.train_max;
  o.runs.reset();  // the previous runs have ended: their destructor joins at once
  ++o.generation;
  o.runs = std::make_shared<LabRuns>(std::move(settings), cores);
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
  const LabRuns& runs = *o.runs;
  o.views.resize(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    LabRunView& v = o.views[i];
    const LabRunState state = runs.state(i);
    if (v.state == state && (state == LabRunState::done || state == LabRunState::failed)) continue;
    v.pe = runs.settings(i).pe;
    v.state = state;
    v.error = runs.error(i);
    const train::TrainRun* run = runs.run(i);
    if (!run) continue;
    v.snapshot = run->snapshot();
    v.loss_bucket = std::max(1, (runs.settings(i).steps + kMaxCurvePoints - 1) / kMaxCurvePoints);
    v.log_loss = bucketed_log_loss(v.snapshot.loss, v.loss_bucket);
    v.exact_match.assign(o.lengths.size(), kNaN);
    for (const train::LengthAccuracy& a : v.snapshot.accuracy) {
      const auto at = std::find(o.lengths.begin(), o.lengths.end(), a.n);
      if (at != o.lengths.end() && a.exact_match) v.exact_match[std::size_t(at - o.lengths.begin())] = float(*a.exact_match);
    }
  }
}

// The run of encoding `pe` in the current runs (nullptr when it is not among them or has not started).
const train::TrainRun* run_of(const LabOptions& o, PositionEncoding pe, std::size_t* index = nullptr) {
  if (!o.runs) return nullptr;
  for (std::size_t i = 0; i < o.runs->size(); ++i)
    if (o.runs->settings(i).pe == pe) {
      if (index) *index = i;
      return o.runs->run(i);
    }
  return nullptr;
}

// The attention maps of test sequence 0 of length attention_length under the chosen encoding's run, tiled
// [layer rows] x [head columns] (masked keys above the diagonal have probability 0).
void refresh_attention(LabOptions& o) {
  const PositionEncoding pe = train::kAllPositionEncodings[std::size_t(o.attention_pe)];
  std::size_t index = o.views.size();
  const train::TrainRun* run = run_of(o, pe, &index);
  o.attention_defined = false;
  if (!run) {
    o.attention_note = index < o.views.size() ? std::string(train::to_string(pe)) + " is queued: its maps show once it starts"
                                              : "no run of " + std::string(train::to_string(pe)) + " yet: tick it and press Train";
    return;
  }
  const TrainSettings& t = run->settings();
  const int n = std::min(o.attention_length, std::max(t.train_max, t.test_max));
  const auto maps = run->attention_maps(n, 0);
  if (!maps) {
    o.attention_note = "not defined: a sequence of n = " + std::to_string(n) + " has " +
                       std::to_string(train::sequence_length(n)) + " tokens, the learned table only " +
                       std::to_string(train::sequence_length(t.train_max)) + " rows";
    return;
  }
  const std::size_t L = std::size_t(train::sequence_length(n));
  Matrix stacked(maps->size() * (*maps)[0].size() * L, L);
  std::size_t tile = 0;
  for (const auto& layer : *maps)
    for (const Matrix& head : layer) {
      for (std::size_t i = 0; i < L; ++i)
        std::copy_n(head.row(i), L, stacked.row(tile * L + i));
      ++tile;
    }
  o.attention_layers = int(maps->size());
  o.attention_heads = int((*maps)[0].size());
  o.attention_tokens = int(L);
  o.attention = tile_heads(stacked, int(tile), int(L), o.attention_heads);
  set_heatmap(o.attention_image, o.attention, plot::Colormap::viridis, 0.0, 1.0);
  o.attention_defined = true;
  o.attention_note.clear();
}

// What the attention maps were computed for: the runs, the chosen encoding and length, and while its run
// trains, its step in fiftieths of the run (the maps follow training without a forward pass every frame).
std::string attention_key(const LabOptions& o) {
  std::string key = std::to_string(o.generation) + " " + std::to_string(o.attention_pe) + " " +
                    std::to_string(o.attention_length);
  std::size_t i = 0;
  if (!run_of(o, train::kAllPositionEncodings[std::size_t(o.attention_pe)], &i) || i >= o.views.size()) return key;
  const LabRunView& v = o.views[i];
  return key + " " + std::to_string(int(v.state)) + " " +
         std::to_string(v.snapshot.step / std::max(1, v.snapshot.steps / 50));
}

void update(AppState& s) {
  LabOptions& o = s.analysis.lab;
  if (std::exchange(o.stop_requested, false) && o.runs) o.runs->stop();
  if (std::exchange(o.train_requested, false)) start_runs(o);
  if (std::exchange(o.use_table_requested, false)) use_trained_table(s);
  if (o.runs && o.runs->ended()) o.runs->join_ended();
  refresh_views(o);
  if (std::string key = attention_key(o); key != o.attention_key) {
    o.attention_key = std::move(key);
    refresh_attention(o);
  }
}

// Per frame: while runs go on (or have just ended), the page refreshes from their snapshots.
void advance(AppState& s, double) {
  const LabOptions& o = s.analysis.lab;
  if (!o.runs) return;
  bool behind = o.views.size() != o.runs->size();
  for (std::size_t i = 0; i < o.views.size() && !behind; ++i) behind = o.views[i].state != o.runs->state(i);
  if (behind || lab_training(o)) s.analysis.mark(Page::lab);
}

bool busy(const AppState& s) { return lab_training(s.analysis.lab); }

// Columns: n, then the exact match of nope, sinusoidal, learned, rope, alibi, t5 at that length
// (kAllPositionEncodings order; NaN = not defined, not trained or not evaluated yet). Before any run: the
// test lengths of the current settings, all NaN.
NdArray export_data(const AppState& s) {
  const LabOptions& o = s.analysis.lab;
  const std::vector<int> lengths = o.lengths.empty() ? train::test_lengths(o.test_max) : o.lengths;
  std::vector<std::vector<float>> cols(1 + kLabEncodings, std::vector<float>(lengths.size(), kNaN));
  for (std::size_t k = 0; k < lengths.size(); ++k) cols[0][k] = float(lengths[k]);
  for (const LabRunView& v : o.views) {
    const auto at = std::find(train::kAllPositionEncodings.begin(), train::kAllPositionEncodings.end(), v.pe);
    const std::size_t c = 1 + std::size_t(at - train::kAllPositionEncodings.begin());
    for (std::size_t k = 0; k < v.exact_match.size() && k < lengths.size(); ++k) cols[c][k] = v.exact_match[k];
  }
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const LabOptions& o = s.analysis.lab;
  const std::string dot = kCaptionDot;
  return "Lab" + dot + std::string(train::to_string(o.task)) + dot + std::to_string(o.layers) + " layers x " +
         std::to_string(o.heads) + " heads, d_model " + std::to_string(o.d_model) + dot + "batch " +
         std::to_string(o.batch) + ", " + std::to_string(o.steps) + " steps" + dot + "train n <= " +
         std::to_string(o.train_max) + ", test to " + std::to_string(o.test_max) + dot + "seed " +
         std::to_string(o.seed);
}

void read_json(const nlohmann::json& j, AnalysisState& a) {
  LabOptions& o = a.lab;
  std::string task(train::to_string(o.task)), attention_pe(train::to_string(train::kAllPositionEncodings[std::size_t(o.attention_pe)]));
  read(j, "task", task);
  if (!train::parse_task(task, o.task)) throw ParamError("task", "must be copy, reverse or sort, got " + task);
  if (j.contains("encodings")) {
    const nlohmann::json& e = j.at("encodings");
    if (!e.is_array()) throw ParamError("encodings", "must be an array of encoding names");
    o.compare.fill(false);
    for (const nlohmann::json& name : e) {
      PositionEncoding pe;
      if (!name.is_string() || !train::parse_position_encoding(name.get<std::string>(), pe))
        throw ParamError("encodings", "must name nope, sinusoidal, learned, rope, alibi or t5, got " + name.dump());
      const auto at = std::find(train::kAllPositionEncodings.begin(), train::kAllPositionEncodings.end(), pe);
      o.compare[std::size_t(at - train::kAllPositionEncodings.begin())] = true;
    }
  }
  read(j, "layers", o.layers);
  read(j, "heads", o.heads);
  read(j, "d_model", o.d_model);
  read(j, "batch", o.batch);
  read(j, "steps", o.steps);
  read(j, "train_max", o.train_max);
  read(j, "test_max", o.test_max);
  read(j, "seed", o.seed);
  read(j, "rope_base", o.rope_base);
  read(j, "attention_pe", attention_pe);
  PositionEncoding pe;
  if (!train::parse_position_encoding(attention_pe, pe))
    throw ParamError("attention_pe", "must be nope, sinusoidal, learned, rope, alibi or t5, got " + attention_pe);
  o.attention_pe = int(std::find(train::kAllPositionEncodings.begin(), train::kAllPositionEncodings.end(), pe) -
                       train::kAllPositionEncodings.begin());
  read(j, "attention_length", o.attention_length);
  check_inputs(o);
}

nlohmann::json write_json(const AnalysisState& a) {
  const LabOptions& o = a.lab;
  nlohmann::json encodings = nlohmann::json::array();
  for (int k = 0; k < kLabEncodings; ++k)
    if (o.compare[std::size_t(k)]) encodings.push_back(std::string(train::to_string(train::kAllPositionEncodings[std::size_t(k)])));
  return {{"task", std::string(train::to_string(o.task))}, {"encodings", encodings}, {"layers", o.layers},
          {"heads", o.heads}, {"d_model", o.d_model}, {"batch", o.batch}, {"steps", o.steps},
          {"train_max", o.train_max}, {"test_max", o.test_max}, {"seed", o.seed}, {"rope_base", o.rope_base},
          {"attention_pe", std::string(train::to_string(train::kAllPositionEncodings[std::size_t(o.attention_pe)]))},
          {"attention_length", o.attention_length}};
}

void heatmaps(AnalysisState& a, std::vector<plot::HeatmapImage*>& out) { out.push_back(&a.lab.attention_image); }

}  // namespace

extern const PageModel lab_page{.name = "lab", .title = "Lab", .json_key = "lab", .update = update,
                                .advance = advance, .busy = busy, .busy_frame_s = 0.1, .export_data = export_data, .caption = caption,
                                .read_json = read_json, .write_json = write_json, .heatmaps = heatmaps};

void use_trained_table(AppState& s) {
  const train::TrainRun* run = run_of(s.analysis.lab, PositionEncoding::learned);
  if (!run) throw ParamError("pe", "no learned run yet: tick learned and press Train");
  const train::TrainSnapshot snap = run->snapshot();
  EncodingParams& p = s.params;
  auto table = std::make_shared<Matrix>(run->learned_table());
  p.encoding = Encoding::learned;
  p.d_model = int(table->cols);
  p.max_len = int(table->rows);
  p.seq_len = int(table->rows);
  p.learned_table = std::move(table);
  const std::string what = "trained in the Lab (" + std::string(train::to_string(run->settings().task)) + ", step " +
                           std::to_string(snap.step) + " of " + std::to_string(snap.steps) + ", seed " +
                           std::to_string(run->settings().seed) + ")";
  p.learned_source = "lab: " + what;
  s.analysis.learned.loaded_name = what;
  s.analysis.page = Page::basics;
  mark_params_changed(s);
}

std::vector<std::string> save_lab_runs(const AppState& s, const std::string& folder, long long unix_seconds) {
  const LabOptions& o = s.analysis.lab;
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(folder, ec);
  const std::string stem = (fs::path(folder) / ("peviz-lab-" + std::string(train::to_string(o.task)) + "-" +
                                                std::to_string(unix_seconds))).string();
  std::vector<std::string> paths;
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (std::size_t i = 0; o.runs && i < o.runs->size(); ++i) {
    const train::TrainRun* run = o.runs->run(i);
    if (!run || o.runs->state(i) != LabRunState::done) continue;
    const std::string base = stem + "-" + std::string(train::to_string(run->settings().pe));
    const train::TrainSnapshot snap = run->snapshot();
    train::save_run(*run, base + ".safetensors", "out");
    write_file_atomically(base + "-loss.csv", [&](std::ostream& out) { out << train::loss_curve_csv(snap); });
    write_file_atomically(base + "-accuracy.csv", [&](std::ostream& out) { out << train::accuracy_csv(snap); });
    paths.insert(paths.end(), {base + ".safetensors", base + "-loss.csv", base + "-accuracy.csv"});
    all.push_back(train::run_full_json(*run));
  }
  if (all.empty()) throw ParamError("out", "no finished lab run to save: press Train and wait for a run to end");
  write_file_atomically(stem + ".json", [&](std::ostream& out) { out << all.dump(2) << "\n"; });
  paths.push_back(stem + ".json");
  return paths;
}

}  // namespace peviz::app
