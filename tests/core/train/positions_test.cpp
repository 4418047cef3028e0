// Contiguous, randomized, coupled, abacus and random-start position ids: their properties, the coupling tables, reproducible test ids.
#include "core/train/positions.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>

using namespace peviz::train;

TEST_CASE("each sampler has its own name", "[train][positions]") {
  CHECK(to_string(PositionSampler::contiguous) == "contiguous");
  CHECK(to_string(PositionSampler::randomized) == "randomized");
  CHECK(to_string(PositionSampler::coupled) == "coupled");
  CHECK(to_string(PositionSampler::abacus) == "abacus");
  CHECK(to_string(PositionSampler::random_start) == "random-start");
  CHECK(std::size(kAllPositionSamplers) == 5);
}

TEST_CASE("randomized ids: distinct, sorted, inside the range, and every id about equally often", "[train][positions]") {
  std::mt19937_64 rng(3);
  std::map<int, int> seen;
  const int range = 32, length = 8, draws = 20000;
  for (int k = 0; k < draws; ++k) {
    const std::vector<int> ids = randomized_positions(length, range, rng);
    REQUIRE(ids.size() == std::size_t(length));
    CHECK(std::adjacent_find(ids.begin(), ids.end(), [](int a, int b) { return a >= b; }) == ids.end());
    CHECK(ids.front() >= 0);
    CHECK(ids.back() < range);
    for (int id : ids) ++seen[id];
  }
  // A uniform sample holds each id with probability length / range: 5000 of 20000 draws, binomial sd ~61.
  REQUIRE(seen.size() == std::size_t(range));
  for (const auto& [id, count] : seen) CHECK(std::abs(count - draws * length / range) < 400);
  CHECK(randomized_positions(range, range, rng) == contiguous_positions(range));  // all of them: 0..range-1
  CHECK_THROWS_AS(randomized_positions(range + 1, range, rng), std::invalid_argument);
}

TEST_CASE("coupled ids: an answer symbol has the id of the input symbol it copies", "[train][positions]") {
  // BOS x1 x2 x3 SEP y1 y2 y3 EOS, start 5.
  CHECK(coupled_positions(Task::copy, 3, 5) == std::vector<int>{5, 6, 7, 8, 5, 6, 7, 8, 9});
  CHECK(coupled_positions(Task::reverse, 3, 5) == std::vector<int>{5, 6, 7, 8, 9, 8, 7, 6, 5});
  for (Task task : {Task::copy, Task::reverse}) {
    const std::vector<int> symbols{4, 1, 7, 7, 2, 9};
    const std::vector<int> seq = task_sequence(task, symbols), ids = coupled_positions(task, 6, 2);
    for (int k = 1; k <= 6; ++k) {  // y_k at index n + 1 + k equals the input symbol with its id
      const std::size_t y = std::size_t(6 + 1 + k);
      const auto x = std::find(ids.begin() + 1, ids.begin() + 7, ids[y]);
      REQUIRE(x != ids.begin() + 7);
      CHECK(seq[std::size_t(x - ids.begin())] == seq[y]);
    }
  }
  CHECK(sampler_refusal(PositionSampler::coupled, Task::sort).find("sort") != std::string::npos);
  CHECK(sampler_refusal(PositionSampler::coupled, Task::add).empty());
  CHECK(sampler_refusal(PositionSampler::coupled, Task::copy).empty());
  CHECK(sampler_refusal(PositionSampler::randomized, Task::sort).empty());
}

TEST_CASE("training ids: coupled starts anywhere that keeps every id inside the range", "[train][positions]") {
  std::mt19937_64 rng(1);
  const int range = 16, n = 5;
  std::map<int, int> starts;
  for (int k = 0; k < 2000; ++k) {
    const std::vector<int> ids = training_positions(PositionSampler::coupled, Task::copy, n, range, rng);
    CHECK(*std::max_element(ids.begin(), ids.end()) < range);
    ++starts[ids.front()];
  }
  CHECK(starts.begin()->first == 0);
  CHECK(starts.rbegin()->first == range - n - 2);  // EOS at start + n + 1 = range - 1
  CHECK(starts.size() == std::size_t(range - n - 1));
}

TEST_CASE("a batch's ids are rewritten per sequence; contiguous leaves 0..L-1", "[train][positions]") {
  std::mt19937_64 data(7), ids(8);
  PackedBatch b;
  training_batch(Task::copy, 6, 10, data, b);
  const std::vector<int> before = b.positions;
  sample_batch_positions(PositionSampler::contiguous, Task::copy, 64, ids, b);
  CHECK(b.positions == before);
  sample_batch_positions(PositionSampler::coupled, Task::copy, 64, ids, b);
  for (int q = 0; q < b.n_seqs(); ++q) {
    const int first = b.seq_start[std::size_t(q)], n = (b.seq_len[std::size_t(q)] - 3) / 2;
    const std::vector<int> got(b.positions.begin() + first, b.positions.begin() + first + b.seq_len[std::size_t(q)]);
    CHECK(got == coupled_positions(Task::copy, n, got.front()));
  }
}

