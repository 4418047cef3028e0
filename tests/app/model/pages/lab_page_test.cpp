// The Lab page's model: background runs equal direct core runs, Stop and teardown, state JSON, the trained
// table on Basics, and saved runs that load again.
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "app/model/app_update.hpp"
#include "app/model/data_files.hpp"
#include "app/model/figure_io.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presets.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"
#include "core/train/experiment.hpp"
#include "core/train/run_io.hpp"
#include "core/train/run_queue.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;
using train::PositionEncoding;

namespace {

// A model small enough to train in a fraction of a second: rope and learned, 1 layer, d_model 16.
void tiny(LabOptions& o, int steps) {
  o.compare.fill(false);
  o.compare[3] = true;  // rope
  o.compare[2] = true;  // learned
  o.settings.layers = 1;
  o.settings.heads = 2;
  o.settings.d_model = 16;
  o.settings.batch = 4;
  o.settings.steps = steps;
  o.settings.train_max = 5;
  o.settings.test_max = 10;
  o.settings.seed = 7;
}

// Runs update steps (as the frame loop does) until every run has ended and been read.
void wait_for_runs(AppState& s) {
  for (int i = 0; i < 60000 && lab_training(s.pages.lab); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    update_app_state(s);
  }
  update_app_state(s);  // reads the final snapshots
}

// Presses Train on the shown Lab page and waits for the runs.
void train_through_page(AppState& s) {
  s.pages.page = Page::lab;
  s.pages.lab.train_requested = true;
  s.pages.mark(Page::lab);
  update_app_state(s);
  wait_for_runs(s);
}

}  // namespace

TEST_CASE("a run started through the Lab page equals a direct core run: loss curve and accuracy per length") {
  AppState s;
  tiny(s.pages.lab, 30);
  train_through_page(s);
  const LabOptions& o = s.pages.lab;
  REQUIRE_FALSE(lab_training(o));
  REQUIRE(o.views.size() == 2);
  CHECK(o.lengths == std::vector<int>{5, 10});
  const std::vector<train::TrainSettings> settings = lab_settings(o);
  REQUIRE(settings.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const LabRunView& v = o.views[i];
    INFO(train::to_string(v.pe));
    CHECK(v.state == train::RunState::done);
    CHECK(v.pe == settings[i].pe);
    train::TrainRun direct(settings[i]);
    const std::atomic<bool> cancel{false};
    direct.train(cancel);
    const train::TrainSnapshot d = direct.snapshot();
    REQUIRE(v.snapshot.loss.size() == 30);
    CHECK(v.snapshot.loss == d.loss);  // bit-identical: a run is deterministic whatever runs beside it
    REQUIRE(v.snapshot.accuracy.size() == 2);
    for (std::size_t k = 0; k < 2; ++k) {
      CHECK(v.snapshot.accuracy[k].n == o.lengths[k]);
      CHECK(v.snapshot.accuracy[k].exact_match == d.accuracy[k].exact_match);
    }
    CHECK(v.log_loss.size() == 30);  // 30 steps: buckets of one step
    CHECK(v.log_loss[0] == Approx(std::log10(d.loss[0])));
  }
  // learned (2 x 5 + 3 = 13 rows): n = 5 (13 tokens) is defined, n = 10 (23 tokens) is not.
  CHECK(o.views[0].pe == PositionEncoding::learned);
  CHECK(o.views[0].snapshot.accuracy[0].exact_match.has_value());
  CHECK_FALSE(o.views[0].snapshot.accuracy[1].exact_match.has_value());
  CHECK(std::isnan(o.views[0].exact_match[1]));
  CHECK(o.views[1].snapshot.accuracy[1].exact_match.has_value());

  // Export: n, then every encoding of the table, nope .. coupled (NaN where not defined or not trained).
  const NdArray data = page_model(Page::lab).export_data(s);
  constexpr std::size_t W = 1 + kLabEncodings;
  REQUIRE(data.shape == std::vector<std::size_t>{2, W});
  CHECK(data.f32[0] == 5.0f);
  CHECK(data.f32[W] == 10.0f);
  CHECK(std::isnan(data.f32[1]));                          // nope: not trained
  CHECK(data.f32[3] == float(*o.views[0].snapshot.accuracy[0].exact_match));  // learned at 5
  CHECK(std::isnan(data.f32[W + 3]));                      // learned at 10: not defined
  CHECK(data.f32[W + 4] == float(*o.views[1].snapshot.accuracy[1].exact_match));  // rope at 10
}

