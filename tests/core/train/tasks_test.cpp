// Task sequences, training batches and the fixed test sets.
#include "core/train/tasks.hpp"

#include <catch2/catch.hpp>

using namespace peviz::train;

TEST_CASE("copy, reverse and sort sequences", "[train][tasks]") {
  const std::vector<int> x = {3, 1, 2};
  CHECK(task_sequence(Task::copy, x) == std::vector<int>{kBos, 3, 1, 2, kSep, 3, 1, 2, kEos});
  CHECK(task_sequence(Task::reverse, x) == std::vector<int>{kBos, 3, 1, 2, kSep, 2, 1, 3, kEos});
  CHECK(task_sequence(Task::sort, x) == std::vector<int>{kBos, 3, 1, 2, kSep, 1, 2, 3, kEos});
  CHECK(sequence_length(3) == 9);
  Task t;
  CHECK((parse_task("reverse", t) && t == Task::reverse));
  CHECK_FALSE(parse_task("add", t));
  CHECK(task_names() == "copy, reverse or sort");
  CHECK(task_names(" | ", " | ") == "copy | reverse | sort");
  for (Task each : kAllTasks) CHECK((parse_task(to_string(each), t) && t == each));
}

TEST_CASE("a training batch scores exactly y1..yn and EOS", "[train][tasks]") {
  std::mt19937_64 rng(5);
  PackedBatch b;
  training_batch(Task::copy, 64, 7, rng, b);
  REQUIRE(b.n_seqs() == 64);
  int expected_targets = 0;
  for (int s = 0; s < b.n_seqs(); ++s) {
    const int L = b.seq_len[std::size_t(s)], n = (L - 3) / 2, start = b.seq_start[std::size_t(s)];
    CHECK((n >= 1 && n <= 7));
    expected_targets += n + 1;
    CHECK(b.positions[std::size_t(start)] == 0);
    CHECK(b.targets[std::size_t(start + n)] == -1);          // x_n predicts SEP: not scored
    CHECK(b.targets[std::size_t(start + n + 1)] == b.tokens[std::size_t(start + n + 2)]);  // SEP predicts y1
    CHECK(b.targets[std::size_t(start + 2 * n + 1)] == kEos);  // y_n predicts EOS
  }
  CHECK(b.n_targets == expected_targets);
}

TEST_CASE("test sets depend only on (task, n, seed)", "[train][tasks]") {
  CHECK(test_lengths(40) == std::vector<int>{5, 10, 15, 20, 25, 30, 35, 40});
  CHECK(test_lengths(12) == std::vector<int>{5, 10, 12});
  CHECK(test_lengths(3) == std::vector<int>{3});
  const auto a = test_sequences(Task::copy, 10, 200, 1), b = test_sequences(Task::copy, 10, 200, 1);
  CHECK(a == b);
  CHECK(a != test_sequences(Task::copy, 10, 200, 2));
  REQUIRE(a.size() > 0);
  CHECK(a[0].size() == 23u);
}
