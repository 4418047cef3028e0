// The synthetic tasks of the lab, generated from a seed: copy, reverse and sort (Kazemnejad et al. 2023, §3) and
// addition (the length-generalisation benchmark of Cho et al. 2024, Zhou et al. 2024, McLeish et al. 2024).
//
// copy, reverse, sort: BOS x1..xn SEP y1..yn EOS over a 10-symbol alphabet (tokens 0..9; BOS 10, SEP 11, EOS 12):
// 2n + 3 tokens. add: BOS a0..a(n-1) SEP b0..b(n-1) SEP c0..cn EOS, 3n + 5 tokens: two operands of n digits each
// (every digit uniform in 0..9, so an operand has up to n significant digits, zero-padded as in Cho et al.'s
// `padding`), a_k the digit of 10^k, i.e. least significant first, and the sum's n + 1 digits least significant
// first (Zhou et al. write operands and answer reversed; Cho et al. reverse the answer); the second SEP stands for
// '=' (the alphabet keeps its 13 tokens, so every model keeps its shape). Loss and accuracy are on the answer and
// EOS only, i.e. the predictions made at the last SEP and at every answer symbol. Nothing is stored: every batch and
// test set comes from mt19937_64 streams seeded from the run's seed.
#pragma once
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/train/packed_batch.hpp"

namespace peviz::train {

enum class Task { copy, reverse, sort, add };
inline constexpr std::array<std::string_view, 4> kTaskNames = {"copy", "reverse", "sort", "add"};  // the enum's order
inline constexpr Task kAllTasks[] = {Task::copy, Task::reverse, Task::sort, Task::add};
std::string_view to_string(Task t);
bool parse_task(std::string_view s, Task& out);  // any name of task_names
// The names joined, `last` before the last: "copy, reverse or sort" (defaults), "copy | reverse | sort".
std::string task_names(std::string_view separator = ", ", std::string_view last = " or ");

inline constexpr int kSymbols = 10;
inline constexpr int kBos = 10, kSep = 11, kEos = 12;
inline constexpr int kVocab = 13;

// The random symbols a sequence of length n is made of: n, or 2n for add (operand a's digits, then b's).
constexpr int input_symbols(Task task, int n) { return task == Task::add ? 2 * n : n; }
// Tokens of a sequence of length n: 2n + 3, or 3n + 5 for add.
constexpr int sequence_length(Task task, int n) { return task == Task::add ? 3 * n + 5 : 2 * n + 3; }
// Index of the first token whose next-token prediction is scored: the (last) SEP.
constexpr int first_answer_target(Task task, int n) { return task == Task::add ? 2 * n + 2 : n + 1; }
// The length n of a sequence of `tokens` tokens (the inverse of sequence_length).
constexpr int length_of_sequence(Task task, int tokens) { return task == Task::add ? (tokens - 5) / 3 : (tokens - 3) / 2; }
// The index of a sequence's last SEP: its scored answer follows it (first_answer_target, read off the tokens).
int answer_start(const std::vector<int>& sequence);

// What token i of a sequence of length n is: "BOS", "x3", "SEP", "y3", "EOS"; on add "a0", "SEP (+)", "b0",
// "SEP (=)", "c0" (the digit of 10^0), "EOS".
std::string token_role(Task task, int i, int n);

// The sequence of the task for its input symbols (input_symbols(task, n) of them).
std::vector<int> task_sequence(Task task, const std::vector<int>& symbols);
// n symbols uniform in 0..9.
std::vector<int> random_symbols(std::mt19937_64& rng, int n);

// A training batch: `batch` sequences with n uniform in [1, train_max] (digits per operand for add), packed.
void training_batch(Task task, int batch, int train_max, std::mt19937_64& rng, PackedBatch& out);

// The evaluation lengths: n = 5, 10, ... up to test_max, plus test_max itself when it is not a multiple of 5.
std::vector<int> test_lengths(int test_max);
// The fixed test set of one length: `count` sequences from a stream seeded by (seed, n) only, so every
// encoding and every run with that seed is tested on the same sequences.
std::vector<std::vector<int>> test_sequences(Task task, int n, int count, std::uint64_t seed);

}  // namespace peviz::train