TEST_CASE("before any run the Lab exports its test lengths with no accuracy") {
  AppState s;
  s.pages.lab.settings.test_max = 22;
  const NdArray data = page_model(Page::lab).export_data(s);
  constexpr std::size_t W = 1 + kLabEncodings;
  REQUIRE(data.shape == std::vector<std::size_t>{5, W});
  CHECK(data.f32[0] == 5.0f);
  CHECK(data.f32[4 * W] == 22.0f);  // 5, 10, 15, 20, then test_max itself
  for (std::size_t r = 0; r < 5; ++r)
    for (std::size_t c = 1; c < W; ++c) CHECK(std::isnan(data.f32[r * W + c]));
}

TEST_CASE("the Lab's attention maps: one tile per layer and head, causal, not defined past a learned table") {
  AppState s;
  tiny(s.pages.lab, 5);
  LabOptions& o = s.pages.lab;
  o.attention_pe = 3;  // rope
  o.attention_length = 10;  // past train_max 5
  train_through_page(s);
  REQUIRE(o.attention.defined);
  CHECK(o.attention.tokens == 23);
  CHECK(o.attention.layers == 1);
  CHECK(o.attention.heads == 2);
  CHECK(o.attention.maps.rows == 23);
  CHECK(o.attention.maps.cols == 2 * 23 + 1);  // two tiles and a gutter
  double row_sum = 0.0;
  for (int j = 0; j < 23; ++j) row_sum += o.attention.maps.at(22, std::size_t(24 + j));  // head 2, last query
  CHECK(row_sum == Approx(1.0).epsilon(1e-5));  // a float softmax row of 23 keys: within gamma_24 = 1.4e-6 of 1
  CHECK(o.attention.maps.at(0, 1) == 0.0f);  // key after the query: masked
  CHECK(o.attention.maps.at(0, 0) == 1.0f);  // the first query sees only itself
  CHECK(std::isnan(o.attention.maps.at(0, 23)));  // the gutter between the tiles
  // RoPE reads ids 0..22; training (n <= 5: 13 tokens) showed ids and distances up to 12.
  CHECK(o.attention.position_ids == train::contiguous_positions(23));
  CHECK(o.attention.coverage.max_id == 12);
  CHECK(o.attention.coverage.max_distance == 12);
  CHECK(o.attention.widest == 22);
  o.attention_pe = 2;  // learned: 23 tokens > 13 rows
  s.pages.mark(Page::lab);
  update_app_state(s);
  CHECK_FALSE(o.attention.defined);
  CHECK(o.attention.note.find("not defined") == 0);
  o.attention_length = 5;
  s.pages.mark(Page::lab);
  update_app_state(s);
  CHECK(o.attention.defined);
  CHECK(o.attention.tokens == 13);
}

