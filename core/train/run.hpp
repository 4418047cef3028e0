// One training run of the lab: settings, validation, stepping (from any one thread), thread-safe snapshots.
//
// Use from a front end (the Lab page or `peviz train`):
//   TrainRun run(settings);                 // validates (ParamError), allocates every buffer once
//   std::thread worker([&] { run.train(cancel); });   // steps, then evaluates; cancel stops early
//   run.snapshot();                          // any thread, any time: step, loss curve, steps/s, ETA, accuracy
//   run.attention_maps(n, index);            // any thread: probabilities for one test sequence of n symbols
//   run.learned_table();                     // any thread: the learned position table (learned PE only)
// A run's results are bit-identical whatever else runs at the same time: OpenBLAS runs on one thread, and a
// RunQueue worker with no run left computes halves of this run's larger loops, cut so that no bit changes
// (spare_cores.hpp); several encodings train in parallel as several runs on several threads.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"
#include "core/train/adamw.hpp"
#include "core/train/evaluate.hpp"
#include "core/train/model.hpp"
#include "core/train/tasks.hpp"

namespace peviz::train {

// Defaults and ranges: core/base/limits.hpp, section "training".
struct TrainSettings {
  Task task = Task::copy;
  PositionEncoding pe = PositionEncoding::rope;
  int layers = int(limits::train_layers.fallback);
  int heads = int(limits::train_heads.fallback);
  int d_model = int(limits::train_d_model.fallback);  // head_dim = d_model / heads must be even
  int batch = int(limits::train_batch.fallback);      // sequences per step
  int steps = int(limits::train_steps.fallback);
  int train_max = int(limits::train_max.fallback);    // training n uniform in [1, train_max]
  int test_max = int(limits::test_max.fallback);      // evaluation n = 5, 10, ..., test_max (at most 4 x train_max)
  int test_samples = int(limits::test_samples.fallback);  // test sequences per length
  std::uint64_t seed = 0;                             // initialisation, training batches and test sets
  double rope_base = limits::base.fallback;           // RoPE only
  double lr = limits::learning_rate.fallback;         // peak learning rate
  int warmup = int(limits::warmup.fallback);          // linear warm-up steps, then cosine decay to 0 at the last step
  int position_range = int(limits::position_range.fallback);  // rand-* and coupled: ids in [0, position_range)
  // The exponential moving average of the weights: after every step ema = ema_decay * ema + (1 - ema_decay) * w
  // (from ema = the initial weights); evaluation, the attention maps, greedy answers and the run file read the
  // average. 0: off.
  double ema_decay = limits::train_ema.fallback;
  // Dropout's probability on the attention probabilities and on both residual branches, in training steps only
  // (dropout.hpp: its mask, the same bits whatever the thread count). 0: off.
  double dropout = limits::train_dropout.fallback;
  // The attention logits' length scale (model.hpp LengthScale): none, SSMax with s trained per layer and head, or
  // log-n past the longest training sequence.
  LengthScale length_scale = LengthScale::none;
  // A layer schedule: every nope_every-th layer without positions (model.hpp ModelConfig::nope_every); 0: none.
  int nope_every = int(limits::train_nope_every.fallback);
  // DroPE: the last drope_steps steps train without positions, and the model is evaluated without them; 0: off.
  int drope_steps = int(limits::train_drope_steps.fallback);

