// A lab experiment: the runs of several encodings and seeds with one set of settings, saved as a set of files
// and opened again (`peviz train --out`, the Lab page's File > Export and File > Open).
//
// Files of an experiment saved to PATH.safetensors (one run: PATH itself, nothing else):
//   PATH-<pe>[-seed<S>].safetensors   each run (run_io.hpp's save_run; "-seed<S>" when there are several seeds)
//   PATH-<pe>[-seed<S>]-loss.csv, -accuracy.csv
//   PATH-<pe>-seeds-accuracy.csv      with several seeds: each encoding's mean, min and max over them (the chart's)
//   PATH.json                         {"format": "peviz-lab-experiment-1", "runs": [{"file": ..., summary}...]}
// Opening PATH.json reopens every run it lists; opening one .safetensors reopens that run alone.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/train/run.hpp"

namespace peviz::train {

inline constexpr const char* kExperimentFormat = "peviz-lab-experiment-1";

// One settings entry per (seed, encoding), seed-major: every encoding of the first seed, then the next seed.
std::vector<TrainSettings> experiment_settings(const TrainSettings& base, const std::vector<PositionEncoding>& encodings,
                                               const std::vector<std::uint64_t>& seeds);
// The .safetensors path of each run when `runs` are saved to `out` (see above).
std::vector<std::string> experiment_file_names(const std::vector<TrainSettings>& runs, const std::string& out);
// Every file save_experiment writes for these runs, in its order: one run, `out` alone; several, each run's
// .safetensors, -loss.csv and -accuracy.csv, with several seeds each encoding's -seeds-accuracy.csv, then the
// manifest <stem>.json.
std::vector<std::string> experiment_output_files(const std::vector<TrainSettings>& runs, const std::string& out);
// Writes the files above, each atomically (`half`: weights as F16, see save_run); ParamError("out", ...) when a write fails. Returns every path written.
std::vector<std::string> save_experiment(const std::vector<const TrainRun*>& runs, const std::string& out, bool half = false);
// True when `path` looks like an experiment or a run: a .json manifest of kExperimentFormat, or a .safetensors
// whose __metadata__ says peviz-train-run (reads the header only; false for anything unreadable).
bool is_lab_file(const std::string& path);
// Reopens a manifest (every run it lists, paths relative to its folder) or one run file. Every run must have
// the same settings but for pe and seed. ParamError(param, one line naming what is wrong).
std::vector<std::unique_ptr<TrainRun>> open_experiment(const std::string& path, const std::string& param = "open");

}  // namespace peviz::train