TEST_CASE("coupled ids on add: digits of equal significance share an id", "[train][positions]") {
  // BOS a0 a1 SEP b0 b1 SEP c0 c1 c2 EOS, start 3 (Cho et al. 2024, §4).
  CHECK(coupled_positions(Task::add, 2, 3) == std::vector<int>{3, 4, 5, 6, 4, 5, 3, 4, 5, 6, 7});
  const int n = 7;
  const std::vector<int> ids = coupled_positions(Task::add, n, 0);
  REQUIRE(int(ids.size()) == sequence_length(Task::add, n));
  for (int k = 0; k < n; ++k) {  // a_k, b_k and c_k: one id; the query predicting c_k sits one id below
    CHECK(ids[std::size_t(1 + k)] == ids[std::size_t(n + 2 + k)]);
    CHECK(ids[std::size_t(2 * n + 3 + k)] == ids[std::size_t(1 + k)]);
    CHECK(ids[std::size_t(2 * n + 2 + k)] == ids[std::size_t(1 + k)] - 1);
  }
  // Training starts keep every id below the range; the widest distance in training is coupled_span.
  std::mt19937_64 rng(4);
  int widest = 0, highest = 0;
  for (int k = 0; k < 2000; ++k) {
    const std::vector<int> t = training_positions(PositionSampler::coupled, Task::add, 1 + k % 10, 40, rng);
    widest = std::max(widest, largest_distance(t));
    highest = std::max(highest, *std::max_element(t.begin(), t.end()));
  }
  CHECK(widest == training_coverage(PositionSampler::coupled, Task::add, 10, 40).max_distance);
  CHECK(highest == 39);
}

TEST_CASE("test ids: the same for every run of a seed, coupled from 0, randomized apart per length", "[train][positions]") {
  const auto a = test_positions(PositionSampler::randomized, Task::copy, 10, 4, 64, 3);
  CHECK(a == test_positions(PositionSampler::randomized, Task::copy, 10, 4, 64, 3));
  CHECK(a != test_positions(PositionSampler::randomized, Task::copy, 10, 4, 64, 4));
  CHECK(a[0] != a[1]);
  CHECK(a[0].size() == std::size_t(sequence_length(Task::copy, 10)));
  CHECK(test_positions(PositionSampler::coupled, Task::reverse, 4, 2, 64, 3)[1] == coupled_positions(Task::reverse, 4, 0));
  CHECK(test_positions(PositionSampler::contiguous, Task::sort, 4, 1, 64, 3)[0] == contiguous_positions(11));
}

TEST_CASE("training coverage: the ids and id distances training showed, against what a test sequence needs",
          "[train][positions]") {
  // Contiguous, train_max 20: 43 tokens, ids 0..42; a test sequence of n = 25 (53 tokens) needs id 52.
  CHECK(training_coverage(PositionSampler::contiguous, Task::copy, 20, 128).max_id == 42);
  CHECK(largest_distance(contiguous_positions(sequence_length(Task::copy, 25))) == 52);
  // Randomized: every id and distance of the range.
  CHECK(training_coverage(PositionSampler::randomized, Task::copy, 20, 128).max_distance == 127);
  // Coupled: the largest distance a training sequence holds is n + 1, the EOS (copy) or SEP (reverse) back to BOS.
  std::mt19937_64 rng(2);
  int widest = 0;
  for (int k = 0; k < 500; ++k)
    for (Task task : {Task::copy, Task::reverse})
      widest = std::max(widest, largest_distance(training_positions(PositionSampler::coupled, task, 1 + k % 20, 128, rng)));
  CHECK(widest == training_coverage(PositionSampler::coupled, Task::copy, 20, 128).max_distance);
  CHECK(largest_distance(coupled_positions(Task::copy, 40, 0)) == 41);  // n = 40 at test: past 21
  // The longest covered test length: its ids and distances within the coverage, and n + 1 no longer.
  for (PositionSampler s : {PositionSampler::contiguous, PositionSampler::randomized, PositionSampler::coupled}) {
    const PositionCoverage c = training_coverage(s, Task::copy, 20, 128);
    const int n = covered_length(s, Task::copy, 20, 128);
    auto inside = [&](int length) {  // contiguous / coupled ids at test (start 0); randomized: every id < range
      const std::vector<int> ids = s == PositionSampler::coupled ? coupled_positions(Task::copy, length, 0)
                                                                 : contiguous_positions(sequence_length(Task::copy, length));
      return s == PositionSampler::randomized ? sequence_length(Task::copy, length) <= 128
                                              : ids.back() <= c.max_id && largest_distance(ids) <= c.max_distance;
    };
    CHECK(inside(n));
    CHECK_FALSE(inside(n + 1));
  }
  CHECK(covered_length(PositionSampler::randomized, Task::copy, 20, 128) == 62);
  CHECK(covered_length(PositionSampler::randomized, Task::add, 10, 128) == 41);  // 3 x 41 + 5 = 128 tokens
}

