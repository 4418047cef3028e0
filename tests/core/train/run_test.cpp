// Determinism whatever the thread count, cancelling, validation messages.
#include "core/train/run.hpp"

#include <thread>

#include <catch2/catch.hpp>
#include "tiny_run.hpp"

#include "tests/core/param_error.hpp"

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

TEST_CASE("EMA: the run keeps the average of its weights, evaluates it, and trains as without it", "[train][run]") {
  TrainSettings s = quick_run(PositionEncoding::rope, 4);
  s.steps = 6;
  TrainRun plain(s), initial(s);
  s.ema_decay = 0.5;
  TrainRun averaged(s);
  // The average of step k over the weights w_0 (initial) .. w_k: 0.5^k w_0 + sum_j 0.5^(k-j+1) w_j, kept in double.
  const std::vector<float> w0 = initial.parameters();
  std::vector<double> expected(w0.begin(), w0.end());
  for (int k = 0; k < s.steps; ++k) {
    plain.step();
    averaged.step();
    const std::vector<float> w = plain.parameters();
    for (std::size_t i = 0; i < w.size(); ++i) expected[i] = 0.5 * expected[i] + 0.5 * double(w[i]);
  }
  CHECK(same_bits(plain.snapshot().loss, averaged.snapshot().loss));  // the average never feeds back into training
  const std::vector<float> ema = averaged.parameters();
  double worst = 0;
  for (std::size_t i = 0; i < ema.size(); ++i) worst = std::max(worst, std::abs(double(ema[i]) - expected[i]));
  CHECK(worst < 1e-6);
  CHECK_FALSE(same_bits(ema, plain.parameters()));
  plain.finish(false);
  averaged.finish(false);
  CHECK(same_bits(averaged.parameters(), ema));  // the average is what is evaluated and saved
  CHECK(averaged.snapshot().evaluated);
  CHECK(averaged.snapshot().accuracy.size() == plain.snapshot().accuracy.size());
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
  s.ema_decay = 0.99999;
  CHECK(param_error_of([&] { validate(s); }) == "ema: must be a finite number in [0, 0.9999], got 0.99999");
  s = TrainSettings{};
  s.dropout = 1;
  CHECK(param_error_of([&] { validate_shape(s); }) == "dropout: must be below 1, got 1");
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

TEST_CASE("sampled ids: the range must hold the longest sequence, and coupling refuses sort", "[train][run]") {
  TrainSettings s;
  s.pe = PositionEncoding::rand_rope;
  s.position_range = 82;  // test n = 40: 83 tokens
  CHECK(param_error_of([&] { validate(s); }) ==
        "position-range: must be at least the longest sequence, 2 x max(train-max, test-max) + 3 = 83, got 82");
  s.position_range = 83;
  CHECK(param_error_of([&] { validate(s); }).empty());
  s.pe = PositionEncoding::rope;  // contiguous ids: the range is not used
  s.position_range = 2;
  CHECK(param_error_of([&] { validate(s); }).empty());
  // Coupled ids repeat: the range need only hold the longest sequence's ids, n + 2 values (n + 3 on add).
  s = TrainSettings{};
  s.pe = PositionEncoding::coupled_rope;
  s.position_range = 41;  // test n = 40: ids 0..41
  CHECK(param_error_of([&] { validate(s); }) ==
        "position-range: must hold the coupled ids of the longest sequence, max(train-max, test-max) + 2 = 42, got 41");
  s.position_range = 42;
  CHECK(param_error_of([&] { validate(s); }).empty());
  CHECK(minimum_position_range(s) == 42);
  s.task = Task::add;
  CHECK(minimum_position_range(s) == 43);
  s.pe = PositionEncoding::rand_rope;
  CHECK(minimum_position_range(s) == 125);  // 3 x 40 + 5 tokens
  s = TrainSettings{};
  s.pe = PositionEncoding::coupled;
  s.task = Task::sort;
  CHECK(param_error_of([&] { validate(s); }).rfind("pe: coupled cannot train on sort: position coupling needs", 0) == 0);
  CHECK(param_error_of([&] { validate_shape(s); }).rfind("pe: coupled cannot train on sort", 0) == 0);
}

TEST_CASE("a fix's run trains, is reproducible, and tests on the ids of its test set", "[train][run]") {
  for (PositionEncoding pe : fix_encodings()) {
    INFO(to_string(pe));
    TrainSettings s = tiny_run(pe, 3, 10);
    s.position_range = 40;
    TrainRun a(s), b(s);
    a.train(std::atomic<bool>{false});
    b.train(std::atomic<bool>{false});
    CHECK(same_bits(a.parameters(), b.parameters()));
    CHECK(a.snapshot().accuracy.size() == 2u);
    CHECK(a.snapshot().accuracy[1].exact_match.has_value());  // n = 8 past train-max 4: defined, the table has 40 rows
    const std::vector<int> ids = a.test_position_ids(8, 2);
    CHECK(ids == test_positions(sampler_of(pe), s.task, 8, 3, 40, 3)[2]);
    CHECK(ids.size() == 19u);
    CHECK(a.greedy_answer(8, 2).size() == 9u);
    CHECK(a.attention_maps(8, 2).has_value());
    if (mechanism_of(pe) == PositionMechanism::trainable_table) CHECK(a.learned_table().rows == 40u);
  }
  // The sampled ids change what the model sees: rand-rope and rope from one seed part ways.
  TrainSettings r = tiny_run(PositionEncoding::rope, 3, 10), rr = tiny_run(PositionEncoding::rand_rope, 3, 10);
  rr.position_range = 40;
  TrainRun rope(r), rand_rope(rr);
  rope.train(std::atomic<bool>{false});
  rand_rope.train(std::atomic<bool>{false});
  CHECK(rope.snapshot().loss.front() != rand_rope.snapshot().loss.front());
}

TEST_CASE("a coupled table as short as its ids' span is defined at every test length", "[train][run]") {
  TrainSettings s = tiny_run(PositionEncoding::coupled, 1, 4);
  s.task = Task::add;
  s.position_range = 11;  // test n = 8: ids 0..10, 29 tokens
  TrainRun run(s);
  run.train(std::atomic<bool>{false});
  for (const LengthAccuracy& a : run.snapshot().accuracy) CHECK(a.exact_match.has_value());
  CHECK(run.attention_maps(8, 0).has_value());
  ModelConfig c = model_config(s);
  CHECK(length_defined(c, Task::add, 8));
  c.position_range = 10;
  CHECK_FALSE(length_defined(c, Task::add, 8));
}

TEST_CASE("a layer schedule: refused for an encoding acting at the embeddings, dropped from its run in an experiment",
          "[train][run]") {
  TrainSettings s;
  s.nope_every = 4;
  s.pe = PositionEncoding::learned;
  CHECK(param_error_of([&] { validate(s); }).rfind("nope-every: needs an encoding that acts in attention", 0) == 0);
  s.pe = PositionEncoding::rope;
  CHECK_NOTHROW(validate(s));
  s.nope_every = 1;  // every layer without positions: NoPE, not a schedule
  CHECK(param_error_of([&] { validate(s); }) == "nope-every: must be 0 (off), or from 2 up to the layers (4), got 1");
  s.nope_every = 4;
  for (PositionEncoding pe : kAllPositionEncodings) {
    INFO(to_string(pe));
    const TrainSettings run = run_settings(s, pe);
    CHECK(run.pe == pe);
    CHECK(run.nope_every == (takes_layer_schedule(pe) ? 4 : 0));
    CHECK_NOTHROW(validate(run));
  }
  CHECK(takes_layer_schedule(PositionEncoding::rand_rope));
  CHECK_FALSE(takes_layer_schedule(PositionEncoding::nope));
  CHECK_FALSE(takes_layer_schedule(PositionEncoding::sinusoidal));
}

TEST_CASE("DroPE: the last steps without positions, on a schedule of their own, refused where it means nothing",
          "[train][run]") {
  TrainSettings s;
  s.pe = PositionEncoding::rope;
  s.steps = 100;
  s.warmup = 20;
  s.drope_steps = 30;
  CHECK_NOTHROW(validate(s));
  // Steps 0..69 with positions, 70..99 without: dropped once step 71 has run.
  CHECK_FALSE(positions_dropped(s, 70));
  CHECK(positions_dropped(s, 71));
  CHECK(positions_dropped(s, 100));
  CHECK(model_config(s).positions_dropped);  // the trained model
  // Two schedules: warm-up 20 over the first 70 steps, then warm-up min(20, 30 / 10) = 3 over the last 30.
  CHECK(run_learning_rate(s, 0) == learning_rate(0, 70, s.lr, 20));
  CHECK(run_learning_rate(s, 69) == learning_rate(69, 70, s.lr, 20));
  CHECK(run_learning_rate(s, 69) == 0.0);
  CHECK(run_learning_rate(s, 70) == Approx(s.lr / 3));
  CHECK(run_learning_rate(s, 72) == Approx(s.lr));
  CHECK(run_learning_rate(s, 99) == 0.0);
  s.drope_steps = 0;
  CHECK_FALSE(positions_dropped(s, 100));
  for (int k : {0, 50, 99}) CHECK(run_learning_rate(s, k) == learning_rate(k, 100, s.lr, 20));
  s.drope_steps = 100;
  CHECK(param_error_of([&] { validate(s); }) ==
        "drope-steps: must be fewer than the steps (100), so that training starts with positions, got 100");
  s.drope_steps = 10;
  s.pe = PositionEncoding::learned;
  CHECK(param_error_of([&] { validate(s); }).rfind("drope-steps: needs an encoding that acts in attention", 0) == 0);
  CHECK(run_settings(s, PositionEncoding::learned).drope_steps == 0);
  CHECK(run_settings(s, PositionEncoding::alibi).drope_steps == 10);
}

TEST_CASE("DroPE in a run: positions until the last steps, and a reopened run keeps the model it had", "[train][run]") {
  TrainSettings s;
  s.pe = PositionEncoding::rope;
  s.layers = 1;
  s.d_model = 16;
  s.heads = 2;
  s.batch = 2;
  s.train_max = 4;
  s.test_max = 8;
  s.test_samples = 4;
  s.steps = 4;
  s.warmup = 1;
  s.drope_steps = 2;
  TrainSettings plain = s;  // the same weights read with positions
  plain.drope_steps = 0;
  // Head 0's map of layer 0 for test sequence 0 of n = 6.
  auto head0 = [](const TrainRun& r) { return r.attention_maps(6, 0).value()[0][0].data; };
  TrainRun run(s);
  for (int k = 0; k < 2; ++k) run.step();
  // Two steps in, before the drop: a run reopened there rotates, as the plain model with its weights.
  const TrainRun early(s, run.parameters(), run.snapshot());
  CHECK(head0(early) == head0(TrainRun(plain, run.parameters(), run.snapshot())));
  for (int k = 0; k < 2; ++k) run.step();
  // All four done: the model has dropped its positions, reopened or not, and differs from the plain one.
  const TrainRun late(s, run.parameters(), run.snapshot());
  CHECK(head0(late) == head0(run));
  CHECK(head0(late) != head0(TrainRun(plain, run.parameters(), run.snapshot())));
}
