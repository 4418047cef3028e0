// Contiguous, randomized and coupled position ids for the lab's sequences.
#include "core/train/positions.hpp"

#include <algorithm>
#include <stdexcept>

namespace peviz::train {

namespace {
constexpr std::uint64_t kTestPositionStream = 0x8CB92BA72F3D8DD7ull;  // test ids: apart from the symbols' stream
constexpr std::string_view kSamplerNames[] = {"contiguous", "randomized", "coupled", "abacus", "random-start"};

// A run of n digits with ids offset + 1 .. offset + n.
void append_digit_run(std::vector<int>& ids, int n, int offset) {
  for (int i = 1; i <= n; ++i) ids.push_back(offset + i);
}
}  // namespace

std::string_view to_string(PositionSampler s) { return kSamplerNames[int(s)]; }

std::string sampler_refusal(PositionSampler s, Task task) {
  if (s == PositionSampler::coupled && task == Task::sort)
    return "position coupling needs each answer symbol to copy one input symbol (copy, reverse); sort's do not";
  return {};
}

std::vector<int> contiguous_positions(int length) {
  std::vector<int> ids(static_cast<std::size_t>(length));
  for (int i = 0; i < length; ++i) ids[std::size_t(i)] = i;
  return ids;
}

std::vector<int> randomized_positions(int length, int range, std::mt19937_64& rng) {
  if (length > range) throw std::invalid_argument("more positions than the position range holds");
  std::vector<int> ids;
  ids.reserve(std::size_t(length));
  for (int i = 0; i < range && int(ids.size()) < length; ++i) {
    const std::uint64_t left = std::uint64_t(range - i), needed = std::uint64_t(length) - ids.size();
    if (rng() % left < needed) ids.push_back(i);
  }
  return ids;
}

std::vector<int> coupled_positions(Task task, int n, int start) {
  const int s = start;
  std::vector<int> ids{s};                                         // BOS
  for (int i = 1; i <= n; ++i) ids.push_back(s + i);               // x_i, or a_(i-1)
  if (task == Task::add) {
    ids.push_back(s + n + 1);                                      // SEP ('+')
    for (int i = 1; i <= n; ++i) ids.push_back(s + i);             // b_(i-1)
    ids.push_back(s);                                              // SEP ('=')
    for (int k = 0; k <= n; ++k) ids.push_back(s + 1 + k);         // c_k
    ids.push_back(s + n + 2);                                      // EOS
    return ids;
  }
  const bool reverse = task == Task::reverse;
  ids.push_back(reverse ? s + n + 1 : s);                          // SEP
  for (int k = 1; k <= n; ++k) ids.push_back(reverse ? s + n + 1 - k : s + k);  // y_k
  ids.push_back(reverse ? s : s + n + 1);                          // EOS
  return ids;
}

int coupled_span(Task task, int n) { return task == Task::add ? n + 2 : n + 1; }

std::vector<int> abacus_positions(Task task, int n, int offset) {
  std::vector<int> ids{0};                                         // BOS
  append_digit_run(ids, n, offset);                                // x, or a
  ids.push_back(0);                                                // SEP
  append_digit_run(ids, n, offset);                                // y, or b
  if (task == Task::add) {
    ids.push_back(0);                                              // SEP ('=')
    append_digit_run(ids, n + 1, offset);                          // c
  }
  ids.push_back(0);                                                // EOS
  return ids;
}

int abacus_span(Task task, int n) { return task == Task::add ? n + 1 : n; }

int test_rows(PositionSampler s, Task task, int n) {
  switch (s) {
    case PositionSampler::coupled: return coupled_span(task, n) + 1;
    case PositionSampler::abacus: return abacus_span(task, n) + 1;
    default: return sequence_length(task, n);
  }
}

std::vector<int> training_positions(PositionSampler s, Task task, int n, int range, std::mt19937_64& rng) {
  switch (s) {
    case PositionSampler::randomized: return randomized_positions(sequence_length(task, n), range, rng);
    case PositionSampler::coupled:
      return coupled_positions(task, n, int(rng() % std::uint64_t(range - coupled_span(task, n))));
    case PositionSampler::abacus: return abacus_positions(task, n, int(rng() % std::uint64_t(range - abacus_span(task, n))));
    case PositionSampler::random_start: {
      const int length = sequence_length(task, n);
      std::vector<int> ids = contiguous_positions(length);
      const int start = int(rng() % std::uint64_t(range - length + 1));
      for (int& id : ids) id += start;
      return ids;
    }
    default: return contiguous_positions(sequence_length(task, n));
  }
}

void sample_batch_positions(PositionSampler s, Task task, int range, std::mt19937_64& rng, PackedBatch& b) {
  if (s == PositionSampler::contiguous) return;
  int offset = 0;
  if (s == PositionSampler::abacus) {
    int longest = 0;
    for (int q = 0; q < b.n_seqs(); ++q) longest = std::max(longest, length_of_sequence(task, b.seq_len[std::size_t(q)]));
    offset = int(rng() % std::uint64_t(range - abacus_span(task, longest)));
  }
  for (int q = 0; q < b.n_seqs(); ++q) {
    const int n = length_of_sequence(task, b.seq_len[std::size_t(q)]);
    const std::vector<int> ids =
        s == PositionSampler::abacus ? abacus_positions(task, n, offset) : training_positions(s, task, n, range, rng);
    std::copy(ids.begin(), ids.end(), b.positions.begin() + b.seq_start[std::size_t(q)]);
  }
}

std::vector<std::vector<int>> test_positions(PositionSampler s, Task task, int n, int count, int range,
                                             std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ kTestPositionStream ^ (0xD1B54A32D192ED03ull * std::uint64_t(n + 1)));
  std::vector<std::vector<int>> out;
  for (int i = 0; i < count; ++i)
    out.push_back(s == PositionSampler::randomized ? randomized_positions(sequence_length(task, n), range, rng)
                  : s == PositionSampler::coupled   ? coupled_positions(task, n, 0)
                  : s == PositionSampler::abacus    ? abacus_positions(task, n, 0)
                                                    : contiguous_positions(sequence_length(task, n)));
  return out;
}

PositionCoverage training_coverage(PositionSampler s, Task task, int train_max, int range) {
  switch (s) {
    case PositionSampler::randomized: return {range - 1, range - 1};
    case PositionSampler::coupled: return {range - 1, coupled_span(task, train_max)};
    case PositionSampler::abacus: return {range - 1, abacus_span(task, train_max)};
    case PositionSampler::random_start: return {range - 1, sequence_length(task, train_max) - 1};
    default: return {sequence_length(task, train_max) - 1, sequence_length(task, train_max) - 1};
  }
}

int covered_length(PositionSampler s, Task task, int train_max, int range) {
  switch (s) {
    case PositionSampler::randomized:
    case PositionSampler::random_start: return length_of_sequence(task, range);
    case PositionSampler::abacus: return task == Task::add ? range - 2 : range - 1;  // abacus_span(n) <= range - 1
    default: return train_max;
  }
}

int largest_distance(const std::vector<int>& ids) {
  if (ids.empty()) return 0;
  const auto [lo, hi] = std::minmax_element(ids.begin(), ids.end());
  return *hi - *lo;
}

}  // namespace peviz::train
