// A run's results as JSON and CSV, and the whole run (weights + settings + curves) as .safetensors.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/train/run.hpp"

namespace peviz::train {

// The `peviz train` line, keys in this order: {"pe", "task", "seed", "train_max", "params", "steps", "steps_per_s", "final_loss",
// "exact_match": {"5": 1.0, ..., "40": null}} (null = not defined).
nlohmann::ordered_json run_summary_json(const TrainRun& run);
// The summary plus "settings" and "loss" (every step's training loss).
nlohmann::ordered_json run_full_json(const TrainRun& run);
// "step,loss" then one row per step (1-based).
std::string loss_curve_csv(const TrainSnapshot& s);
// "n,exact_match" then one row per test length; an empty cell where not defined.
std::string accuracy_csv(const TrainSnapshot& s);
// One encoding's exact match over its seeds at each of `lengths`, as the Lab's chart draws its line and band: over
// the runs evaluated without diverging (a diverged run's weights are not finite: it has no accuracy) and defined at
// that length. mean, lo and hi are NaN at a length no run reaches; runs counts them per length.
struct SeedsAccuracy {
  std::vector<double> mean, lo, hi;
  std::vector<int> runs;
  int evaluated = 0;  // runs evaluated without diverging
};
SeedsAccuracy seeds_accuracy(const std::vector<int>& lengths, const std::vector<const TrainSnapshot*>& seeds);
// The same as CSV: "n,mean,min,max,runs", one row per test length of the first evaluated run (empty cells for none).
std::string seeds_accuracy_csv(const std::vector<TrainSnapshot>& seeds);

// Settings as safetensors "__metadata__" strings and back (the reverse validates; ParamError(param)).
std::map<std::string, std::string> settings_metadata(const TrainSettings& s);
TrainSettings settings_from_metadata(const std::map<std::string, std::string>& m, const std::string& param);

// Every parameter tensor under its model.hpp name ("wte", "wpe" [2 * train_max + 3, d_model], ...),
// the settings, "loss" and "exact_match" (JSON text) in __metadata__. Atomic; ParamError(param).
// `half`: weights as F16 (half the bytes; the curves and accuracies stay as trained).
void save_run(const TrainRun& run, const std::string& path, const std::string& param = "out", bool half = false);
// A saved run, ready for snapshot(), attention_maps() and learned_table() (not for more steps: the
// optimizer state is not saved). ParamError(param) on a file that is not a peviz run.
std::unique_ptr<TrainRun> load_run(const std::string& path, const std::string& param = "from-safetensors");
// The same from the file's bytes (the fuzz target's entry).
std::unique_ptr<TrainRun> run_from_bytes(std::string_view bytes, const std::string& param = "from-safetensors");

}  // namespace peviz::train
