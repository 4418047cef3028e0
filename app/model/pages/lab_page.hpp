// The Lab page's options, its background training runs and cached curves (update, export, state JSON: lab_page.cpp).
//
// Threads: Train starts one LabRuns, which trains the chosen encodings on background std::threads, at most
// `workers` at a time (one per core); a worker takes the next queued encoding when its run ends. The frame
// thread never waits for training: it reads TrainRun::snapshot() copies (thread-safe) and joins workers only
// once they have ended, or after setting cancel (Stop: the running ones stop and evaluate what they learned;
// the last owner's destructor, e.g. closing the window: stop at once without evaluating, then join).
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/matrix.hpp"
#include "core/limits.hpp"
#include "core/train/run.hpp"

namespace peviz::app {

inline constexpr int kLabEncodings = int(train::kAllPositionEncodings.size());

enum class LabRunState { queued, running, done, failed };

// Runs of several encodings with the same settings, trained in the background.
class LabRuns {
 public:
  // One run per settings entry, `workers` (>= 1) threads. Settings are validated by the caller.
  LabRuns(std::vector<train::TrainSettings> runs, int workers);
  ~LabRuns();  // cancel (no evaluation), join
  LabRuns(const LabRuns&) = delete;
  LabRuns& operator=(const LabRuns&) = delete;

  std::size_t size() const { return settings_.size(); }
  const train::TrainSettings& settings(std::size_t i) const { return settings_[i]; }
  LabRunState state(std::size_t i) const { return slots_[i].state.load(std::memory_order_acquire); }
  // The run once it has started (state running, done or failed after start); nullptr before. Thread-safe to
  // read through its const, thread-safe members (snapshot, attention_maps, learned_table, parameters).
  const train::TrainRun* run(std::size_t i) const;
  std::string error(std::size_t i) const;  // why a run failed (state failed)
  // Stop: running runs stop after their current step and evaluate; queued ones never start. Never waits.
  void stop() { cancel_.store(true, std::memory_order_relaxed); }
  bool stopping() const { return cancel_.load(std::memory_order_relaxed); }
  // True once every worker has ended (then join_ended() returns at once).
  bool ended() const { return live_workers_.load(std::memory_order_acquire) == 0; }
  void join_ended();

 private:
  struct Slot {
    std::atomic<LabRunState> state{LabRunState::queued};
    std::unique_ptr<train::TrainRun> run;  // written by its worker before state leaves queued
    std::string error;                     // written before state becomes failed
  };
  void work();

  std::vector<train::TrainSettings> settings_;
  std::unique_ptr<Slot[]> slots_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> cancel_{false}, abandon_{false};
  std::atomic<int> live_workers_{0};
  std::vector<std::thread> workers_;
};

// What the page shows of one run, copied from its snapshot by the update step.
struct LabRunView {
  train::PositionEncoding pe = train::PositionEncoding::rope;
  LabRunState state = LabRunState::queued;
  train::TrainSnapshot snapshot;         // loss of every step, steps/s, ETA, accuracy once evaluated
  std::vector<float> log_loss;           // log10 of the mean loss per bucket of `loss_bucket` steps
  int loss_bucket = 1;
  std::vector<float> exact_match;        // per test length (LabOptions::lengths), NaN = not defined / not yet
  std::string error;
};

struct LabOptions {
  // --- inputs (the state JSON's "lab" object; ranges from core/limits.hpp, section "training") ---
  train::Task task = train::Task::copy;
  std::array<bool, kLabEncodings> compare{true, true, true, true, true, true};  // kAllPositionEncodings order
  int layers = int(limits::train_layers.fallback);
  int heads = int(limits::train_heads.fallback);
  int d_model = int(limits::train_d_model.fallback);
  int batch = int(limits::train_batch.fallback);
  int steps = int(limits::train_steps.fallback);
  int train_max = int(limits::train_max.fallback);
  int test_max = int(limits::test_max.fallback);
  std::uint64_t seed = 0;
  double rope_base = limits::base.fallback;
  int attention_pe = 3;          // index into kAllPositionEncodings whose run the attention maps show (rope)
  int attention_length = 20;     // n symbols of the test sequence (may exceed train_max)
  // --- requests from the view, acted on by the update step ---
  bool train_requested = false, stop_requested = false, use_table_requested = false;
  bool save_requested = false;   // File > Save lab runs (handled with the other file requests)
  // --- runs (not in the state JSON); shared so that AnalysisState stays copyable ---
  std::shared_ptr<LabRuns> runs;
  // --- cache ---
  std::vector<LabRunView> views;       // one per run of `runs`
  std::vector<int> lengths;            // test lengths n of the runs (5, 10, ..., test_max)
  int runs_train_max = 0;              // train_max of the runs (the chart's vertical line)
  int generation = 0;                  // counts Train presses (a new set of runs)
  std::string attention_key;           // what `attention` was computed for (lab_page.cpp)
  bool attention_defined = false;      // false: not computed or not defined (see attention_note)
  std::string attention_note;          // why there are no maps ("" when shown)
  int attention_layers = 0, attention_heads = 0, attention_tokens = 0;
  Matrix attention;                    // layers x heads tiles of L x L probabilities (NaN gutters)
  plot::HeatmapImage attention_image;
  std::string error;                   // last refusal (settings, saving), shown in the page
};

struct AppState;
// The runs' settings from the page's inputs, one per chosen encoding (validated: ParamError).
std::vector<train::TrainSettings> lab_settings(const LabOptions& o);
// After a slider moved: d_model to the nearest multiple of 2 x heads (an even head dimension), test_max to
// at most 4 x train_max, and batch halved until a run fits core's memory budget.
void keep_lab_inputs_valid(LabOptions& o);
// True while a run of the page is queued, training or evaluating.
bool lab_training(const LabOptions& o);
// Loads the trained position table of the page's learned run into the sidebar's encoding (as a loaded file
// would be), for Basics, Learned tables and Criteria. ParamError when there is no learned run yet.
void use_trained_table(AppState& s);
// Saves every finished run into `folder`: <stem>-<pe>.safetensors (weights, settings in __metadata__),
// <stem>-<pe>-loss.csv, <stem>-<pe>-accuracy.csv, and <stem>.json (every run's run_full_json), atomically.
// Returns the paths written. ParamError("out", ...) when nothing is finished or a write fails.
std::vector<std::string> save_lab_runs(const AppState& s, const std::string& folder, long long unix_seconds);

}  // namespace peviz::app
