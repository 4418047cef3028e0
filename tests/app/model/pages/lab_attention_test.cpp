// Tests for app/model/pages/lab_attention: one run's attention on a test sequence, and two runs side by side on the
// same one (the shared query, both rows stacked into one picture), on the shipped fixes experiment.
#include <cmath>

#include <catch2/catch.hpp>

#include "app/model/app_update.hpp"
#include "app/model/data_files.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"

using namespace peviz;
using namespace peviz::app;
using train::PositionEncoding;

namespace {

// The shipped fixes experiment (RoPE, coupled-rope, FIRE on copy) opened on the Lab page, showing `first` with
// `beside` (-1: none) on test sequence 0 of n = 35.
AppState fixes_at_35(int first, int beside) {
  AppState s;
  apply_state_json({{"page", "lab"}, {"lab", {{"experiment", "fixes-copy"}, {"attention_length", 35}}}}, s);
  update_app_state(s);
  s.pages.lab.attention_pe = first;
  s.pages.lab.beside_pe = beside;
  s.pages.mark(Page::lab);
  update_app_state(s);
  return s;
}

void check_rows_are_softmaxes(const LabAttention& a) {
  REQUIRE(a.query_rows.rows == std::size_t(a.layers * a.heads));
  REQUIRE(a.query_rows.cols == std::size_t(a.query + 1));  // causal: keys 0..query
  for (std::size_t r = 0; r < a.query_rows.rows; ++r) {
    double sum = 0.0;
    for (std::size_t k = 0; k < a.query_rows.cols; ++k) sum += a.query_rows.at(r, k);
    // A float softmax row of n keys: n quotients of one float sum, within gamma_(n+1) of 1 (attention_test.cpp).
    const double n = double(a.query_rows.cols) + 1;
    CHECK(std::fabs(sum - 1.0) <= n * 0x1p-24 / (1 - n * 0x1p-24));
  }
}

}  // namespace

TEST_CASE("one run: its own first wrong query, its ids as runs split where training's ids end, no picture of two") {
  const AppState s = fixes_at_35(lab_encoding_index(PositionEncoding::rope), -1);
  const LabOptions& o = s.pages.lab;
  const LabAttention& a = o.attention;
  REQUIRE(a.defined);
  CHECK(a.tokens == 2 * 35 + 3);
  REQUIRE(a.wrong >= 0);
  CHECK(a.query == a.wrong);
  check_rows_are_softmaxes(a);
  REQUIRE(a.id_runs.size() == 2);  // 0-42 seen, 43-72 never
  CHECK((a.id_runs[0].first == 0 && a.id_runs[0].last == 42 && a.id_runs[0].seen));
  CHECK((a.id_runs[1].first == 43 && a.id_runs[1].last == 72 && !a.id_runs[1].seen));
  CHECK(o.pair_rows.rows == 0);
  CHECK_FALSE(o.beside.defined);
}

TEST_CASE("two runs: the same sequence, the earlier wrong query for both, their rows stacked around a NaN gutter") {
  const AppState s = fixes_at_35(lab_encoding_index(PositionEncoding::rope), lab_encoding_index(PositionEncoding::coupled_rope));
  const LabOptions& o = s.pages.lab;
  const LabAttention &rope = o.attention, &coupled = o.beside;
  REQUIRE(rope.defined);
  REQUIRE(coupled.defined);
  CHECK(rope.tokens_ids == coupled.tokens_ids);
  REQUIRE(rope.wrong >= 0);
  CHECK(coupled.wrong == -1);  // coupled-rope copies it: its own row would be the last query's
  CHECK(rope.query == rope.wrong);
  CHECK(coupled.query == rope.wrong);
  check_rows_are_softmaxes(rope);
  check_rows_are_softmaxes(coupled);
  // Coupled ids: x_k and y_k share one, "0-35 0-36" (BOS and the inputs, then SEP and the answers).
  REQUIRE(coupled.id_runs.size() == 2);
  CHECK((coupled.id_runs[0].first == 0 && coupled.id_runs[0].last == 35));
  CHECK((coupled.id_runs[1].first == 0 && coupled.id_runs[1].last == 36));
  const std::size_t rows = rope.query_rows.rows;
  REQUIRE(o.pair_rows.rows == 2 * rows + 1);
  REQUIRE(o.pair_rows.cols == rope.query_rows.cols);
  for (std::size_t k = 0; k < o.pair_rows.cols; ++k) {
    CHECK(std::isnan(o.pair_rows.at(rows, k)));
    for (std::size_t r = 0; r < rows; ++r) {
      CHECK(o.pair_rows.at(r, k) == rope.query_rows.at(r, k));
      CHECK(o.pair_rows.at(rows + 1 + r, k) == coupled.query_rows.at(r, k));
    }
  }
  CHECK(o.pair_image.nan_meaning == plot::NanMeaning::masked);

  AppState alone = s;  // back to one run: its row follows its own query again, the picture of two goes
  alone.pages.lab.beside_pe = -1;
  alone.pages.mark(Page::lab);
  update_app_state(alone);
  CHECK(alone.pages.lab.pair_rows.rows == 0);
  CHECK(alone.pages.lab.attention.query == alone.pages.lab.attention.wrong);
}

TEST_CASE("the run beside is in the state JSON by name; an unknown name is refused, \"\" is none") {
  const AppState s = fixes_at_35(lab_encoding_index(PositionEncoding::rope), lab_encoding_index(PositionEncoding::fire));
  CHECK(state_to_json(s)["lab"]["attention_beside"] == "fire");
  AppState other;
  apply_state_json({{"lab", {{"attention_beside", "coupled-rope"}}}}, other);
  CHECK(other.pages.lab.beside_pe == lab_encoding_index(PositionEncoding::coupled_rope));
  CHECK_THROWS_AS(apply_state_json({{"lab", {{"attention_beside", "nonsense"}}}}, other), ParamError);
  apply_state_json({{"lab", {{"attention_beside", ""}}}}, other);
  CHECK(other.pages.lab.beside_pe == -1);
  CHECK_THROWS_AS(apply_state_json({{"lab", {{"show", "everything"}}}}, other), ParamError);
  apply_state_json({{"lab", {{"show", "attention"}}}}, other);
  CHECK(other.pages.lab.show == LabShow::attention);
  CHECK(state_to_json(other)["lab"]["show"] == "attention");
}
