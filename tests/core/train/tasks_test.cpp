// Task sequences, training batches and the fixed test sets.
#include "core/train/tasks.hpp"

#include <catch2/catch.hpp>

using namespace peviz::train;

TEST_CASE("copy, reverse and sort sequences", "[train][tasks]") {
  const std::vector<int> x = {3, 1, 2};
  CHECK(task_sequence(Task::copy, x) == std::vector<int>{kBos, 3, 1, 2, kSep, 3, 1, 2, kEos});
  CHECK(task_sequence(Task::reverse, x) == std::vector<int>{kBos, 3, 1, 2, kSep, 2, 1, 3, kEos});
  CHECK(task_sequence(Task::sort, x) == std::vector<int>{kBos, 3, 1, 2, kSep, 1, 2, 3, kEos});
  CHECK(sequence_length(Task::copy, 3) == 9);
  Task t;
  CHECK((parse_task("reverse", t) && t == Task::reverse));
  CHECK_FALSE(parse_task("multiply", t));
  CHECK(task_names() == "copy, reverse, sort or add");
  CHECK(task_names(" | ", " | ") == "copy | reverse | sort | add");
  for (Task each : kAllTasks) CHECK((parse_task(to_string(each), t) && t == each));
}

TEST_CASE("addition: two operands and their sum, least significant digit first", "[train][tasks]") {
  // 472 + 839 = 1311, written 2 7 4 + 9 3 8 = 1 1 3 1.
  const std::vector<int> seq = task_sequence(Task::add, {2, 7, 4, 9, 3, 8});
  CHECK(seq == std::vector<int>{kBos, 2, 7, 4, kSep, 9, 3, 8, kSep, 1, 1, 3, 1, kEos});
  CHECK(int(seq.size()) == sequence_length(Task::add, 3));
  CHECK(answer_start(seq) == first_answer_target(Task::add, 3));
  CHECK(length_of_sequence(Task::add, 14) == 3);
  CHECK(task_sequence(Task::add, {0, 0}) == std::vector<int>{kBos, 0, kSep, 0, kSep, 0, 0, kEos});  // 0 + 0
  CHECK(token_role(Task::add, 1, 3) == "a0");
  CHECK(token_role(Task::add, 4, 3) == "SEP (+)");
  CHECK(token_role(Task::add, 7, 3) == "b2");
  CHECK(token_role(Task::add, 8, 3) == "SEP (=)");
  CHECK(token_role(Task::add, 12, 3) == "c3");
  CHECK(token_role(Task::add, 13, 3) == "EOS");
  CHECK(token_role(Task::copy, 5, 3) == "y1");
  // Random operands: the answer's digits read back are the sum of the operands read back.
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % 12;
    const std::vector<int> s = task_sequence(Task::add, random_symbols(rng, input_symbols(Task::add, n)));
    auto number = [&](int first, int digits) {
      long double v = 0;
      for (int k = digits - 1; k >= 0; --k) v = 10 * v + s[std::size_t(first + k)];
      return v;
    };
    CHECK(number(2 * n + 3, n + 1) == number(1, n) + number(n + 2, n));
  }
}

TEST_CASE("a training batch of add scores the sum's n + 1 digits and EOS", "[train][tasks]") {
  std::mt19937_64 rng(5);
  PackedBatch b;
  training_batch(Task::add, 32, 6, rng, b);
  for (int s = 0; s < b.n_seqs(); ++s) {
    const int L = b.seq_len[std::size_t(s)], n = length_of_sequence(Task::add, L), start = b.seq_start[std::size_t(s)];
    CHECK(L == sequence_length(Task::add, n));
    int scored = 0;
    for (int i = 0; i < L; ++i) scored += b.targets[std::size_t(start + i)] >= 0 ? 1 : 0;
    CHECK(scored == n + 2);
    CHECK(b.targets[std::size_t(start + 2 * n + 2)] == b.tokens[std::size_t(start + 2 * n + 3)]);
  }
}

TEST_CASE("a training batch scores exactly y1..yn and EOS", "[train][tasks]") {
  std::mt19937_64 rng(5);
  PackedBatch b;
  training_batch(Task::copy, 64, 7, rng, b);
  REQUIRE(b.n_seqs() == 64);
  int expected_targets = 0;
  for (int s = 0; s < b.n_seqs(); ++s) {
    const int L = b.seq_len[std::size_t(s)], n = length_of_sequence(Task::copy, L), start = b.seq_start[std::size_t(s)];
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