TEST_CASE("Stop ends the runs early and evaluates them; closing the window while training joins at once") {
  AppState s;
  tiny(s.pages.lab, 100000);
  s.pages.page = Page::lab;
  LabOptions& o = s.pages.lab;
  o.train_requested = true;
  s.pages.mark(Page::lab);
  update_app_state(s);
  REQUIRE(lab_training(o));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  o.stop_requested = true;
  s.pages.mark(Page::lab);
  update_app_state(s);
  wait_for_runs(s);
  REQUIRE(o.views.size() == 2);
  for (const LabRunView& v : o.views) {
    CHECK(v.state == train::RunState::done);
    CHECK(v.snapshot.step < 100000);
    CHECK(v.snapshot.evaluated);
  }
  const auto start = std::chrono::steady_clock::now();
  {
    auto leaving = std::make_unique<AppState>();
    tiny(leaving->pages.lab, 100000);
    leaving->pages.page = Page::lab;
    leaving->pages.lab.train_requested = true;
    leaving->pages.mark(Page::lab);
    update_app_state(*leaving);
    REQUIRE(lab_training(leaving->pages.lab));
  }  // the destructor cancels (without evaluating) and joins
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("Train refuses settings core refuses, naming the parameter; the status line shows it") {
  AppState s;
  s.pages.page = Page::lab;
  LabOptions& o = s.pages.lab;
  o.compare.fill(false);
  o.train_requested = true;
  s.pages.mark(Page::lab);
  update_app_state(s);
  CHECK_FALSE(o.runs);
  CHECK(s.status == "Not applied: pe: choose at least one encoding to train");
  o.compare[0] = true;
  o.settings.d_model = 20;
  o.settings.heads = 4;  // head dimension 5: odd
  CHECK_THROWS_WITH(lab_settings(o), Catch::StartsWith("heads: "));
}

TEST_CASE("the Lab's options round-trip through the state JSON; bad values are refused by name") {
  AppState a;
  LabOptions& o = a.pages.lab;
  o.settings.task = train::Task::sort;
  o.compare = {false, true, false, true, true, false};
  o.settings.layers = 3;
  o.settings.heads = 4;
  o.settings.d_model = 48;
  o.settings.batch = 8;
  o.settings.steps = 300;
  o.settings.train_max = 10;
  o.settings.test_max = 35;
  o.settings.seed = 12345678901ull;
  o.settings.rope_base = 500.0;
  o.attention_pe = 4;
  o.attention_length = 30;
  const nlohmann::json j = state_to_json(a);
  CHECK(j["lab"]["encodings"] == nlohmann::json({"sinusoidal", "rope", "alibi"}));
  CHECK(j["lab"]["attention_pe"] == "alibi");
  AppState b;
  apply_state_json(j, b);
  CHECK(state_to_json(b) == j);
  const LabOptions& r = b.pages.lab;
  CHECK(r.settings.task == train::Task::sort);
  CHECK(r.compare == o.compare);
  CHECK(r.settings.seed == 12345678901ull);
  CHECK(r.settings.test_max == 35);
  CHECK(r.attention_pe == 4);

  const char* bad[][2] = {
      {R"({"lab": {"task": "multiply"}})", "task: "},
      {R"({"lab": {"encodings": ["fourier"]}})", "encodings: "},
      {R"({"lab": {"encodings": "rope"}})", "encodings: "},
      {R"({"lab": {"layers": 9}})", "layers: "},
      {R"({"lab": {"heads": 3}})", "heads: "},  // d_model 64 / 3
      {R"({"lab": {"d_model": 8}})", "d_model: "},  // the state JSON's key
      {R"({"lab": {"train_max": 5, "test_max": 21}})", "test-max: "},
      {R"({"lab": {"steps": 0}})", "steps: "},
      {R"({"lab": {"rope_base": 1.0}})", "rope_base: "},
      {R"({"lab": {"attention_pe": "cope"}})", "attention_pe: "},
      {R"({"lab": {"batch": 256, "d_model": 256, "layers": 4, "train_max": 40, "test_max": 160}})", "batch: "},
  };
  for (const auto& [text, key] : bad) {
    INFO(text);
    AppState c;
    CHECK_THROWS_WITH(apply_state_json(nlohmann::json::parse(text), c), Catch::StartsWith(key));
    CHECK(c.pages.lab.settings.layers == int(limits::train_layers.fallback));
  }
}

TEST_CASE("a learned run's trained table reaches the Basics encoding, and a saved run loads again") {
  AppState s;
  tiny(s.pages.lab, 20);
  train_through_page(s);
  LabOptions& o = s.pages.lab;
  const train::TrainRun* learned = o.runs->run(0);
  REQUIRE(learned);
  REQUIRE(learned->settings().pe == PositionEncoding::learned);
  const Matrix table = learned->learned_table();
  REQUIRE(table.rows == 13);
  REQUIRE(table.cols == 16);

  o.use_table_requested = true;
  s.pages.mark(Page::lab);
  update_app_state(s);
  update_app_state(s);  // the Basics page recomputes its encoding from the new table
  CHECK(s.pages.page == Page::basics);
  CHECK(s.pages.basics.computed.encoding == Encoding::learned);
  REQUIRE(s.pages.basics.encoding.rows == 13);
  REQUIRE(s.pages.basics.encoding.cols == 16);
  CHECK(s.pages.basics.encoding.data == table.data);  // the trained weights themselves, not a random table

  const fs::path dir = fs::temp_directory_path() / ("peviz-lab-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::vector<std::string> paths = save_lab_runs(s, dir.string(), 1234);
  REQUIRE(paths.size() == 7);  // two runs x (weights, loss, accuracy), and one JSON
  for (const std::string& p : paths) CHECK(fs::exists(p));
  const std::string weights = (dir / "peviz-lab-copy-1234-learned.safetensors").string();
  const std::unique_ptr<train::TrainRun> back = train::load_run(weights);
  CHECK(back->settings().pe == PositionEncoding::learned);
  CHECK(back->snapshot().loss == learned->snapshot().loss);
  CHECK(back->parameters() == learned->parameters());
  AppState t;
  load_learned_table(t, weights, "wpe");  // the learned-table loader reads the trained table too
  CHECK(t.params.learned_table->data == table.data);
  std::ifstream loss(dir / "peviz-lab-copy-1234-learned-loss.csv");
  std::string header;
  std::getline(loss, header);
  CHECK(header == "step,loss");
  const nlohmann::json all = nlohmann::json::parse(std::ifstream(dir / "peviz-lab-copy-1234.json"));
  CHECK(all["format"] == train::kExperimentFormat);
  REQUIRE(all["runs"].size() == 2);
  CHECK(all["runs"][0]["pe"] == "learned");
  CHECK(all["runs"][0]["file"] == "peviz-lab-copy-1234-learned.safetensors");

  std::ofstream(dir / "a-file") << "x";
  CHECK_THROWS_AS(save_lab_runs(s, (dir / "a-file" / "sub").string(), 1), ParamError);
  fs::remove_all(dir);
  AppState fresh;
  CHECK_THROWS_WITH(save_lab_runs(fresh, dir.string(), 1), Catch::Contains("no finished lab run"));
}

TEST_CASE("moved sliders are brought back to settings core accepts") {
  LabOptions o;
  o.settings.heads = 3;
  o.settings.d_model = 64;
  o.settings.train_max = 20;
  o.settings.test_max = 100;
  keep_lab_inputs_valid(o);
  CHECK(o.settings.d_model == 66);  // nearest multiple of 2 x 3
  CHECK(o.settings.test_max == 80);
  CHECK(o.settings.batch == 32);
  o.settings.heads = 8;
  o.settings.d_model = 250;
  keep_lab_inputs_valid(o);
  CHECK(o.settings.d_model == 256);
  o.settings.layers = 4;  // a layer schedule past the layers, or of 1, goes to the nearest one core accepts
  o.settings.nope_every = 8;
  keep_lab_inputs_valid(o);
  CHECK(o.settings.nope_every == 4);
  o.settings.nope_every = 1;
  keep_lab_inputs_valid(o);
  CHECK(o.settings.nope_every == 2);
  o.settings.steps = 500;  // DroPE leaves the first step its positions
  o.settings.drope_steps = 800;
  keep_lab_inputs_valid(o);
  CHECK(o.settings.drope_steps == 499);
  o.settings.layers = 1;
  keep_lab_inputs_valid(o);
  CHECK(o.settings.nope_every == 0);
  CHECK_NOTHROW(lab_settings(o));
  o.settings.heads = 2;
  o.settings.d_model = 16;
  o.settings.layers = 4;
  o.settings.batch = 256;
  o.settings.train_max = 40;
  o.settings.test_max = 160;
  o.settings.d_model = 256;
  CHECK_THROWS_WITH(lab_settings(o), Catch::StartsWith("batch: the run would need"));
  keep_lab_inputs_valid(o);
  CHECK(o.settings.batch < 256);
  CHECK(o.settings.batch >= 64);  // halved only as far as needed: 64 fits, 128 does not
  CHECK_NOTHROW(lab_settings(o));
  o.settings.batch *= 2;
  CHECK_THROWS(lab_settings(o));
  // The page's update step does it after the sidebar marks the page, before the next frame draws the sliders.
  AppState s;
  s.pages.page = Page::lab;
  s.pages.mark(Page::lab);
  update_app_state(s);  // the shipped experiment, before anything ran
  s.pages.lab.settings.test_max = 100;
  s.pages.mark(Page::lab);
  update_app_state(s);
  CHECK(s.pages.lab.settings.test_max == 4 * s.pages.lab.settings.train_max);
}

TEST_CASE("every input the Lab changes is named, and so are the encodings a schedule skips") {
  LabOptions o;
  keep_lab_inputs_valid(o);
  CHECK(o.adjusted.empty());  // the defaults need nothing
  CHECK(o.schedule_note.empty());
  o.settings.steps = 500;
  o.settings.drope_steps = 800;
  o.settings.heads = 3;
  keep_lab_inputs_valid(o);
  CHECK(o.adjusted == std::vector<std::string>{"d_model 64 -> 66: a multiple of 2 x heads",
                                               "DroPE steps 800 -> 499: fewer than the steps"});
  // The classic six are ticked: DroPE reaches RoPE, ALiBi and T5, not the three that add positions to embeddings.
  CHECK(o.schedule_note == "DroPE steps not applied to nope, sinusoidal, learned (positions added to the embeddings): "
                           "trained as without it");
  keep_lab_inputs_valid(o);  // the next change clears them: nothing moved this time
  CHECK(o.adjusted.empty());
  o.compare.fill(false);
  o.compare[std::size_t(PositionEncoding::rope)] = true;
  o.settings.nope_every = 9;
  keep_lab_inputs_valid(o);
  CHECK(o.adjusted == std::vector<std::string>{"NoPE every 9 -> 4: within the layers"});
  CHECK(o.schedule_note.empty());  // RoPE alone: both reach every run
  o.settings.batch = 256;
  o.settings.train_max = 40;
  o.settings.test_max = 160;
  o.settings.d_model = 256;
  o.settings.heads = 2;
  keep_lab_inputs_valid(o);
  CHECK(o.adjusted == std::vector<std::string>{"batch 256 -> 64: halved until a run fits the memory budget"});
}

TEST_CASE("the fixes: the classic six at first, coupling greyed out on sort, the position range kept long enough") {
  LabOptions o;
  CHECK(lab_settings(o).size() == 6u);
  o.compare.fill(true);
  CHECK(lab_settings(o).size() == std::size_t(kLabEncodings));
  CHECK(lab_settings(o).back().pe == PositionEncoding::random_start);
  o.settings.task = train::Task::sort;
  CHECK_FALSE(encoding_fits_task(o, int(PositionEncoding::coupled)));
  CHECK(encoding_fits_task(o, int(PositionEncoding::rand_rope)));
  CHECK(lab_settings(o).size() == std::size_t(kLabEncodings) - 2);  // nothing trains coupling on sort
  o.settings.position_range = 40;
  o.settings.test_max = 60;
  CHECK_THROWS_WITH(lab_settings(o), Catch::StartsWith("position-range: "));
  keep_lab_inputs_valid(o);
  CHECK(o.settings.position_range == 123);  // 2 x 60 + 3
  AppState a, b;
  a.pages.lab = o;
  apply_state_json(state_to_json(a), b);
  CHECK(b.pages.lab.settings.position_range == 123);
  // Coupled ids alone need only their span: max(train max, test max) + 2.
  LabOptions c;
  c.compare.fill(false);
  c.compare[std::size_t(PositionEncoding::coupled)] = true;
  c.settings.position_range = 2;
  keep_lab_inputs_valid(c);
  CHECK(c.settings.position_range == 42);
  CHECK(lab_settings(c).size() == 1u);
}

TEST_CASE("seeds: one run per encoding and seed; each encoding's mean and min-max band over its seeds") {
  AppState s;
  tiny(s.pages.lab, 20);
  LabOptions& o = s.pages.lab;
  o.seeds = 3;
  train_through_page(s);
  REQUIRE(o.views.size() == 6);
  CHECK(o.views[1].pe == PositionEncoding::rope);
  CHECK(o.views[1].seed == 7);
  CHECK(o.views[5].seed == 9);
  REQUIRE(o.series.size() == 2);
  const LabSeries& rope = o.series[1];
  CHECK(rope.pe == PositionEncoding::rope);
  CHECK(rope.runs == 3);
  CHECK(rope.evaluated == 3);
  for (std::size_t k = 0; k < o.lengths.size(); ++k) {
    const float a = o.views[1].exact_match[k], b = o.views[3].exact_match[k], c = o.views[5].exact_match[k];
    CHECK(rope.mean[k] == Approx((a + b + c) / 3.0));
    CHECK(rope.lo[k] == std::min({a, b, c}));
    CHECK(rope.hi[k] == std::max({a, b, c}));
  }
  CHECK(rope.mean_log_loss[0] == Approx((o.views[1].log_loss[0] + o.views[3].log_loss[0] + o.views[5].log_loss[0]) / 3.0));
  CHECK(std::isnan(o.series[0].mean[1]));  // learned at n = 10: not defined for any seed
  CHECK(page_model(Page::lab).caption(s).find("seeds 7-9") != std::string::npos);
}

TEST_CASE("a saved experiment opens on the Lab page: settings, every run, accuracies, maps; nothing trains") {
  AppState s;
  tiny(s.pages.lab, 20);
  s.pages.lab.seeds = 2;
  s.pages.lab.attention_length = 4;  // inside the training range: Train moves it past it
  train_through_page(s);
  CHECK(s.pages.lab.attention_length == 10);
  const fs::path dir = fs::temp_directory_path() / ("peviz-lab-open-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::vector<std::string> paths = save_lab_runs(s, dir.string(), 99);
  const std::string manifest = paths.back();

  AppState t;
  t.open_request = manifest;
  handle_file_requests(t, 0.0, 0);
  update_app_state(t);
  const LabOptions& a = s.pages.lab;
  const LabOptions& b = t.pages.lab;
  CHECK(t.toast.text == "Opened the lab runs of " + manifest);
  CHECK(t.pages.page == Page::lab);
  CHECK_FALSE(lab_training(b));
  CHECK(b.opened_from == manifest);
  CHECK(b.settings.d_model == 16);
  CHECK(b.settings.seed == 7);
  CHECK(b.seeds == 2);
  CHECK(b.compare == a.compare);
  REQUIRE(b.views.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(b.views[i].pe == a.views[i].pe);
    CHECK(b.views[i].snapshot.loss == a.views[i].snapshot.loss);
    CHECK(b.views[i].exact_match.size() == a.views[i].exact_match.size());
    for (std::size_t k = 0; k < a.views[i].exact_match.size(); ++k)
      CHECK((b.views[i].exact_match[k] == a.views[i].exact_match[k] ||
             (std::isnan(b.views[i].exact_match[k]) && std::isnan(a.views[i].exact_match[k]))));
  }
  CHECK(b.attention_length == 10);  // the first tested length past train_max 5
  t.pages.lab.attention_length = 8;
  s.pages.lab.attention_length = 8;
  s.pages.mark(Page::lab);
  update_app_state(s);
  t.pages.mark(Page::lab);
  update_app_state(t);
  REQUIRE(b.attention.defined);
  REQUIRE(b.attention.maps.data.size() == a.attention.maps.data.size());  // NaN gutters: compared bit for bit
  CHECK(std::memcmp(b.attention.maps.data.data(), a.attention.maps.data.data(), 4 * a.attention.maps.data.size()) == 0);
  CHECK(b.attention.query_rows.data == a.attention.query_rows.data);

  // Unticking an encoding takes its opened runs off the charts at once (not at the next Train); ticking it back returns them.
  REQUIRE(b.series.size() == 2);
  const train::PositionEncoding first = b.series[0].pe;
  t.pages.lab.compare[std::size_t(lab_encoding_index(first))] = false;
  t.pages.mark(Page::lab);
  update_app_state(t);
  REQUIRE(b.series.size() == 1);
  CHECK(b.series[0].pe != first);
  t.pages.lab.compare[std::size_t(lab_encoding_index(first))] = true;
  t.pages.mark(Page::lab);
  update_app_state(t);
  CHECK(b.series.size() == 2);

  // A file that is not a run goes to the learned-table loader; a broken run gets one line.
  std::ofstream(dir / "broken.json") << R"({"format": "peviz-lab-experiment-1", "runs": [{"file": "gone.safetensors"}]})";
  t.open_request = (dir / "broken.json").string();
  handle_file_requests(t, 0.0, 0);
  CHECK(t.toast.is_error);
  CHECK(t.toast.text.find("gone.safetensors") != std::string::npos);
  CHECK(t.pages.lab.views.size() == 4);  // what was open stays
  fs::remove_all(dir);
}

TEST_CASE("an experiment of scattered seeds opens with its own seeds in the caption; Train then uses as many") {
  AppState s;
  tiny(s.pages.lab, 3);
  const std::vector<train::TrainSettings> settings = train::experiment_settings(s.pages.lab.settings, {PositionEncoding::rope}, {4, 9});
  train::RunQueue queue(settings, 1);
  queue.wait();
  const fs::path dir = fs::temp_directory_path() / ("peviz-lab-seeds-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::string> paths =
      train::save_experiment({queue.run(0), queue.run(1)}, (dir / "exp.safetensors").string());
  open_lab_experiment(s, paths.back());
  CHECK(s.pages.lab.settings.seed == 4);
  CHECK(s.pages.lab.seeds == 2);
  const std::string caption = page_model(Page::lab).caption(s);
  CHECK(caption.find("seeds 4, 9") != std::string::npos);
  s.pages.lab.settings.layers = 3;  // a moved slider does not rename the figure's runs
  CHECK(page_model(Page::lab).caption(s) == caption);
  fs::remove_all(dir);
}

TEST_CASE("an addition run opens with its task, its run in the attention panel and the answer's tokens named") {
  AppState s;
  tiny(s.pages.lab, 2);
  train::TrainSettings t = s.pages.lab.settings;
  t.task = train::Task::add;
  t.pe = PositionEncoding::coupled_rope;
  train::TrainRun run(t);
  run.train(std::atomic<bool>{false});
  const fs::path path = fs::temp_directory_path() / ("peviz-lab-add-" + std::to_string(::getpid()) + ".safetensors");
  train::save_run(run, path.string());
  CHECK(s.pages.lab.attention_pe == int(PositionEncoding::rope));
  open_lab_experiment(s, path.string());
  const LabOptions& o = s.pages.lab;
  CHECK(o.runs_task == train::Task::add);
  CHECK(o.attention_pe == int(PositionEncoding::coupled_rope));  // the file's run, not RoPE's empty slot
  update_app_state(s);
  s.pages.lab.runs->wait();
  update_app_state(s);
  REQUIRE(o.attention.defined);
  CHECK(o.attention.task == train::Task::add);
  CHECK(o.attention.answer_start == train::first_answer_target(train::Task::add, o.attention_length));
  CHECK(int(o.attention.answer.size()) == o.attention_length + 2);  // c0..cn and EOS
  CHECK(page_model(Page::lab).caption(s).find("add") != std::string::npos);
  fs::remove(path);
}

TEST_CASE("a run beyond peviz's limits opens view only: its settings as they are, no Train until New experiment") {
  AppState s;
  LabOptions& o = s.pages.lab;
  tiny(o, 2);
  train::TrainSettings t = o.settings;
  t.pe = PositionEncoding::rope;
  t.d_model = 272;  // over the 256 peviz trains: a run of the PyTorch twin
  const std::size_t count = train::param_layout(train::model_config(t)).total();
  const train::TrainRun big(t, std::vector<float>(count, 0.01f), train::TrainSnapshot{});
  const fs::path path = fs::temp_directory_path() / ("peviz-lab-big-" + std::to_string(::getpid()) + ".safetensors");
  train::save_run(big, path.string());
  open_lab_experiment(s, path.string());
  CHECK(o.settings.d_model == 272);
  CHECK(o.settings_beyond_limits == std::vector<std::string>{"d-model 272 > 256"});
  keep_lab_inputs_valid(o);  // what the sidebar calls each frame: nothing clamps the opened settings
  CHECK(o.settings.d_model == 272);
  o.train_requested = true;
  s.pages.mark(Page::lab);
  update_app_state(s);
  CHECK(s.status.rfind("Not applied: d-model", 0) == 0);
  CHECK(o.opened_from == path.string());  // the opened run stays
  o.new_experiment_requested = true;
  s.pages.mark(Page::lab);
  update_app_state(s);
  CHECK(o.settings_beyond_limits.empty());
  CHECK(o.settings.d_model == int(limits::train_d_model.fallback));
  CHECK(o.views.size() == 1);  // still shown until Train
  fs::remove(path);
}

TEST_CASE("the attention view marks the first wrong answer token and keeps its query's row per head") {
  AppState s;
  tiny(s.pages.lab, 3);  // barely trained: its answers are wrong
  LabOptions& o = s.pages.lab;
  o.attention_pe = 3;
  o.attention_length = 6;
  o.attention_sample = 2;
  train_through_page(s);
  REQUIRE(o.attention.defined);
  REQUIRE(o.attention.tokens_ids.size() == 15);
  CHECK(o.attention.tokens_ids[0] == train::kBos);
  CHECK(o.attention.tokens_ids[7] == train::kSep);
  const train::TrainRun* rope = o.runs->run(1);
  const std::vector<int> answer = rope->greedy_answer(6, 2);
  int expected = -1;
  for (int k = 0; k <= 6 && expected < 0; ++k)
    if (answer[std::size_t(k)] != o.attention.tokens_ids[std::size_t(8 + k)]) expected = 7 + k;
  REQUIRE(expected >= 0);
  CHECK(o.attention.wrong == expected);
  REQUIRE(o.attention.query_rows.rows == 2);  // one layer x two heads
  CHECK(o.attention.query_rows.at(1, 0) == o.attention.maps.at(std::size_t(expected), 15 + 1));  // head 2, key 0
  double sum = 0.0;
  for (int j = 0; j <= expected; ++j) sum += o.attention.query_rows.at(0, std::size_t(j));
  CHECK(sum == Approx(1.0).epsilon(1e-5));  // float softmax, at most 23 keys: within gamma_24 = 1.4e-6 of 1
}
