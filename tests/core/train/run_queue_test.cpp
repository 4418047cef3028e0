// The run queue: results equal to runs trained alone whatever the worker count, order, stop, reopened runs.
#include "core/train/run_queue.hpp"

#include <cstring>
#include <thread>

#include <catch2/catch.hpp>
#include "tiny_run.hpp"

#include "core/base/errors.hpp"
#include "core/train/experiment.hpp"

using namespace peviz::train;

namespace {

std::vector<TrainSettings> mixed() {
  return experiment_settings(tiny_run(PositionEncoding::rope, 0), {PositionEncoding::t5, PositionEncoding::alibi,
                                                                 PositionEncoding::learned}, {3, 4});
}

}  // namespace

TEST_CASE("one worker or three: every run ends with the bits of the same run trained alone", "[train][queue]") {
  const std::vector<TrainSettings> settings = mixed();
  RunQueue one(settings, 1), three(settings, 3);
  one.wait();
  three.wait();
  REQUIRE(one.ended());
  for (std::size_t i = 0; i < settings.size(); ++i) {
    INFO(i);
    REQUIRE(one.state(i) == RunState::done);
    REQUIRE(three.state(i) == RunState::done);
    CHECK(one.settings(i).pe == settings[i].pe);  // the queue keeps the order given
    CHECK(one.run(i)->settings().seed == settings[i].seed);
    TrainRun alone(settings[i]);
    alone.train(std::atomic<bool>{false});
    CHECK(same_bits(one.run(i)->snapshot().loss, alone.snapshot().loss));
    CHECK(same_bits(three.run(i)->parameters(), alone.parameters()));
    CHECK(three.run(i)->snapshot().accuracy.size() == alone.snapshot().accuracy.size());
    for (std::size_t k = 0; k < alone.snapshot().accuracy.size(); ++k)
      CHECK(three.run(i)->snapshot().accuracy[k].exact_match == alone.snapshot().accuracy[k].exact_match);
  }
}

TEST_CASE("stop: the running run stops and is evaluated, queued runs never start", "[train][queue]") {
  RunQueue q(experiment_settings(tiny_run(PositionEncoding::rope, 0, 100000), {PositionEncoding::rope}, {0, 1, 2}), 1);
  while (q.state(0) != RunState::running || q.run(0)->snapshot().step < 3) std::this_thread::yield();
  q.stop();
  q.wait();
  CHECK(q.stopping());
  CHECK(q.state(0) == RunState::done);
  const TrainSnapshot s = q.run(0)->snapshot();
  CHECK(s.cancelled);
  CHECK(s.evaluated);
  CHECK(s.step < 100000);
  CHECK(q.state(1) == RunState::queued);
  CHECK(q.run(1) == nullptr);
  CHECK(q.state(2) == RunState::queued);
}

TEST_CASE("the destructor abandons long runs at once, without evaluating", "[train][queue]") {
  const auto q = std::make_unique<RunQueue>(
      experiment_settings(tiny_run(PositionEncoding::t5, 0, 100000), {PositionEncoding::t5, PositionEncoding::rope}, {0}), 2);
  while (q->state(1) != RunState::running) std::this_thread::yield();
  CHECK_FALSE(q->ended());
}

TEST_CASE("invalid settings are refused before any thread starts", "[train][queue]") {
  TrainSettings bad = tiny_run(PositionEncoding::rope, 0);
  bad.heads = 3;
  CHECK_THROWS_AS(RunQueue({tiny_run(PositionEncoding::rope, 0), bad}, 2), peviz::ParamError);
}

TEST_CASE("a finished queue holds reopened runs as done, with no thread", "[train][queue]") {
  std::vector<std::unique_ptr<TrainRun>> runs;
  runs.push_back(std::make_unique<TrainRun>(tiny_run(PositionEncoding::alibi, 5)));
  runs[0]->train(std::atomic<bool>{false});
  const std::vector<float> loss = runs[0]->snapshot().loss;
  RunQueue q(std::move(runs));
  CHECK(q.ended());
  REQUIRE(q.size() == 1);
  CHECK(q.state(0) == RunState::done);
  CHECK(q.settings(0).seed == 5);
  CHECK(q.run(0)->snapshot().loss == loss);
}

TEST_CASE("a run whose loss is not finite stops there as diverged and reports no accuracy", "[train][queue]") {
  const TrainSettings s = tiny_run(PositionEncoding::rope, 1);
  TrainRun healthy(s);
  std::vector<float> weights = healthy.parameters();
  weights[weights.size() / 2] = std::numeric_limits<float>::quiet_NaN();  // one NaN weight poisons the loss
  TrainRun poisoned(s, weights, TrainSnapshot{});
  poisoned.train(std::atomic<bool>{false});
  const TrainSnapshot p = poisoned.snapshot();
  CHECK(p.diverged_at == 1);
  CHECK(p.step == 0);
  CHECK(p.loss.empty());
  CHECK_FALSE(p.evaluated);
  CHECK_FALSE(p.cancelled);
  CHECK_FALSE(poisoned.step());  // it stays stopped
  healthy.train(std::atomic<bool>{false});
  CHECK(healthy.snapshot().diverged_at == 0);
}
