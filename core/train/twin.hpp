// The PyTorch twin of a lab experiment: lab.py and its modules (compiled in), the lab's table, its settings and
// peviz's initial weights in one folder.
//
// `peviz train ... --emit-pytorch DIR` writes, and trains nothing:
//   DIR/lab.py                            core/train/twin/lab.py, byte for byte: the same model, task stream,
//                                         loss, AdamW and schedule, evaluation and run files, in PyTorch alone
//   DIR/lab_data.py                       core/train/twin/lab_data.py, byte for byte: the task streams and position
//                                         ids lab.py imports
//   DIR/lab_files.py                      core/train/twin/lab_files.py, byte for byte: safetensors and numbers as
//                                         peviz writes them, which lab.py imports
//   DIR/lab_table.json                    lab_table_json(): every encoding and task, which lab.py reads (it types
//                                         none); `peviz train --list-encodings --list-tasks --format json` prints it
//   DIR/settings.json                     {"format": kTwinFormat, "settings": {every TrainSettings field but pe and
//                                         seed}, "runs": [{"pe", "seed", "init"}...]}
//   DIR/init-<pe>-seed<S>.safetensors     peviz's initial weights of each run (model.hpp names, F32)
// `python3 DIR/lab.py` (one process) or `python3 DIR/lab.py --ranks N` (N ranks under torchrun) then writes the files
// `peviz train --out` writes (experiment.hpp), which `peviz --open` and load_run reopen.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/train/run.hpp"

namespace peviz::train {

inline constexpr const char* kTwinFormat = "peviz-pytorch-twin-1";
inline constexpr const char* kLabTableFormat = "peviz-lab-table-1";
inline constexpr const char* kLabTableFile = "lab_table.json";

// The lab's encodings and tasks for the twin, from kLabEncodings and kAllTasks, in their order:
//   {"format": kLabTableFormat,
//    "encodings": [{"name", "mechanism": the name of mechanism_encoding (the model the twin builds: "rope" for
//                   rand-rope), "positions": its sampler's name, "group": kClassicGroup or kFixesGroup}...],
//    "tasks": [{"name", "positions": the samplers that have a meaning on it (sampler_refusal empty)}...]}
nlohmann::ordered_json lab_table_json();

// One file of the twin as compiled into this binary: core/train/twin/<name>.
struct TwinSource {
  std::string_view name;
  std::string_view text;
};
// Every file of core/train/twin (lab.py, the script, and the modules it imports), by name.
std::span<const TwinSource> twin_sources();
// settings.json for the runs (experiment_settings order); `init_files` names each run's initial weights.
nlohmann::ordered_json twin_settings_json(const std::vector<TrainSettings>& runs, const std::vector<std::string>& init_files);
// The initial weights' file name of a run: "init-<pe>-seed<S>.safetensors".
std::string twin_init_file_name(const TrainSettings& s);
// Writes the folder above (created when its parent exists), each file atomically. Every run must pass
// validate_shape (ParamError from it); ParamError("emit-pytorch", one line) when the folder cannot be made or
// written. Returns the paths written.
std::vector<std::string> emit_pytorch_experiment(const std::vector<TrainSettings>& runs, const std::string& dir);

}  // namespace peviz::train