TEST_CASE("abacus ids: a digit's index within its number, 0 for every other token", "[train][positions]") {
  // add, n = 2: BOS a0 a1 SEP b0 b1 SEP c0 c1 c2 EOS with offset 4.
  CHECK(abacus_positions(Task::add, 2, 4) == std::vector<int>{0, 5, 6, 0, 5, 6, 0, 5, 6, 7, 0});
  CHECK(abacus_positions(Task::copy, 3, 0) == std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3, 0});
  // Read off the tokens as mcleish7/arithmetic's helper does: runs of digit tokens, numbered from 1.
  std::mt19937_64 rng(5);
  for (Task task : kAllTasks) {
    const int n = 7;
    const std::vector<int> seq = task_sequence(task, random_symbols(rng, input_symbols(task, n)));
    const std::vector<int> ids = abacus_positions(task, n, 0);
    REQUIRE(ids.size() == seq.size());
    int run = 0;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      run = seq[i] < kSymbols ? run + 1 : 0;
      CHECK(ids[i] == run);
    }
    CHECK(*std::max_element(ids.begin(), ids.end()) == abacus_span(task, n));
    CHECK(test_rows(PositionSampler::abacus, task, n) == abacus_span(task, n) + 1);
  }
}

TEST_CASE("abacus in training: one offset per batch, every id inside the range", "[train][positions]") {
  std::mt19937_64 data(7), ids(8);
  PackedBatch b;
  const int range = 20, train_max = 10;
  std::map<int, int> offsets;
  for (int k = 0; k < 2000; ++k) {
    training_batch(Task::add, 4, train_max, data, b);
    sample_batch_positions(PositionSampler::abacus, Task::add, range, ids, b);
    CHECK(*std::max_element(b.positions.begin(), b.positions.end()) < range);
    const int offset = b.positions[1] - 1;  // a0 of the first sequence
    int longest = 0;
    for (int q = 0; q < b.n_seqs(); ++q) {
      const int first = b.seq_start[std::size_t(q)], n = length_of_sequence(Task::add, b.seq_len[std::size_t(q)]);
      const std::vector<int> got(b.positions.begin() + first, b.positions.begin() + first + b.seq_len[std::size_t(q)]);
      CHECK(got == abacus_positions(Task::add, n, offset));
      longest = std::max(longest, n);
    }
    ++offsets[offset + abacus_span(Task::add, longest)];  // the batch's largest id
  }
  CHECK(offsets.rbegin()->first == range - 1);  // the largest id reaches the end of the range
  CHECK(test_positions(PositionSampler::abacus, Task::add, 30, 2, range, 1)[1] == abacus_positions(Task::add, 30, 0));
  CHECK(covered_length(PositionSampler::abacus, Task::add, 10, 40) == 38);  // c_38 at id 39
}

TEST_CASE("random-start ids: contiguous from a start that keeps the sequence inside the range", "[train][positions]") {
  std::mt19937_64 rng(4);
  const int range = 30, n = 5, length = sequence_length(Task::copy, n);
  std::map<int, int> starts;
  for (int k = 0; k < 2000; ++k) {
    const std::vector<int> ids = training_positions(PositionSampler::random_start, Task::copy, n, range, rng);
    REQUIRE(int(ids.size()) == length);
    for (std::size_t i = 1; i < ids.size(); ++i) CHECK(ids[i] == ids[i - 1] + 1);
    ++starts[ids.front()];
  }
  CHECK(starts.begin()->first == 0);
  CHECK(starts.rbegin()->first == range - length);  // the last id range - 1
  CHECK(starts.size() == std::size_t(range - length + 1));
  CHECK(test_positions(PositionSampler::random_start, Task::copy, 8, 1, range, 3)[0] == contiguous_positions(19));
  CHECK(training_coverage(PositionSampler::random_start, Task::copy, 20, 128).max_id == 127);
  CHECK(covered_length(PositionSampler::random_start, Task::copy, 20, 128) == 62);
}
