// The synthetic tasks of the lab (Kazemnejad et al. 2023, §3): copy, reverse and sort, generated from a seed.
//
// A sequence is BOS x1..xn SEP y1..yn EOS over a 10-symbol alphabet (tokens 0..9; BOS 10, SEP 11,
// EOS 12): 2n + 3 tokens. Loss and accuracy are on y1..yn and EOS only, i.e. the predictions made at
// SEP, y1, ..., yn (token indices n+1 .. 2n+1). Nothing is stored: every batch and test set comes
// from mt19937_64 streams seeded from the run's seed.
#pragma once
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/train/packed_batch.hpp"

namespace peviz::train {

enum class Task { copy, reverse, sort };
inline constexpr std::array<std::string_view, 3> kTaskNames = {"copy", "reverse", "sort"};  // the enum's order
inline constexpr Task kAllTasks[] = {Task::copy, Task::reverse, Task::sort};
std::string_view to_string(Task t);
bool parse_task(std::string_view s, Task& out);  // any name of task_names
// The names joined, `last` before the last: "copy, reverse or sort" (defaults), "copy | reverse | sort".
std::string task_names(std::string_view separator = ", ", std::string_view last = " or ");

inline constexpr int kSymbols = 10;
inline constexpr int kBos = 10, kSep = 11, kEos = 12;
inline constexpr int kVocab = 13;

// Tokens of a sequence with n symbols.
constexpr int sequence_length(int n) { return 2 * n + 3; }
// Index of the first token whose next-token prediction is scored (SEP).
constexpr int first_answer_target(int n) { return n + 1; }

// BOS x SEP y EOS for the given symbols.
std::vector<int> task_sequence(Task task, const std::vector<int>& symbols);
// n symbols uniform in 0..9.
std::vector<int> random_symbols(std::mt19937_64& rng, int n);

// A training batch: `batch` sequences with n uniform in [1, train_max], packed.
void training_batch(Task task, int batch, int train_max, std::mt19937_64& rng, PackedBatch& out);

// The evaluation lengths: n = 5, 10, ... up to test_max, plus test_max itself when it is not a multiple of 5.
std::vector<int> test_lengths(int test_max);
// The fixed test set of one length: `count` sequences from a stream seeded by (seed, n) only, so every
// encoding and every run with that seed is tested on the same sequences.
std::vector<std::vector<int>> test_sequences(Task task, int n, int count, std::uint64_t seed);

}  // namespace peviz::train
