// The PyTorch twin's folder (lab.py, settings.json, initial weights), the any-size rules, and reopening a run
// trained beyond peviz's limits.
#include "core/train/twin.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include "tests/temp_path.hpp"
#include "tiny_run.hpp"

#include "core/io/safetensors.hpp"
#include "core/train/experiment.hpp"
#include "core/train/run_io.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz::train;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream is(p, std::ios::binary);
  std::ostringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

struct TempDir {
  fs::path path = unique_temp_path("twin");
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

TrainSettings paper_scale() {
  TrainSettings s;
  s.layers = 12;
  s.heads = 12;
  s.d_model = 768;
  s.steps = 40000;
  return s;
}

}  // namespace

TEST_CASE("the compiled-in twin is core/train/twin's files, every one of them") {
  const fs::path twin = fs::path(__FILE__).parent_path() / ".." / ".." / ".." / "core" / "train" / "twin";
  REQUIRE(fs::exists(twin / "lab.py"));
  std::set<std::string> on_disk, compiled;
  for (const auto& entry : fs::directory_iterator(twin))
    if (entry.path().extension() == ".py") on_disk.insert(entry.path().filename().string());
  for (const TwinSource& source : twin_sources()) {
    compiled.insert(std::string(source.name));
    CHECK(source.text == read_text(twin / source.name));
  }
  CHECK(compiled == on_disk);
  CHECK(compiled == std::set<std::string>{"lab.py", "lab_data.py", "lab_files.py"});
}

TEST_CASE("lab_table_json: every encoding with the model the twin builds, its ids and group; every task") {
  const nlohmann::ordered_json j = lab_table_json();
  CHECK(j["format"] == kLabTableFormat);
  REQUIRE(j["encodings"].size() == std::size(kLabEncodings));
  for (std::size_t i = 0; i < std::size(kLabEncodings); ++i) {
    const LabEncodingInfo& e = kLabEncodings[i];
    CHECK(j["encodings"][i]["name"] == e.name);
    CHECK(j["encodings"][i]["mechanism"] == to_string(mechanism_encoding(e.id)));
    CHECK(j["encodings"][i]["positions"] == to_string(e.positions));
  }
  CHECK(j["encodings"][0].dump() == R"({"name":"nope","mechanism":"nope","positions":"contiguous","group":"all"})");
  CHECK(j["encodings"][8].dump() == R"({"name":"rand-rope","mechanism":"rope","positions":"randomized","group":"fixes"})");
  CHECK(j["encodings"][9].dump() == R"({"name":"coupled","mechanism":"learned","positions":"coupled","group":"fixes"})");
  CHECK(j["encodings"][11].dump() == R"({"name":"fire","mechanism":"fire","positions":"contiguous","group":"fixes"})");
  CHECK(j["encodings"][12].dump() == R"({"name":"rand-fire","mechanism":"fire","positions":"randomized","group":"fixes"})");
  CHECK(j["encodings"][13].dump() == R"({"name":"abacus","mechanism":"learned","positions":"abacus","group":"fixes"})");
  CHECK(j["encodings"][14].dump() == R"({"name":"random-start","mechanism":"learned","positions":"random-start","group":"fixes"})");
  REQUIRE(j["tasks"].size() == std::size(kAllTasks));
  CHECK(j["tasks"][0].dump() == R"({"name":"copy","positions":["contiguous","randomized","coupled","abacus","random-start"]})");
  CHECK(j["tasks"][2].dump() == R"({"name":"sort","positions":["contiguous","randomized","abacus","random-start"]})");  // no coupling
  CHECK(j["tasks"][3].dump() == R"({"name":"add","positions":["contiguous","randomized","coupled","abacus","random-start"]})");
}

