// Saving an experiment as a set of files and reopening it: names, round trip of every value, refusals.
#include "core/train/experiment.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include "tiny_run.hpp"
#include <nlohmann/json.hpp>
#include "tests/temp_path.hpp"

#include "core/io/safetensors.hpp"
#include "core/train/run_io.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz::train;
namespace fs = std::filesystem;

namespace {

std::vector<std::unique_ptr<TrainRun>> trained(const std::vector<TrainSettings>& settings) {
  std::vector<std::unique_ptr<TrainRun>> runs;
  for (const TrainSettings& s : settings) {
    runs.push_back(std::make_unique<TrainRun>(s));
    runs.back()->train(std::atomic<bool>{false});
  }
  return runs;
}

std::vector<const TrainRun*> pointers(const std::vector<std::unique_ptr<TrainRun>>& runs) {
  std::vector<const TrainRun*> out;
  for (const auto& r : runs) out.push_back(r.get());
  return out;
}

struct TempDir {
  fs::path path = unique_temp_path("experiment");
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("experiment settings are seed-major: every encoding of a seed, then the next seed", "[train][experiment]") {
  const std::vector<TrainSettings> s = experiment_settings(
      tiny_run(PositionEncoding::rope, 0), {PositionEncoding::t5, PositionEncoding::alibi, PositionEncoding::learned}, {3, 4});
  REQUIRE(s.size() == 6);
  CHECK(s[0].pe == PositionEncoding::t5);
  CHECK(s[0].seed == 3);
  CHECK(s[2].pe == PositionEncoding::learned);
  CHECK(s[3].pe == PositionEncoding::t5);
  CHECK(s[3].seed == 4);
  CHECK(s[5].seed == 4);
  CHECK(s[4].steps == 20);  // the rest is the base's
}

TEST_CASE("file names: one run keeps the path; encodings and seeds get suffixes", "[train][experiment]") {
  const TrainSettings r = tiny_run(PositionEncoding::rope, 0);
  CHECK(experiment_file_names({r}, "d/run.safetensors") == std::vector<std::string>{"d/run.safetensors"});
  const auto two_pe = experiment_settings(r, {PositionEncoding::rope, PositionEncoding::t5}, {0});
  CHECK(experiment_file_names(two_pe, "d/x.safetensors") ==
        std::vector<std::string>{"d/x-rope.safetensors", "d/x-t5.safetensors"});
  const auto seeds = experiment_settings(r, {PositionEncoding::rope, PositionEncoding::t5}, {0, 1});
  CHECK(experiment_file_names(seeds, "d/x.safetensors")[3] == "d/x-t5-seed1.safetensors");
  const auto one_pe = experiment_settings(r, {PositionEncoding::nope}, {2, 3});
  CHECK(experiment_file_names(one_pe, "d/x")[1] == "d/x-seed3.safetensors");
}

TEST_CASE("an experiment reopens with the same settings, curves, accuracies and attention values", "[train][experiment]") {
  TempDir dir;
  const auto runs = trained(experiment_settings(tiny_run(PositionEncoding::rope, 0),
                                                {PositionEncoding::learned, PositionEncoding::alibi}, {7, 8}));
  const std::string out = (dir.path / "exp.safetensors").string();
  const std::vector<std::string> written = save_experiment(pointers(runs), out);
  CHECK(written.size() == 4 * 3 + 2 + 1);  // each run's three files, each encoding's over its seeds, the manifest
  std::vector<TrainSettings> settings;
  for (const auto& r : runs) settings.push_back(r->settings());
  CHECK(written == experiment_output_files(settings, out));  // what peviz train checks before training
  CHECK(experiment_output_files({settings[0]}, out) == std::vector<std::string>{out});
  for (const std::string& p : written) CHECK(fs::exists(p));
  const std::string manifest = (dir.path / "exp.json").string();
  CHECK(written.back() == manifest);
  CHECK(is_lab_file(manifest));
  CHECK(is_lab_file((dir.path / "exp-alibi-seed8.safetensors").string()));
  // The learned encoding over its seeds 7 and 8: the mean, min and max of the two runs' exact match per length.
  std::ifstream over_seeds(dir.path / "exp-learned-seeds-accuracy.csv");
  std::string line;
  REQUIRE(std::getline(over_seeds, line));
  CHECK(line == "n,mean,min,max,runs");
  const TrainSnapshot a = runs[0]->snapshot(), b = runs[2]->snapshot();  // seed-major: learned 7, alibi 7, learned 8
  REQUIRE(a.accuracy.size() == b.accuracy.size());
  for (std::size_t i = 0; i < a.accuracy.size(); ++i) {
    REQUIRE(std::getline(over_seeds, line));
    INFO(line);
    const auto& x = a.accuracy[i].exact_match;
    const auto& y = b.accuracy[i].exact_match;
    if (!x || !y) {
      CHECK(!x);  // the learned table has rows for the same lengths in both runs
      CHECK(line == std::to_string(a.accuracy[i].n) + ",,,,0");
      continue;
    }
    double mean = 0, lo = 0, hi = 0;
    int n = 0, runs_there = 0;
    REQUIRE(std::sscanf(line.c_str(), "%d,%lf,%lf,%lf,%d", &n, &mean, &lo, &hi, &runs_there) == 5);
    CHECK(n == a.accuracy[i].n);
    CHECK(runs_there == 2);
    CHECK(mean == (*x + *y) / 2);
    CHECK(lo == std::min(*x, *y));
    CHECK(hi == std::max(*x, *y));
  }

  const auto back = open_experiment(manifest);
  REQUIRE(back.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    INFO(i);
    CHECK(back[i]->settings().pe == runs[i]->settings().pe);
    CHECK(back[i]->settings().seed == runs[i]->settings().seed);
    CHECK(run_summary_json(*back[i]) == run_summary_json(*runs[i]));  // accuracies, loss, steps/s
    CHECK(back[i]->snapshot().loss == runs[i]->snapshot().loss);
    const auto a = back[i]->attention_maps(6, 2), b = runs[i]->attention_maps(6, 2);
    REQUIRE(a.has_value() == b.has_value());
    if (a) CHECK((*a)[0][1].data == (*b)[0][1].data);
    CHECK(back[i]->greedy_answer(3, 1) == runs[i]->greedy_answer(3, 1));
  }
  const auto single = open_experiment((dir.path / "exp-learned-seed8.safetensors").string());
  REQUIRE(single.size() == 1);
  CHECK(single[0]->parameters() == runs[2]->parameters());
}

TEST_CASE("wrong files are refused with one line naming what does not match", "[train][experiment]") {
  TempDir dir;
  const auto runs = trained({tiny_run(PositionEncoding::rope, 0), tiny_run(PositionEncoding::t5, 0)});
  const std::string out = (dir.path / "e.safetensors").string();
  save_experiment(pointers(runs), out);
  auto refusal = [](const std::string& path) { return param_error_of([&] { open_experiment(path); }); };
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string p = (dir.path / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  };
  CHECK(refusal(write("other.json", R"({"format": "peviz-lab-experiment-9", "runs": []})")) ==
        "open: " + (dir.path / "other.json").string() +
            " was written by another version of peviz (format \"peviz-lab-experiment-9\", this one reads "
            "peviz-lab-experiment-1)");
  CHECK(refusal(write("empty.json", R"({"format": "peviz-lab-experiment-1", "runs": []})")).find("lists no runs") !=
        std::string::npos);
  CHECK(refusal(write("escape.json", R"({"format": "peviz-lab-experiment-1", "runs": [{"file": "../x.safetensors"}]})"))
            .find("must sit beside the manifest") != std::string::npos);
  CHECK_FALSE(is_lab_file(write("garbage.json", "{not json")));
  CHECK(refusal((dir.path / "garbage.json").string()).find("no \"format\"") != std::string::npos);

  // A run file cut short, or another safetensors file (a plain table), or a run from a future version.
  const std::string rope = (dir.path / "e-rope.safetensors").string();
  std::string bytes;
  {
    std::ifstream is(rope, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(is), {});
  }
  CHECK(refusal(write("cut.safetensors", bytes.substr(0, bytes.size() - 100))).rfind("open: cut.safetensors: ", 0) == 0);
  const std::vector<float> table(6, 0.5f);
  peviz::write_safetensors((dir.path / "table.safetensors").string(), {{"wpe", {2, 3}, table}}, {});
  CHECK_FALSE(is_lab_file((dir.path / "table.safetensors").string()));
  CHECK(refusal((dir.path / "table.safetensors").string()) ==
        "open: table.safetensors: not a peviz training run: __metadata__ has no 'format'");
  std::map<std::string, std::string> future = settings_metadata(runs[0]->settings());
  future["format"] = "peviz-train-run-2";
  peviz::write_safetensors((dir.path / "future.safetensors").string(), {{"wte", {2, 3}, table}}, future);
  CHECK(refusal((dir.path / "future.safetensors").string()) ==
        "open: future.safetensors: written by another version of peviz (format peviz-train-run-2, this one reads "
        "peviz-train-run-1)");
  // The right metadata over weights of another shape.
  std::map<std::string, std::string> meta = settings_metadata(runs[0]->settings());
  meta["loss"] = "[]";
  meta["exact_match"] = "{}";
  meta["steps_per_s"] = "1";
  meta["cancelled"] = "false";
  peviz::write_safetensors((dir.path / "shape.safetensors").string(), {{"wte", {2, 3}, table}}, meta);
  CHECK(refusal((dir.path / "shape.safetensors").string()).find("tensor 'wte' is missing or is not F32 / F16 of the shape") !=
        std::string::npos);
  // Two runs of different models in one manifest.
  TrainSettings wider = tiny_run(PositionEncoding::nope, 0);
  wider.d_model = 32;
  const auto other = trained({wider});
  save_run(*other[0], (dir.path / "wide.safetensors").string());
  nlohmann::json mixed = {{"format", kExperimentFormat},
                          {"runs", {{{"file", "e-rope.safetensors"}}, {{"file", "wide.safetensors"}}}}};
  CHECK(refusal(write("mixed.json", mixed.dump())).find("different settings") != std::string::npos);
}

TEST_CASE("a diverged run says where in its JSON line and keeps it through a save", "[train][experiment]") {
  TempDir dir;
  const TrainSettings s = tiny_run(PositionEncoding::rope, 1);
  std::vector<float> weights = TrainRun(s).parameters();
  weights[0] = std::numeric_limits<float>::infinity();
  TrainRun run(s, weights, TrainSnapshot{});
  run.train(std::atomic<bool>{false});
  CHECK(run_summary_json(run)["diverged_at"] == 1);
  CHECK_FALSE(TrainRun(s).snapshot().diverged_at);
  const std::string path = (dir.path / "diverged.safetensors").string();
  save_run(run, path);
  CHECK(load_run(path)->snapshot().diverged_at == 1);
}

TEST_CASE("an experiment saved with half-precision weights reopens within float16 rounding", "[train][experiment]") {
  TempDir dir;
  const auto runs = trained({tiny_run(PositionEncoding::rope, 3), tiny_run(PositionEncoding::t5, 3)});
  const std::string out = (dir.path / "half.safetensors").string();
  save_experiment(pointers(runs), out, true);
  CHECK(peviz::read_safetensors_index((dir.path / "half-rope.safetensors").string()).tensors[0].dtype == "F16");
  const auto back = open_experiment((dir.path / "half.json").string());
  REQUIRE(back.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(run_summary_json(*back[i]) == run_summary_json(*runs[i]));  // what was measured, as printed
    const std::vector<float> a = runs[i]->parameters(), b = back[i]->parameters();
    REQUIRE(a.size() == b.size());
    double worst = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k)
      worst = std::max(worst, std::abs(double(a[k]) - b[k]) / std::max(std::abs(double(a[k])), 6.1e-5));
    CHECK(worst <= 0x1p-11);  // half a unit in the last place of binary16 (normal range)
  }
}

TEST_CASE("a run's loss curve is stored in float's shortest digits and read back bit for bit", "[train][experiment]") {
  TempDir dir;
  TrainRun run(tiny_run(PositionEncoding::nope, 2, 40));
  run.train(std::atomic<bool>{false});
  const std::string path = (dir.path / "curve.safetensors").string();
  save_run(run, path);
  const std::string stored = peviz::read_safetensors_index(path).metadata.at("loss");
  CHECK(stored.find(std::to_string(run.snapshot().loss[0]).substr(0, 4)) != std::string::npos);
  CHECK(stored.size() < 13 * run.snapshot().loss.size());  // at most 9 digits, a point and a comma a value
  CHECK(same_bits(load_run(path)->snapshot().loss, run.snapshot().loss));
  // Malformed curves are refused by name.
  std::map<std::string, std::string> meta = peviz::read_safetensors_index(path).metadata;
  const std::string bytes = [&] {
    std::ifstream is(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(is), {});
  }();
  for (const char* text : {"[1,,2]", "[1 2]", "[1,]", "1,2", "[1,2", "[x]", "[1]]"}) {
    INFO(text);
    meta["loss"] = text;
    const auto idx = peviz::parse_safetensors_index(bytes, bytes.size());
    std::vector<peviz::SafetensorsF32> tensors;
    std::vector<std::vector<float>> data;
    for (const auto& t : idx.tensors) {
      data.push_back(std::vector<float>((t.end - t.begin) / 4));
      std::memcpy(data.back().data(), bytes.data() + idx.data_start + t.begin, t.end - t.begin);
    }
    for (std::size_t i = 0; i < idx.tensors.size(); ++i) tensors.push_back({idx.tensors[i].name, idx.tensors[i].shape, data[i]});
    const std::string bad = (dir.path / "bad.safetensors").string();
    peviz::write_safetensors(bad, tensors, meta);
    CHECK(param_error_of([&] { load_run(bad); }) == "from-safetensors: __metadata__ 'loss' is not a list of numbers");
  }
}
