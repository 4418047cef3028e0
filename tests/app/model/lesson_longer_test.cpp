// The second shipped lesson, "Longer than training": each step opens its page and experiment, and says what its
// pictures show (every claim of its text, checked against the shipped experiments and core).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>

#include "app/model/app_update.hpp"
#include "app/model/lessons.hpp"
#include "core/base/limits.hpp"
#include "core/train/fire.hpp"
#include "core/train/positions.hpp"
#include "core/train/reproductions.hpp"
#include "tests/build_paths.hpp"

using namespace peviz;
using namespace peviz::app;
using train::PositionEncoding;

namespace {

const std::string kLesson = std::string(peviz::test::source_dir) + "/assets/lessons/longer-than-training.json";

// The state at lesson step `number` (1-based), as the window shows it.
AppState longer_lesson_at_step(int number) {
  AppState s;
  start_lesson(s, load_lesson_file(kLesson));
  go_to_step(s, number - 1);
  REQUIRE_FALSE(s.teach.notice_is_error);
  update_app_state(s);
  return s;
}

// The seed mean of encoding `pe` at test length n, from the chart's series.
float mean_at(const LabOptions& o, PositionEncoding pe, int n) {
  const auto length = std::find(o.lengths.begin(), o.lengths.end(), n);
  REQUIRE(length != o.lengths.end());
  for (const LabSeries& sr : o.series)
    if (sr.pe == pe) {
      const float m = sr.mean[std::size_t(length - o.lengths.begin())];
      return std::isnan(m) ? 0.0f : m;  // no rows there: no accuracy, left out of the chart; 0 for the claims
    }
  FAIL("no series of " << train::to_string(pe));
  return -1.0f;
}

// The heaviest attention any head of the row puts on an input symbol x_1..x_n (keys 1..n), and its key.
std::pair<float, int> heaviest_input_key(const Matrix& rows, int n) {
  std::pair<float, int> best{-1.0f, -1};
  for (std::size_t r = 0; r < rows.rows; ++r)
    for (std::size_t k = 1; k <= std::size_t(n) && k < rows.cols; ++k) best = std::max(best, {rows.at(r, k), int(k)});
  return best;
}

}  // namespace

TEST_CASE("the second lesson: twelve steps, all but the tenth on the Lab page on a shipped experiment, nothing trains") {
  const Lesson l = load_lesson_file(kLesson);
  REQUIRE(l.steps.size() == 12);
  for (int k = 1; k <= 12; ++k) {
    INFO("step " << k);
    AppState s = longer_lesson_at_step(k);
    if (k == 10) {
      CHECK(s.pages.page == Page::attention_scale);
      continue;
    }
    CHECK(s.pages.page == Page::lab);
    CHECK_FALSE(s.pages.lab.opened_shipped.empty());
    CHECK_FALSE(lab_training(s.pages.lab));
  }
}

TEST_CASE("step 1: all six fit n <= 20; at 25 RoPE, sinusoidal and learned copy none, NoPE, ALiBi and T5 some; at 35 none") {
  AppState s = longer_lesson_at_step(1);
  const LabOptions& o = s.pages.lab;
  CHECK(o.show == LabShow::charts);
  REQUIRE(o.series.size() == 6);
  CHECK(o.runs_train_max == 20);
  CHECK(o.settings.layers == 4);
  CHECK(o.settings.d_model == 64);
  for (const LabSeries& sr : o.series) {
    INFO(train::to_string(sr.pe));
    CHECK(sr.evaluated == 3);
    CHECK(mean_at(o, sr.pe, 20) >= 0.99f);  // "almost every string"
    CHECK(mean_at(o, sr.pe, 35) <= 0.01f);  // "not more than one string in a hundred"
  }
  for (PositionEncoding pe : {PositionEncoding::rope, PositionEncoding::sinusoidal, PositionEncoding::learned})
    CHECK(mean_at(o, pe, 25) == 0.0f);
  for (PositionEncoding pe : {PositionEncoding::nope, PositionEncoding::alibi, PositionEncoding::t5})
    CHECK(mean_at(o, pe, 25) > 0.3f);
}