TEST_CASE("emit_pytorch_experiment writes lab.py, every setting and each run's initial weights") {
  TempDir dir;
  TrainSettings base = tiny_run(PositionEncoding::rope, 4);
  base.lr = 0.0025;
  const std::vector<TrainSettings> runs =
      experiment_settings(base, {PositionEncoding::learned, PositionEncoding::t5}, {4, 7});
  const fs::path out = dir.path / "twin";  // created: its parent exists
  const std::vector<std::string> written = emit_pytorch_experiment(runs, out.string());
  CHECK(written.size() == twin_sources().size() + 6);  // the twin's files, lab_table.json, settings.json, 4 weights
  for (const TwinSource& source : twin_sources()) CHECK(read_text(out / source.name) == source.text);
  CHECK(nlohmann::ordered_json::parse(read_text(out / kLabTableFile)) == lab_table_json());
  const nlohmann::json j = nlohmann::json::parse(read_text(out / "settings.json"));
  CHECK(j["format"] == kTwinFormat);
  const nlohmann::json& t = j["settings"];
  CHECK(t["task"] == "copy");
  CHECK(t["layers"] == 1);
  CHECK(t["heads"] == base.heads);
  CHECK(t["d_model"] == 16);
  CHECK(t["batch"] == 4);
  CHECK(t["steps"] == 20);
  CHECK(t["train_max"] == 4);
  CHECK(t["test_max"] == 8);
  CHECK(t["test_samples"] == 5);
  CHECK(t["rope_base"] == 10000.0);
  CHECK(t["lr"] == 0.0025);
  CHECK(t["warmup"] == 2);
  CHECK(j["model"]["learned_len"] == 11);
  CHECK(j["model"]["max_positions"] == 19);
  CHECK(j["beyond_engine_limits"].empty());
  REQUIRE(j["runs"].size() == 4);
  CHECK(j["runs"][3] == nlohmann::json({{"pe", "t5"}, {"seed", 7}, {"init", "init-t5-seed7.safetensors"}}));
  // The initial weights are the ones TrainRun starts from, every tensor under its model.hpp name and shape.
  for (const TrainSettings& s : runs) {
    const std::string bytes = read_text(out / twin_init_file_name(s));
    const peviz::SafetensorsIndex idx = peviz::parse_safetensors_index(bytes, bytes.size());
    CHECK(idx.metadata.at("pe") == to_string(s.pe));
    const std::vector<float> expected = TrainRun(s).parameters();
    const ModelConfig c = model_config(s);
    const ParamLayout layout = param_layout(c);
    std::size_t tensors = 0;
    for (int p = 0; p < kParamCount; ++p) {
      if (layout.size(Param(p)) == 0) continue;
      ++tensors;
      const auto it = std::find_if(idx.tensors.begin(), idx.tensors.end(),
                                   [&](const auto& t) { return t.name == param_name(Param(p)); });
      REQUIRE(it != idx.tensors.end());
      CHECK(it->dtype == "F32");
      std::vector<std::uint64_t> shape;
      for (std::size_t d : param_shape(c, Param(p))) shape.push_back(d);
      CHECK(it->shape == shape);
      REQUIRE(it->end - it->begin == 4 * layout.size(Param(p)));
      CHECK(std::memcmp(bytes.data() + idx.data_start + it->begin, expected.data() + layout.offset[std::size_t(p)],
                        4 * layout.size(Param(p))) == 0);
    }
    CHECK(idx.tensors.size() == tensors);
  }
}

TEST_CASE("emit_pytorch_experiment refuses a folder it cannot make, and settings no size allows") {
  TempDir dir;
  const std::vector<TrainSettings> runs{tiny_run(PositionEncoding::rope, 0)};
  CHECK(param_error_of([&] { emit_pytorch_experiment(runs, "/nonexistent/twin"); }) ==
        "emit-pytorch: cannot write /nonexistent/twin: /nonexistent is not a folder");
  CHECK(param_error_of([&] { emit_pytorch_experiment(runs, ""); }) == "emit-pytorch: needs a folder to write into");
  std::ofstream((dir.path / "file").string()) << "x";
  CHECK(param_error_of([&] { emit_pytorch_experiment(runs, (dir.path / "file").string()); })
            .rfind("emit-pytorch: cannot create the folder " + (dir.path / "file").string() + ": ", 0) == 0);
  TrainSettings odd = runs[0];
  odd.heads = 3;
  CHECK(param_error_of([&] { emit_pytorch_experiment({odd}, dir.path.string()); }).rfind("heads: ", 0) == 0);
  CHECK_FALSE(fs::exists(dir.path / "lab.py"));
}

