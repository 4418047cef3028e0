// Tests for core/train/run_io: a run saved as .safetensors loads back bit for bit (F16 weights: each rounded once),
// its settings survive the metadata round trip, the summary JSON and the CSV curves hold the run's numbers.
#include "core/train/run_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <catch2/catch.hpp>
#include "tiny_run.hpp"
#include "tests/temp_path.hpp"

#include "core/io/safetensors.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz::train;

TEST_CASE("a run saved as .safetensors loads back bit for bit", "[train][run]") {
  TrainRun run(quick_run(PositionEncoding::learned, 4));
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

TEST_CASE("settings go into the file's metadata and come back field by field", "[train][run_io]") {
  TrainSettings s = quick_run(PositionEncoding::rope, 77);
  s.task = Task::reverse;
  s.heads = 4;
  s.layers = 3;
  s.rope_base = 500.0;
  s.lr = 0.002;
  const TrainSettings back = settings_from_metadata(settings_metadata(s), "x");
  CHECK(back.task == s.task);
  CHECK(back.pe == s.pe);
  CHECK(back.layers == s.layers);
  CHECK(back.heads == s.heads);
  CHECK(back.d_model == s.d_model);
  CHECK(back.batch == s.batch);
  CHECK(back.steps == s.steps);
  CHECK(back.train_max == s.train_max);
  CHECK(back.test_max == s.test_max);
  CHECK(back.test_samples == s.test_samples);
  CHECK(back.seed == s.seed);
  CHECK(back.rope_base == s.rope_base);
  CHECK(back.lr == s.lr);
  CHECK(back.warmup == s.warmup);
  CHECK(settings_metadata(s).count("position-range") == 0);  // contiguous ids: files as before
  s.pe = PositionEncoding::rand_learned;
  s.position_range = 300;
  CHECK(settings_from_metadata(settings_metadata(s), "x").position_range == 300);
  auto no_range = settings_metadata(s);
  no_range.erase("position-range");
  CHECK(param_error_of([&] { settings_from_metadata(no_range, "x"); }).rfind("x: ", 0) == 0);
  s.pe = PositionEncoding::rope;
  CHECK(settings_metadata(s).count("ema") == 0);  // EMA and dropout off: files as before
  CHECK(settings_metadata(s).count("dropout") == 0);
  s.ema_decay = 0.999;
  s.dropout = 0.125;
  CHECK(settings_from_metadata(settings_metadata(s), "x").ema_decay == 0.999);
  CHECK(settings_from_metadata(settings_metadata(s), "x").dropout == 0.125);
  s.ema_decay = s.dropout = 0;
  CHECK(settings_metadata(s).count("length-scale") == 0);  // off: files as before
  s.length_scale = LengthScale::ssmax;
  CHECK(settings_metadata(s).at("length-scale") == "ssmax");
  CHECK(settings_from_metadata(settings_metadata(s), "x").length_scale == LengthScale::ssmax);
  auto unknown_scale = settings_metadata(s);
  unknown_scale["length-scale"] = "cubic";
  CHECK(param_error_of([&] { settings_from_metadata(unknown_scale, "x"); }) ==
        "x: __metadata__ 'length-scale' must be none, ssmax or logn, got 'cubic'");
  s.length_scale = LengthScale::none;
  CHECK(settings_metadata(s).count("nope-every") == 0);
  s.nope_every = 4;
  CHECK(settings_from_metadata(settings_metadata(s), "x").nope_every == 4);
  s.nope_every = 0;
  CHECK(settings_metadata(s).count("drope-steps") == 0);
  s.drope_steps = s.steps - 1;
  CHECK(settings_from_metadata(settings_metadata(s), "x").drope_steps == s.steps - 1);
  auto too_many = settings_metadata(s);
  too_many["drope-steps"] = too_many.at("steps");
  CHECK(param_error_of([&] { settings_from_metadata(too_many, "x"); }) == "x: __metadata__ 'drope-steps' is out of range");
  s.drope_steps = 0;
  auto broken = settings_metadata(s);
  broken["task"] = "juggle";
  CHECK(param_error_of([&] { settings_from_metadata(broken, "x"); }) == "x: unknown task juggle");
}

TEST_CASE("a run saved with F16 weights loads each weight rounded once to half precision", "[train][run_io]") {
  TrainRun run(tiny_run(PositionEncoding::alibi, 3));
  run.train(std::atomic<bool>{false});
  const std::string path = unique_temp_path("half-run.safetensors");
  save_run(run, path, "out", true);
  const auto loaded = load_run(path);
  std::vector<float> rounded = run.parameters();
  for (float& w : rounded) w = peviz::half_bits_to_float(peviz::float_to_half_bits(w));
  CHECK(same_bits(loaded->parameters(), rounded));
  CHECK(same_bits(loaded->snapshot().loss, run.snapshot().loss));  // the curves stay as trained
  std::remove(path.c_str());
}

TEST_CASE("bytes that are not a peviz run are refused naming the flag", "[train][run_io]") {
  CHECK(param_error_of([] { run_from_bytes("not a safetensors file"); }).rfind("from-safetensors: ", 0) == 0);
  CHECK(param_error_of([] { run_from_bytes("", "open"); }).rfind("open: ", 0) == 0);
}

TEST_CASE("a FIRE run reopens with its accuracies and attention, its MLP, c and L in the file", "[train][run_io]") {
  TrainRun run(tiny_run(PositionEncoding::fire, 3));
  run.train(std::atomic<bool>{false});
  const std::string path = unique_temp_path("fire-run.safetensors");
  save_run(run, path);
  const auto loaded = load_run(path);
  CHECK(same_bits(loaded->parameters(), run.parameters()));
  CHECK(run_summary_json(*loaded)["exact_match"] == run_summary_json(run)["exact_match"]);
  const auto maps = run.attention_maps(8, 1), reopened = loaded->attention_maps(8, 1);
  REQUIRE(maps.has_value());
  REQUIRE(reopened.has_value());
  CHECK(maps->front().front().data == reopened->front().front().data);
  CHECK(maps->back().back().data == reopened->back().back().data);
  const peviz::Matrix w2 = peviz::read_safetensors_matrix(path, "fire_w2");  // [heads, 32]
  CHECK(w2.rows == std::size_t(run.settings().heads));
  CHECK(w2.cols == 32u);
  std::remove(path.c_str());
}

TEST_CASE("an addition run reopens with its task, accuracies, answers and coupled ids", "[train][run_io]") {
  TrainSettings s = tiny_run(PositionEncoding::coupled_rope, 2);
  s.task = Task::add;
  TrainRun run(s);
  run.train(std::atomic<bool>{false});
  const std::string path = unique_temp_path("add-run.safetensors");
  save_run(run, path);
  const auto loaded = load_run(path);
  CHECK(loaded->settings().task == Task::add);
  CHECK(run_summary_json(*loaded)["exact_match"] == run_summary_json(run)["exact_match"]);
  CHECK(loaded->greedy_answer(8, 2) == run.greedy_answer(8, 2));
  CHECK(run.greedy_answer(8, 2).size() == 10u);  // c0..c8 and EOS
  CHECK(loaded->test_position_ids(8, 2) == coupled_positions(Task::add, 8, 0));
  std::remove(path.c_str());
}

TEST_CASE("an SSMax run reopens bit for bit with its s per layer and head in the file", "[train][run_io]") {
  TrainSettings settings = tiny_run(PositionEncoding::rope, 2);
  settings.length_scale = LengthScale::ssmax;
  TrainRun run(settings);
  run.train(std::atomic<bool>{false});
  const std::string path = unique_temp_path("ssmax-run.safetensors");
  save_run(run, path);
  const auto loaded = load_run(path);
  CHECK(loaded->settings().length_scale == LengthScale::ssmax);
  CHECK(same_bits(loaded->parameters(), run.parameters()));
  CHECK(run_summary_json(*loaded)["exact_match"] == run_summary_json(run)["exact_match"]);
  const peviz::Matrix s = peviz::read_safetensors_matrix(path, "ssmax_s");  // [layers, heads]
  CHECK(s.rows == std::size_t(settings.layers));
  CHECK(s.cols == std::size_t(settings.heads));
  CHECK(s.at(0, 0) != float(1 / std::log(2.0 * settings.train_max + 3)));  // trained away from 1 / ln(learned_len)
  std::remove(path.c_str());
}

TEST_CASE("seeds' accuracy: mean, min and max over the runs evaluated without diverging", "[train][run_io]") {
  const auto snapshot = [](int diverged_at, std::vector<LengthAccuracy> accuracy) {
    TrainSnapshot s;
    s.evaluated = true;
    s.diverged_at = diverged_at;
    s.accuracy = std::move(accuracy);
    return s;
  };
  // Two seeds, one undefined at n = 10 (a learned table past its rows), and a diverged one whose accuracy (left as
  // it was) must not count: the chart leaves it out, and so does the CSV.
  const std::vector<TrainSnapshot> seeds = {snapshot(0, {{5, 1.0}, {10, 0.5}}), snapshot(0, {{5, 0.5}, {10, std::nullopt}}),
                                            snapshot(7, {{5, 0.0}, {10, 0.0}})};
  const SeedsAccuracy acc = seeds_accuracy({5, 10, 15}, {&seeds[0], &seeds[1], &seeds[2]});
  CHECK(acc.evaluated == 2);
  CHECK(acc.mean[0] == 0.75);
  CHECK(acc.lo[0] == 0.5);
  CHECK(acc.hi[0] == 1.0);
  CHECK(acc.runs == std::vector<int>{2, 1, 0});
  CHECK(acc.mean[1] == 0.5);
  CHECK(std::isnan(acc.mean[2]));  // no run tested n = 15
  CHECK(seeds_accuracy_csv(seeds) == "n,mean,min,max,runs\n5,0.75,0.5,1,2\n10,0.5,0.5,0.5,1\n");
}
