// The Lab page's options, its background training runs and cached curves (update, export, state JSON: lab_page.cpp).
//
// Threads: Train starts one train::RunQueue (core/train/run_queue.hpp) over every chosen encoding and seed,
// trained on background threads, one per core. The frame thread never waits for training: it reads
// TrainRun::snapshot() copies (thread-safe) and joins the workers only once they have ended (Stop: the
// running ones stop and evaluate what they learned; the last owner's destructor, e.g. closing the window:
// stop at once without evaluating, then join). File > Open of a saved experiment puts a finished queue in
// its place (nothing trains).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"
#include "core/train/reproductions.hpp"
#include "core/train/run.hpp"
#include "core/train/run_queue.hpp"

namespace peviz::app {

inline constexpr int kLabEncodings = int(train::kAllPositionEncodings.size());
// An encoding's index in kAllPositionEncodings: its checkbox, colour and column on the page.
inline int lab_encoding_index(train::PositionEncoding pe) {
  const auto& all = train::kAllPositionEncodings;
  return int(std::find(all.begin(), all.end(), pe) - all.begin());
}
// The experiment the Lab page shows before anything is trained or opened: the default settings on copy, three
// seeds, as `peviz train` trained it (assets/lab/README.md says how it was made).
inline constexpr const char* kDefaultExperiment = "default-copy";
// What the page draws: the loss and accuracy charts and the attention panel, or one of them filling the page (a
// lesson step or a slide about one of them). The state JSON's "show" names them.
// What the page draws: charts and attention, one of them, or the Reproductions table (core/train/reproductions.hpp).
enum class LabShow { all, charts, attention, reproductions };
inline constexpr std::array<const char*, 4> kLabShowNames = {"all", "charts", "attention", "reproductions"};

// What the page shows of one run, copied from its snapshot by the update step.
struct LabRunView {
  train::PositionEncoding pe = train::PositionEncoding::rope;
  std::uint64_t seed = 0;
  train::RunState state = train::RunState::queued;
  train::TrainSnapshot snapshot;         // loss of every step, steps/s, ETA, accuracy once evaluated
  std::vector<float> log_loss;           // log10 of the mean loss per bucket of `loss_bucket` steps
  int loss_bucket = 1;
  std::vector<float> exact_match;        // per test length (LabOptions::lengths), NaN = not defined / not yet
  std::string error;
};

// One encoding over its seeds, as the charts draw it: the mean line and the min-max band.
struct LabSeries {
  train::PositionEncoding pe = train::PositionEncoding::rope;
  int runs = 0, evaluated = 0;           // runs of this encoding; those with an accuracy
  std::vector<float> mean_log_loss;      // per loss bucket, over the runs that have reached it
  std::vector<float> mean, lo, hi;       // exact match per test length over the evaluated runs (NaN: none)
};

// One run's attention on the shown test sequence: what the maps were computed for, the sequence, its position ids,
// the model's answer and the attention probabilities (all layers' and heads' tiles, and the answer query's row).
struct LabAttention {
  std::string key;                     // what these fields were computed for (lab_page.cpp)
  bool defined = false;                // false: not computed or not defined (see note)
  std::string note;                    // why there are no maps ("" when shown)
  int layers = 0, heads = 0, tokens = 0;
  train::Task task = train::Task::copy;  // the run's task: what each token is (core's token_role)
  int answer_start = 0;                // the last SEP: the query that predicts the answer's first token
  int wrong = -1;                      // query index of the first wrong answer token (-1: all right)
  std::vector<int> tokens_ids;         // the test sequence shown
  std::vector<int> position_ids;       // its position ids (0..L-1 unless the run's encoding samples them)
  train::PositionCoverage coverage;    // the ids and id distances the run's training showed
  struct IdRun {
    int first = 0, last = 0;
    bool seen = true;                  // every id of the run within coverage.max_id
  };
  std::vector<IdRun> id_runs;          // position_ids as runs of consecutive ids, split where training's ids end
  int widest = 0;                      // the widest id distance a query of the shown sequence meets
  std::vector<int> answer;             // the model's greedy answer to it (y1..yn EOS, or c0..cn EOS)
  int query = -1;                      // the query of query_rows: the first wrong answer token's (else the last), or
                                       // beside another run, the earliest of the two (lab_page.cpp)
  Matrix query_rows;                   // [layer x heads + head, key 0..query] that query's attention
  plot::HeatmapImage query_image;      // its picture
  Matrix maps;                         // layers x heads tiles of L x L probabilities (NaN gutters)
  plot::HeatmapImage maps_image;
};

struct LabOptions {
  // --- inputs (the state JSON's "lab" object; ranges and defaults from core/base/limits.hpp, "training") ---
  train::TrainSettings settings;         // every run's settings but pe and seed
  std::array<bool, kLabEncodings> compare = [] {  // kAllPositionEncodings order; the classic six at first
    std::array<bool, kLabEncodings> classic{};
    for (std::size_t k = 0; k < classic.size(); ++k) classic[k] = train::kLabEncodings[k].classic;
    return classic;
  }();
  int seeds = int(limits::train_seeds.fallback);  // runs per encoding: seeds settings.seed, +1, ...
  int attention_pe = int(train::PositionEncoding::rope);  // index into kAllPositionEncodings: the attention maps' run
  int attention_length = 25;     // n symbols of the test sequence (may exceed train_max)
  int attention_sample = 0;      // which test sequence of that length
  int beside_pe = -1;            // index into kAllPositionEncodings: a second run shown beside it (-1: none)
  LabShow show = LabShow::all;
  // --- requests from the view, acted on by the update step ---
  bool train_requested = false, stop_requested = false, use_table_requested = false;
  bool save_requested = false;   // File > Export lab runs (handled with the other file requests)
  std::string experiment;        // a shipped experiment to open (assets/lab/<name>.json; state JSON "experiment")
  // --- runs (not in the state JSON); shared so that PageStates stays copyable ---
  std::shared_ptr<train::RunQueue> runs;
  std::string opened_from;       // the file the runs were reopened from ("" = trained in this window)
  std::string opened_shipped;    // the shipped experiment's name when that is what is open
  // What an opened run's settings exceed of peviz's own limits (train::beyond_engine_limits, e.g. "d-model 768 >
  // 256", a run the PyTorch twin trained): the sidebar then shows its settings as they are, view only, and nothing
  // clamps them until "New experiment" asks for trainable ones. Empty for every run peviz can train.
  std::vector<std::string> settings_beyond_limits;
  bool new_experiment_requested = false;  // back to the default settings (from a view-only run's sidebar)
  bool shipped_shown = false;    // the page has shown the default shipped experiment once (or tried to)
  // --- cache ---
  std::vector<LabRunView> views;       // one per run of `runs`
  std::vector<LabSeries> series;       // one per encoding among the runs, kAllPositionEncodings order
  std::vector<int> lengths;            // test lengths n of the runs (5, 10, ..., test_max)
  int runs_train_max = 0;              // train_max of the runs (the chart's vertical line)
  train::Task runs_task = train::Task::copy;  // the runs' task (what the chart's n counts)
  int covered_by_fixes = 0;            // longest n whose ids a shown rand-* run saw in training (0: none shown)
  int generation = 0;                  // counts Train presses and opened experiments (a new set of runs)
  LabAttention attention;              // the maps of the run `attention_pe` names
  LabAttention beside;                 // the same sequence in the run `beside_pe` names (none: -1)
  std::string pair_key;                // what pair_rows was computed for
  Matrix pair_rows;                    // both runs' rows of their shared query: attention's, a NaN row, beside's
  plot::HeatmapImage pair_image;       // (empty unless both are shown on one query)
  std::string error;                   // last refusal (settings, saving), shown in the page
  // What the last keep_lab_inputs_valid changed, a phrase each ("DroPE steps 800 -> 499: fewer than the steps"),
  // and which ticked encodings NoPE every and DroPE steps do not reach: both shown under the sliders.
  std::vector<std::string> adjusted;
  std::string schedule_note;
  // When no ticked encoding is among the runs on the page (a preset set up the next Train beside the shipped
  // experiment): which encodings the runs have, so that the empty charts say why.
  std::string unticked_note;
  std::vector<train::ReproductionRow> reproductions;  // the Reproductions table, read once it is shown
};

struct AppState;
// The runs' settings from the page's inputs, one per chosen encoding and seed, seed-major (validated: ParamError).
std::vector<train::TrainSettings> lab_settings(const LabOptions& o);
// Whether encoding k (kAllPositionEncodings order) has a meaning on the page's task (coupling: not on sort); the
// view greys out the others and nothing trains them.
bool encoding_fits_task(const LabOptions& o, int k);
// In the page's update, after a slider moved: d_model to the nearest multiple of 2 x heads (an even head dimension),
// test_max to at most 4 x train_max, NoPE every within the layers, DroPE steps below the steps, the position range
// to at least the longest sequence, and batch halved until a run fits core's memory budget. Each change is named in
// o.adjusted (nothing moves silently); o.schedule_note names the ticked encodings a layer schedule or DroPE skips.
void keep_lab_inputs_valid(LabOptions& o);
// The first run of encoding `pe` among the page's runs, i.e. its first seed, and its index (nullptr when it is not
// among them or has not started).
const train::TrainRun* first_run_of(const LabOptions& o, train::PositionEncoding pe, std::size_t* index = nullptr);
// True while a run of the page is queued, training or evaluating.
bool lab_training(const LabOptions& o);
// Loads the trained position table of the page's learned run into the sidebar's encoding (as a loaded file
// would be), for Basics, Learned tables and Criteria. ParamError when there is no learned run yet.
void use_trained_table(AppState& s);
// Saves every finished run into `folder` as one experiment (core/train/experiment.hpp) named
// peviz-lab-<task>-<unix seconds>: the same set of files as `peviz train --out`. Returns the paths written.
// ParamError("out", ...) when nothing is finished or a write fails.
std::vector<std::string> save_lab_runs(const AppState& s, const std::string& folder, long long unix_seconds);
// Reopens a saved run or experiment (`peviz train --out`, File > Export lab runs) on the Lab page: its
// settings, curves, accuracies and weights; nothing retrains. ParamError naming what is wrong; the page
// keeps what it had then.
void open_lab_experiment(AppState& s, const std::string& path);

}  // namespace peviz::app