TEST_CASE("step 2: RoPE and sinusoidal at n = 25 read 53 tokens, ids 0..52, past training's 0..42; both go wrong") {
  AppState s = longer_lesson_at_step(2);
  const LabOptions& o = s.pages.lab;
  CHECK(o.show == LabShow::attention);
  REQUIRE(o.beside_pe >= 0);
  CHECK(train::kAllPositionEncodings[std::size_t(o.beside_pe)] == PositionEncoding::sinusoidal);
  REQUIRE(o.beside.defined);
  CHECK(o.beside.wrong >= 0);
  CHECK(o.beside.position_ids == o.attention.position_ids);
  const LabAttention& a = o.attention;
  REQUIRE(a.defined);
  CHECK(a.tokens == 53);
  CHECK(a.position_ids.front() == 0);
  CHECK(a.position_ids.back() == 52);
  CHECK(a.coverage.max_id == 42);  // the longest training string: 2 x 20 + 3 tokens
  CHECK(a.coverage.max_distance == 42);
  CHECK(a.widest == 52);
  REQUIRE(a.id_runs.size() == 2);  // drawn as "0-42" and, orange, "43-52"
  CHECK((a.id_runs[0].first == 0 && a.id_runs[0].last == 42 && a.id_runs[0].seen));
  CHECK((a.id_runs[1].first == 43 && a.id_runs[1].last == 52 && !a.id_runs[1].seen));
  CHECK(a.wrong > 25 + 1);  // a wrong answer token
  CHECK(a.query == std::min(a.wrong, o.beside.wrong));  // the query of the earlier mistake, for both
  CHECK(o.beside.query == a.query);
  // The picture: RoPE's 16 rows, a grey (NaN) gutter, sinusoidal's 16, over keys 0..query.
  REQUIRE(o.pair_rows.rows == 2u * 16 + 1);
  CHECK(o.pair_rows.cols == std::size_t(a.query + 1));
  for (std::size_t k = 0; k < o.pair_rows.cols; ++k) {
    CHECK(std::isnan(o.pair_rows.at(16, k)));
    CHECK(o.pair_rows.at(0, k) == a.query_rows.at(0, k));
    CHECK(o.pair_rows.at(17, k) == o.beside.query_rows.at(0, k));
  }
}

TEST_CASE("step 3: the learned table has 43 rows, a string of 25 symbols needs 53: not defined, counted 0") {
  AppState s = longer_lesson_at_step(3);
  const LabOptions& o = s.pages.lab;
  CHECK_FALSE(o.attention.defined);
  CHECK(o.attention.note.find("53 tokens") != std::string::npos);
  CHECK(o.attention.note.find("43 rows") != std::string::npos);
  const train::TrainRun* learned = o.runs->run(2);  // seed 0: nope, sinusoidal, learned, ...
  REQUIRE(learned->settings().pe == PositionEncoding::learned);
  CHECK(learned->learned_table().rows == 43);
  CHECK(mean_at(o, PositionEncoding::learned, 25) == 0.0f);
}

TEST_CASE("step 4: coupled-rope copies the string of 35 exactly, x_k and y_k share ids up to 127, and looks at the digit to copy") {
  AppState s = longer_lesson_at_step(4);
  const LabOptions& o = s.pages.lab;
  const LabAttention &rope = o.attention, &coupled = o.beside;
  REQUIRE(rope.defined);
  REQUIRE(coupled.defined);
  const int n = 35;
  CHECK(rope.tokens_ids == coupled.tokens_ids);
  CHECK(coupled.coverage.max_id == 127);  // random offsets: every id of [0, 128) seen in training
  for (int k = 1; k <= n; ++k) CHECK(coupled.position_ids[std::size_t(k)] == coupled.position_ids[std::size_t(n + 1 + k)]);
  REQUIRE(rope.wrong >= 0);
  CHECK(coupled.wrong == -1);
  CHECK(coupled.query == rope.wrong);  // both rows: the query where RoPE first goes wrong
  // That query predicts y_(k+1), a copy of x_(k+1) at key k + 1: coupled-rope's strongest attention among the
  // inputs is there, RoPE's on x_k, the digit it then writes.
  const int k = rope.wrong - n - 1, source = k + 1;
  CHECK(heaviest_input_key(coupled.query_rows, n).second == source);
  CHECK(heaviest_input_key(rope.query_rows, n).second == source - 1);
  CHECK(rope.answer[std::size_t(k)] == rope.tokens_ids[std::size_t(source - 1)]);
}