  bool operator==(const TrainSettings&) const = default;
};

// Throws ParamError naming the flag ("layers", "heads", "test-max", ...) and its rule.
void validate(const TrainSettings& s);
// Whether a layer schedule (nope_every) means something for the encoding: it acts in attention (a rotation or a
// bias), not at the embeddings.
bool takes_layer_schedule(PositionEncoding pe);
// One encoding's run of an experiment: `base` with `pe`, its layer schedule and DroPE kept only where the encoding
// takes them (a learned table's run of an experiment with NoPE every 4th layer is the plain run, and says so in its
// settings).
TrainSettings run_settings(const TrainSettings& base, PositionEncoding pe);
// Whether a model that has taken `steps_done` steps of the run has dropped its positions: DroPE is on and at least
// one of the last drope_steps steps has run.
bool positions_dropped(const TrainSettings& s, int steps_done);
// The learning rate of 0-based step `step` (adamw.hpp learning_rate: linear warm-up, cosine to 0). With DroPE the
// run is two schedules, as a model trained and then recalibrated: the steps with positions, warm-up `warmup`, and
// the last drope_steps without them, warm-up min(warmup, drope_steps / 10), each from the peak lr down to 0.
double run_learning_rate(const TrainSettings& s, int step);
// The rules that hold at any size: every setting at least its limit's minimum, an even head dimension,
// test-max at most 4 x train-max, one test sequence's evaluation within the per-result memory budget and
// the weights within the 2 GiB a run file may hold. What a run trained elsewhere (the PyTorch twin,
// core/train/twin.hpp) must meet to be emitted or reopened for viewing. ParamError as validate().
void validate_shape(const TrainSettings& s);
// The settings of `s` that peviz cannot train itself, one entry each: a setting over its limit's maximum as
// "<flag name> <value> > <max>" ("layers 12 > 8"), and "memory <N> MiB > 1024" when a training step would exceed
// the per-result budget. For settings that validate_shape accepts: empty exactly when validate() accepts them too.
std::vector<std::string> beyond_engine_limits(const TrainSettings& s);
// The position range a run's sampled ids need: randomized, the longest sequence (each id of a sequence distinct);
// coupled, the span of the longest sequence's coupled ids plus one (max(train-max, test-max) + 2, + 3 on add: ids
// repeat, so the range can be far shorter than the sequence; Cho et al.'s max_position); contiguous ids, 0.
int minimum_position_range(const TrainSettings& s);
// The model a run builds: 13 tokens, learned table of 2 * train_max + 3 rows, tables for 2 * test_max + 3; with
// sampled ids (rand-*, coupled) every table has position_range rows.
ModelConfig model_config(const TrainSettings& s);

struct TrainSnapshot {
  int step = 0;                   // optimizer steps done
  int steps = 0;                  // steps planned
  std::vector<float> loss;        // training loss of every step done
  double steps_per_s = 0;         // over the steps done so far (0 before the first)
  double eta_s = 0;               // seconds left for the remaining steps at that rate
  bool evaluated = false;         // accuracy is filled
  bool cancelled = false;         // train() stopped early
  int diverged_at = 0;            // 0, or the step (1-based) whose loss was not finite: training stopped there
  std::vector<LengthAccuracy> accuracy;  // after training: exact match per test length
};

class TrainRun {
 public:
  explicit TrainRun(const TrainSettings& s);  // validates, allocates, initialises
  // run_io.hpp's load_run: settings need only validate_shape (a run trained beyond peviz's limits opens for
  // viewing; step() then does nothing).
  TrainRun(const TrainSettings& s, const std::vector<float>& params, TrainSnapshot saved);

  const TrainSettings& settings() const { return settings_; }
  std::size_t parameter_count() const { return model_.params.size(); }

  // One optimizer step on the next training batch; returns false (and does nothing) once all
  // steps are done, the run has diverged, or its settings are beyond what peviz trains (a reopened run). A loss that is not finite (NaN, inf) stops the run at that
  // step without updating the weights: snapshot().diverged_at names it. Call from one thread at a time.
  bool step();
  // Steps until done, diverged or `cancel` becomes true, then finish(cancel).
  void train(const std::atomic<bool>& cancel);
  // After the last step: records whether training was cancelled early, puts the average in place of the trained
  // weights when ema_decay > 0 (further steps go on from it), evaluates unless the run diverged
  // (its weights are not finite, so no accuracy is reported), and gives back the training buffers (the
  // optimizer's moments and a batch's activations; more steps reallocate them). Call from the thread that steps.
  void finish(bool cancelled);
  // Exact match per test length on the fixed test set. Call from the thread that steps.
  void evaluate();

  // Thread-safe.
  TrainSnapshot snapshot() const;
  // [layer][head] L x L attention probabilities for test sequence `index` of length n (n may exceed
  // train_max); nullopt where not defined (learned table shorter than the sequence). Thread-safe:
  // runs on a private copy of the current weights.
  std::optional<std::vector<std::vector<Matrix>>> attention_maps(int n, int index) const;
  // The test sequence `index` of length n (BOS x SEP y EOS) and the model's greedy answer to it (n + 1
  // tokens: y1..yn EOS as decoded); the answer is empty where not defined (as attention_maps). Thread-safe.
  std::vector<int> test_sequence(int n, int index) const;
  // Its position ids (positions.hpp's test_positions: 0..L-1 unless the encoding samples them).
  std::vector<int> test_position_ids(int n, int index) const;
  std::vector<int> greedy_answer(int n, int index) const;
  // The trained position table [position_rows(), d_model] (empty unless the table is trainable). Thread-safe.
  Matrix learned_table() const;
  // A copy of the weights evaluation reads (buffer order of model.hpp's Param): the trained weights, or their
  // average when ema_decay > 0; what a run file keeps. Thread-safe.
  std::vector<float> parameters() const;

 private:
  Model<float> private_copy(int tokens, std::size_t att) const;
  // Rebuilds the model's activation buffers for `tokens` / `att` (the parameters stay); from the stepping
  // thread. Training needs a batch's worth; a finished run keeps one test sequence's.
  void resize_buffers(int tokens, std::size_t att);

  TrainSettings settings_;
  bool trainable_ = true;          // validate() accepts the settings
  Model<float> model_;
  std::vector<float> ema_;         // the average of the weights (ema_decay > 0), else empty; guarded by mutex_
  AdamWState adam_;
  std::mt19937_64 data_rng_;
  std::mt19937_64 position_rng_;   // sampled training ids, a stream apart from the batches
  PackedBatch batch_;
  double seconds_ = 0;             // time spent in step()
  mutable std::mutex mutex_;       // guards the fields below and model_.params while they change
  TrainSnapshot progress_;
};

}  // namespace peviz::train
