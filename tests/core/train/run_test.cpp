// Determinism whatever the thread count, validation messages, save/load round trip of a run.
#include "core/train/run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include <catch2/catch.hpp>
#include "tiny_run.hpp"
#include "tests/temp_path.hpp"

#include "core/safetensors.hpp"
#include "core/train/run_io.hpp"
#include "../param_error.hpp"

using namespace peviz::train;

namespace {

TrainSettings quick(PositionEncoding pe, std::uint64_t seed) {
  TrainSettings s;
  s.pe = pe;
  s.d_model = 32;
  s.batch = 8;
  s.steps = 30;
  s.warmup = 5;
  s.train_max = 6;
  s.test_max = 12;
  s.test_samples = 10;
  s.seed = seed;
  return s;
}


}  // namespace

TEST_CASE("same seed, same bits: alone, twice, and beside another run on a second thread", "[train][run]") {
  std::atomic<bool> no{false};
  TrainRun a(quick(PositionEncoding::t5, 9)), b(quick(PositionEncoding::t5, 9)), c(quick(PositionEncoding::t5, 9));
  TrainRun other(quick(PositionEncoding::rope, 1));
  a.train(no);
  b.train(no);
  std::thread t1([&] { c.train(no); }), t2([&] { other.train(no); });
  t1.join();
  t2.join();
  CHECK(same_bits(a.snapshot().loss, b.snapshot().loss));
  CHECK(same_bits(a.snapshot().loss, c.snapshot().loss));
  CHECK(same_bits(a.parameters(), c.parameters()));
  CHECK(a.snapshot().loss.size() == 30u);
  CHECK(a.snapshot().loss.back() < a.snapshot().loss.front());  // it learns
  TrainRun d(quick(PositionEncoding::t5, 10));
  d.train(no);
  CHECK_FALSE(same_bits(a.snapshot().loss, d.snapshot().loss));
}

TEST_CASE("cancel stops early and still evaluates", "[train][run]") {
  TrainRun run(quick(PositionEncoding::nope, 0));
  std::atomic<bool> cancel{true};
  run.step();
  run.train(cancel);
  const TrainSnapshot s = run.snapshot();
  CHECK(s.step == 1);
  CHECK(s.cancelled);
  CHECK(s.evaluated);
  CHECK(s.accuracy.size() == 3u);
}

TEST_CASE("settings are validated against the limits table", "[train][run]") {
  TrainSettings s;
  s.heads = 3;
  CHECK(param_error_of([&] { validate(s); }).rfind("heads: d-model / heads must be an even integer", 0) == 0);
  s = TrainSettings{};
  s.test_max = 81;
  CHECK(param_error_of([&] { validate(s); }) == "test-max: must be at most 4 x train-max (80), got 81");
  s = TrainSettings{};
  s.layers = 9;
  CHECK(param_error_of([&] { validate(s); }) == "layers: must be an integer in [1, 8], got 9");
  s = TrainSettings{};
  s.d_model = 256;
  s.batch = 256;
  s.layers = 4;
  s.train_max = 40;
  s.test_max = 160;
  CHECK(param_error_of([&] { validate(s); }).rfind("batch: the run would need", 0) == 0);
  CHECK(param_error_of([] { validate(TrainSettings{}); }).empty());
}

TEST_CASE("a run saved as .safetensors loads back bit for bit", "[train][run]") {
  TrainRun run(quick(PositionEncoding::learned, 4));
  run.train(std::atomic<bool>{false});
  const std::string path = unique_temp_path("run.safetensors");
  save_run(run, path);
  const auto loaded = load_run(path);
  CHECK(same_bits(loaded->parameters(), run.parameters()));
  CHECK(same_bits(loaded->snapshot().loss, run.snapshot().loss));
  CHECK(run_summary_json(*loaded) == run_summary_json(run));
  // The trained table is a plain 2-D tensor "wpe" that core's table reader (Basics page) can open.
  const peviz::Matrix wpe = peviz::read_safetensors_matrix(path, "wpe");
  CHECK(wpe.data == run.learned_table().data);
  CHECK(run_summary_json(run)["exact_match"]["10"].is_null());  // 23 tokens > 15 rows
  const TrainSnapshot snap = run.snapshot();
  const std::string acc = accuracy_csv(snap), curve = loss_curve_csv(snap);
  CHECK(acc.rfind("n,exact_match\n5,", 0) == 0);
  CHECK(acc.find("\n10,\n12,\n") != std::string::npos);  // not defined: empty cells
  CHECK(std::count(curve.begin(), curve.end(), '\n') == 31);  // header + 30 steps
  CHECK(std::stof(curve.substr(curve.rfind(',') + 1)) == snap.loss.back());
  CHECK(run_full_json(run)["loss"].size() == 30u);
  std::remove(path.c_str());
  CHECK(param_error_of([] { load_run("/nonexistent/run.safetensors"); }).rfind("from-safetensors: ", 0) == 0);
}