TEST_CASE("step 5: coupled-rope copies more than 9 in 10 up to n = 35, less than half at 40; FIRE 9 in 10 at 25, fading") {
  AppState s = longer_lesson_at_step(5);
  const LabOptions& o = s.pages.lab;
  CHECK(o.show == LabShow::charts);
  REQUIRE(o.series.size() == 4);  // RoPE and three fixes (rand-rope: step 7)
  for (int n : {25, 30, 35}) CHECK(mean_at(o, PositionEncoding::coupled_rope, n) > 0.9f);
  CHECK(mean_at(o, PositionEncoding::coupled_rope, 40) < 0.5f);
  CHECK(mean_at(o, PositionEncoding::fire, 25) > 0.9f);
  CHECK(mean_at(o, PositionEncoding::fire, 30) < mean_at(o, PositionEncoding::fire, 25));
  CHECK(mean_at(o, PositionEncoding::fire, 40) < mean_at(o, PositionEncoding::fire, 30));
  for (int n : {25, 30, 35, 40}) CHECK(mean_at(o, PositionEncoding::rope, n) == 0.0f);
}

TEST_CASE("step 6: FIRE's interpolated distance stays in [0, 1] for every query; FIRE copies the string of 30, RoPE does not") {
  AppState s = longer_lesson_at_step(6);
  const LabOptions& o = s.pages.lab;
  REQUIRE(o.attention.defined);
  REQUIRE(o.beside.defined);
  CHECK(o.attention.wrong == -1);  // left, FIRE: exact
  CHECK(o.beside.wrong >= 0);      // right, RoPE
  for (double c : {0.1, 1.0, 10.0})
    for (int query : {5, 42, 62, 200})
      for (int key = 0; key <= query; ++key) {
        const double u = train::fire_interpolated_distance(c, 42.0, query, key);
        CHECK(u >= 0.0);
        CHECK(u <= 1.0);
      }
}

TEST_CASE("step 7: rand-rope, three seeds, copies about 3 in 4 at n = 25 where RoPE copies none, hardly any at 30, none at 35") {
  AppState s = longer_lesson_at_step(7);
  const LabOptions& o = s.pages.lab;
  CHECK(o.show == LabShow::charts);
  const auto rand = std::find_if(o.series.begin(), o.series.end(), [](const LabSeries& sr) {
    return sr.pe == PositionEncoding::rand_rope;
  });
  REQUIRE(rand != o.series.end());
  CHECK(rand->evaluated == 3);  // the claim holds on every seed: the band's low end (min over seeds) too
  const std::size_t at25 = std::size_t(std::find(o.lengths.begin(), o.lengths.end(), 25) - o.lengths.begin());
  REQUIRE(at25 + 2 < o.lengths.size());
  CHECK(mean_at(o, PositionEncoding::rand_rope, 25) > 0.7f);
  CHECK(mean_at(o, PositionEncoding::rand_rope, 25) < 0.85f);  // "about 3 in 4"
  CHECK(rand->lo[at25] > 0.7f);
  CHECK(mean_at(o, PositionEncoding::rope, 25) == 0.0f);
  CHECK(rand->hi[at25 + 1] < 0.1f);  // n = 30: hardly any, on every seed
  CHECK(mean_at(o, PositionEncoding::rand_rope, 35) == 0.0f);
  // "at most 43 in training": BOS, 20 symbols, SEP, their copy, EOS; ids from 128.
  CHECK(2 * o.settings.train_max + 3 == 43);
  CHECK(o.settings.position_range == 128);
}

