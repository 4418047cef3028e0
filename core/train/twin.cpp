// Emitting the PyTorch twin of an experiment: lab.py and its modules, the lab's table, settings.json and each run's
// initial weights.
#include "core/train/twin.hpp"

#include <filesystem>
#include <ostream>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/io/safetensors.hpp"

namespace peviz::train {

namespace fs = std::filesystem;

nlohmann::ordered_json lab_table_json() {
  nlohmann::ordered_json j;
  j["format"] = kLabTableFormat;
  j["encodings"] = nlohmann::ordered_json::array();
  for (const LabEncodingInfo& e : kLabEncodings)
    j["encodings"].push_back({{"name", e.name},
                              {"mechanism", to_string(mechanism_encoding(e.id))},
                              {"positions", to_string(e.positions)},
                              {"group", e.classic ? kClassicGroup : kFixesGroup}});
  j["tasks"] = nlohmann::ordered_json::array();
  for (Task t : kAllTasks) {
    nlohmann::ordered_json samplers = nlohmann::ordered_json::array();
    for (PositionSampler s : kAllPositionSamplers)
      if (sampler_refusal(s, t).empty()) samplers.push_back(to_string(s));
    j["tasks"].push_back({{"name", to_string(t)}, {"positions", samplers}});
  }
  return j;
}

std::string twin_init_file_name(const TrainSettings& s) {
  return "init-" + std::string(to_string(s.pe)) + "-seed" + std::to_string(s.seed) + ".safetensors";
}

nlohmann::ordered_json twin_settings_json(const std::vector<TrainSettings>& runs, const std::vector<std::string>& init_files) {
  const TrainSettings& s = runs.at(0);
  const ModelConfig c = model_config(s);
  nlohmann::ordered_json j;
  j["format"] = kTwinFormat;
  // Every TrainSettings field but pe and seed (one per run below), under its field name.
  j["settings"] = {{"task", to_string(s.task)}, {"layers", s.layers},       {"heads", s.heads},
                   {"d_model", s.d_model},      {"batch", s.batch},         {"steps", s.steps},
                   {"train_max", s.train_max},  {"test_max", s.test_max},   {"test_samples", s.test_samples},
                   {"rope_base", s.rope_base},  {"lr", s.lr},               {"warmup", s.warmup},
                   {"position_range", s.position_range}, {"ema_decay", s.ema_decay}, {"dropout", s.dropout},
                   {"length_scale", to_string(s.length_scale)}, {"nope_every", s.nope_every},
                   {"drope_steps", s.drope_steps}};
  // What model_config derives from them (model.hpp's ModelConfig), so lab.py need not guess.
  j["model"] = {{"vocab", c.vocab},           {"learned_len", c.learned_len}, {"max_positions", c.max_positions},
                {"t5_buckets", c.t5_buckets}, {"t5_max_distance", c.t5_max_distance}};
  j["beyond_engine_limits"] = beyond_engine_limits(s);
  j["runs"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < runs.size(); ++i)
    j["runs"].push_back({{"pe", to_string(runs[i].pe)}, {"seed", runs[i].seed}, {"init", init_files.at(i)}});
  return j;
}

std::vector<std::string> emit_pytorch_experiment(const std::vector<TrainSettings>& runs, const std::string& dir) {
  if (runs.empty()) throw ParamError("emit-pytorch", "no run to emit");
  for (const TrainSettings& s : runs) validate_shape(s);
  if (dir.empty()) throw ParamError("emit-pytorch", "needs a folder to write into");
  const fs::path folder = fs::absolute(dir);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    if (!fs::is_directory(folder.parent_path(), ec))
      throw ParamError("emit-pytorch", "cannot write " + dir + ": " + folder.parent_path().string() + " is not a folder");
    if (!fs::create_directory(folder, ec) && !fs::is_directory(folder))
      throw ParamError("emit-pytorch", "cannot create the folder " + dir + ": " + ec.message());
  }
  std::vector<std::string> written, init_files;
  for (const TrainSettings& s : runs) init_files.push_back(twin_init_file_name(s));
  auto write_text = [&](const std::string& name, const std::string& text) {
    const std::string path = (folder / name).string();
    write_file_atomically(path, [&](std::ostream& os) { os << text; }, "emit-pytorch");
    written.push_back(path);
  };
  for (const TwinSource& source : twin_sources()) write_text(std::string(source.name), std::string(source.text));
  write_text(kLabTableFile, lab_table_json().dump(1) + "\n");
  write_text("settings.json", twin_settings_json(runs, init_files).dump(1) + "\n");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const TrainSettings& s = runs[i];
    const ModelConfig c = model_config(s);
    const Model<float> m = make_model<float>(c, 0, 0, s.seed);  // the weights TrainRun starts from; no activations
    std::vector<SafetensorsF32> tensors;
    for (int p = 0; p < kParamCount; ++p) {
      if (m.layout.size(Param(p)) == 0) continue;  // wpe / t5_bias of other encodings
      std::vector<std::uint64_t> shape;
      for (std::size_t d : param_shape(c, Param(p))) shape.push_back(d);
      tensors.push_back({std::string(param_name(Param(p))), shape,
                         std::span<const float>(m.param(Param(p)), m.layout.size(Param(p)))});
    }
    const std::string path = (folder / init_files[i]).string();
    write_safetensors(path, tensors,
                      {{"format", "peviz-twin-init-1"}, {"pe", std::string(to_string(s.pe))},
                       {"seed", std::to_string(s.seed)}},
                      "emit-pytorch");
    written.push_back(path);
  }
  return written;
}

}  // namespace peviz::train