TEST_CASE("validate_shape takes any size, beyond_engine_limits names what peviz cannot train") {
  const TrainSettings paper = paper_scale();
  CHECK(param_error_of([&] { validate_shape(paper); }).empty());
  CHECK(param_error_of([&] { validate(paper); }) == "layers: must be an integer in [1, 8], got 12");
  const std::vector<std::string> over = beyond_engine_limits(paper);
  REQUIRE(over.size() == 4);
  CHECK(over[0] == "layers 12 > 8");
  CHECK(over[1] == "heads 12 > 8");
  CHECK(over[2] == "d-model 768 > 256");
  CHECK(over[3].rfind("memory ", 0) == 0);
  CHECK(beyond_engine_limits(TrainSettings{}).empty());
  TrainSettings s;
  s.steps = 200000;
  CHECK(beyond_engine_limits(s) == std::vector<std::string>{"steps 200000 > 100000"});
  // The minimums and the shape rules still hold at any size; so does viewing memory.
  s = TrainSettings{};
  s.layers = 0;
  CHECK(param_error_of([&] { validate_shape(s); }) == "layers: must be an integer >= 1, got 0");
  s = TrainSettings{};
  s.test_max = 81;
  CHECK(param_error_of([&] { validate_shape(s); }) == "test-max: must be at most 4 x train-max (80), got 81");
  s = TrainSettings{};
  s.train_max = 1 << 20;
  s.test_max = 1 << 20;
  CHECK(param_error_of([&] { validate_shape(s); }).rfind("test-max: evaluating one test sequence would need ", 0) == 0);
  s = TrainSettings{};
  s.d_model = 1 << 14;
  s.heads = 8;
  CHECK(param_error_of([&] { validate_shape(s); }).rfind("d-model: the weights would take ", 0) == 0);
}

TEST_CASE("a run trained beyond peviz's limits reopens for viewing, and does not step") {
  TempDir dir;
  TrainSettings s = tiny_run(PositionEncoding::alibi, 2);
  s.layers = 9;  // over the 8 peviz trains
  const ModelConfig c = model_config(s);
  const ParamLayout layout = param_layout(c);
  std::vector<float> params(layout.total(), 0.5f);
  std::vector<peviz::SafetensorsF32> tensors;
  for (int p = 0; p < kParamCount; ++p) {
    if (layout.size(Param(p)) == 0) continue;
    std::vector<std::uint64_t> shape;
    for (std::size_t d : param_shape(c, Param(p))) shape.push_back(d);
    tensors.push_back({std::string(param_name(Param(p))), shape,
                       std::span<const float>(params.data() + layout.offset[std::size_t(p)], layout.size(Param(p)))});
  }
  std::map<std::string, std::string> meta = settings_metadata(s);
  meta["loss"] = "[2.5,1.25]";
  meta["exact_match"] = R"({"5":0.4,"8":0.0})";
  meta["steps_per_s"] = "3";
  meta["cancelled"] = "false";
  const std::string path = (dir.path / "big.safetensors").string();
  peviz::write_safetensors(path, tensors, meta);
  CHECK(is_lab_file(path));
  const auto runs = open_experiment(path);
  REQUIRE(runs.size() == 1);
  TrainRun& run = *runs[0];
  CHECK(run.settings().layers == 9);
  CHECK(run.snapshot().loss == std::vector<float>{2.5f, 1.25f});
  REQUIRE(run.snapshot().accuracy.size() == 2);
  CHECK(*run.snapshot().accuracy[0].exact_match == 0.4);
  CHECK(run.attention_maps(5, 0)->size() == 9);  // one map set per layer
  CHECK_FALSE(run.step());
  CHECK(run.snapshot().step == 2);
  // Settings no size allows are still refused, with one line.
  meta["heads"] = "3";
  peviz::write_safetensors(path, tensors, meta);
  CHECK(param_error_of([&] { load_run(path); }).rfind("heads: d-model / heads must be", 0) == 0);
}