TEST_CASE("step 7: randomized ids are drawn from [0, 128) without repeats and sorted: every id and distance up to 127 seen") {
  AppState s = longer_lesson_at_step(7);
  CHECK(s.pages.lab.settings.position_range == 128);
  const train::PositionCoverage random = train::training_coverage(train::PositionSampler::randomized, train::Task::copy, 20, 128);
  CHECK(random.max_id == 127);
  CHECK(random.max_distance == 127);
  std::mt19937_64 rng(7);
  for (int length : {3, 43, 128}) {
    const std::vector<int> ids = train::randomized_positions(length, 128, rng);
    REQUIRE(int(ids.size()) == length);
    CHECK(std::is_sorted(ids.begin(), ids.end()));
    CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());  // sorted and no two alike: no repeats
    CHECK(ids.front() >= 0);
    CHECK(ids.back() < 128);
  }
}

TEST_CASE("step 8: coupling over a learned table of 42 rows, 2 layers, 6000 steps: each seed >= 0.99 at n = 35") {
  AppState s = longer_lesson_at_step(8);
  const LabOptions& o = s.pages.lab;
  CHECK(o.opened_shipped == "coupled-copy");
  CHECK(o.show == LabShow::charts);
  CHECK(o.settings.layers == 2);
  CHECK(o.settings.position_range == 42);  // "just the ids a string of 40 needs": 0..41
  CHECK(o.settings.steps == 2 * int(limits::train_steps.fallback));  // "twice the default's steps"
  CHECK(train::coupled_span(train::Task::copy, 40) + 1 == 42);
  REQUIRE(o.series.size() == 1);
  const LabSeries& coupled = o.series.front();
  CHECK(coupled.pe == PositionEncoding::coupled);
  CHECK(coupled.evaluated == 3);
  const std::size_t at35 = std::size_t(std::find(o.lengths.begin(), o.lengths.end(), 35) - o.lengths.begin());
  REQUIRE(at35 < o.lengths.size());
  CHECK(coupled.lo[at35] >= 0.99f);  // every seed: 99 in 100 or more at n = 35
  for (std::size_t k = 0; k < at35; ++k) CHECK(coupled.lo[k] >= 0.89f);  // "at least 89 in 100 at every shorter length"
  CHECK(2 * 20 > 35);  // "almost twice the training length"
}

TEST_CASE("step 9: addition, one layer, up to 10 digits: NoPE, RoPE, ALiBi add nothing; coupled-rope to 10 on all, 20 on two") {
  AppState s = longer_lesson_at_step(9);
  const LabOptions& o = s.pages.lab;
  CHECK(o.opened_shipped == "add-coupled");
  CHECK(o.runs_task == train::Task::add);
  CHECK(o.settings.layers == 1);
  CHECK(o.runs_train_max == 10);
  CHECK(o.settings.rope_base == 1e6);
  for (PositionEncoding pe : {PositionEncoding::nope, PositionEncoding::rope, PositionEncoding::alibi})
    CHECK(mean_at(o, pe, 5) == 0.0f);  // "not even numbers of 5 digits"
  const auto coupled = std::find_if(o.series.begin(), o.series.end(), [](const LabSeries& sr) {
    return sr.pe == PositionEncoding::coupled_rope;
  });
  REQUIRE(coupled != o.series.end());
  CHECK(coupled->evaluated == 3);
  const std::size_t at10 = std::size_t(std::find(o.lengths.begin(), o.lengths.end(), 10) - o.lengths.begin());
  REQUIRE(at10 + 2 < o.lengths.size());
  CHECK(coupled->lo[at10] == 1.0f);  // every test sum up to 10 digits, all three seeds
  int seeds_at_20 = 0;  // the seeds that add numbers of 20 digits exactly (each run's own curve)
  for (const LabRunView& v : o.views)
    if (v.pe == PositionEncoding::coupled_rope && v.exact_match.size() > at10 + 2 && v.exact_match[at10 + 2] >= 0.99f)
      ++seeds_at_20;
  CHECK(seeds_at_20 == 2);
  CHECK(o.attention.defined);
  CHECK(o.beside.defined);
  CHECK(o.attention_length == 20);
}

