// Determinism whatever the thread count, cancelling, validation messages.
#include "core/train/run.hpp"

#include <thread>

#include <catch2/catch.hpp>
#include "tiny_run.hpp"

#include "../param_error.hpp"

using namespace peviz::train;

TEST_CASE("same seed, same bits: alone, twice, and beside another run on a second thread", "[train][run]") {
  std::atomic<bool> no{false};
  TrainRun a(quick_run(PositionEncoding::t5, 9)), b(quick_run(PositionEncoding::t5, 9)), c(quick_run(PositionEncoding::t5, 9));
  TrainRun other(quick_run(PositionEncoding::rope, 1));
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
  TrainRun d(quick_run(PositionEncoding::t5, 10));
  d.train(no);
  CHECK_FALSE(same_bits(a.snapshot().loss, d.snapshot().loss));
}

TEST_CASE("cancel stops early and still evaluates", "[train][run]") {
  TrainRun run(quick_run(PositionEncoding::nope, 0));
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