TEST_CASE("step 10: with D = 5 the plain softmax keeps nearly all of a needle at 10 keys and below 2e-4 at a million") {
  AppState s = longer_lesson_at_step(10);
  const AttentionScaleOptions& o = s.pages.attention_scale;
  CHECK(o.margin == 5);
  REQUIRE_FALSE(o.log10_keys.empty());
  CHECK(o.log10_keys.back() == 6.0f);
  CHECK(needle_weight(1, o.margin, 0, 10) > 0.9);  // "nearly all of it at 10 keys"
  CHECK(o.weight[0].back() < 2e-4f);              // none, at a million keys
  CHECK(o.weight[1].back() > 0.99f);              // SSMax "keeps the needle"
}

TEST_CASE("step 11: SSMax on addition, five seeds: all to 15 digits, four of five at 20, none above 0.3 at 30") {
  AppState s = longer_lesson_at_step(11);
  const LabOptions& o = s.pages.lab;
  CHECK(o.opened_shipped == "add-ssmax");
  CHECK(o.settings.length_scale == train::LengthScale::ssmax);
  CHECK(o.settings.layers == 1);
  CHECK(o.runs_train_max == 10);
  REQUIRE(o.views.size() == 5);
  const auto at = [&](int n) { return std::size_t(std::find(o.lengths.begin(), o.lengths.end(), n) - o.lengths.begin()); };
  REQUIRE(at(30) < o.lengths.size());
  int seeds_at_20 = 0;
  for (const LabRunView& v : o.views) {
    CHECK(v.exact_match[at(15)] == 1.0f);  // "every test sum up to 15 digits"
    CHECK(v.exact_match[at(30)] <= 0.3f);  // "no seed keeps more than 0.3"
    if (v.exact_match[at(20)] == 1.0f) ++seeds_at_20;
  }
  CHECK(seeds_at_20 == 4);
}

TEST_CASE("step 12: seven methods, ten seeds each; coupled RoPE at 2x on seven, with SSMax on nine, one seed at 3x; "
          "the tuned setting at 3x on nine, five without SSMax") {
  AppState s = longer_lesson_at_step(12);
  const LabOptions& o = s.pages.lab;
  CHECK(o.show == LabShow::reproductions);
  REQUIRE(o.reproductions.size() == 8);  // "seven methods", and "the row below SSMax's"
  const auto ssmax = std::find_if(o.reproductions.begin(), o.reproductions.end(),
                                  [](const train::ReproductionRow& r) { return r.method->ours.file == "add-ssmax"; });
  REQUIRE(ssmax + 1 < o.reproductions.end());
  CHECK((ssmax + 1)->method->ours.file == "add-tuned");
  int passing_none = 0, at_3x = 0;
  for (const train::ReproductionRow& r : o.reproductions) {
    INFO(r.method->method);
    CHECK(r.ours.seeds == 10);              // "ten seeds"
    const std::string_view pe = r.method->ours.pe, file = r.method->ours.file;
    if (file != "add-tuned") at_3x += r.ours.thrice.succeeded;
    if (pe == "coupled-rope" && file == "add-methods") {
      CHECK(r.ours.twice.succeeded == 7);   // "on seven of ten seeds"
      CHECK(r.baseline.twice.succeeded == 0);  // "NoPE adds none"
    } else if (file == "add-ssmax") {
      CHECK(r.ours.twice.succeeded == 9);   // "with SSMax on nine"
      CHECK(r.ours.thrice.succeeded == 1);  // "a single seed passes, one of SSMax's"
    } else if (file == "add-tuned") {
      CHECK(r.ours.thrice.succeeded == 9);      // "adds 30-digit numbers on nine of ten seeds"
      CHECK(r.baseline.thrice.succeeded == 5);  // "and on five without SSMax"
    } else {
      passing_none += r.ours.twice.succeeded == 0 && r.ours.thrice.succeeded == 0;
    }
  }
  CHECK(at_3x == 1);
  CHECK(passing_none == 5);  // "the other five methods pass nothing at either length"
}
