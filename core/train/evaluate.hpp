// Evaluating a trained model: exact match by length, a literal greedy decode, attention maps.
#pragma once
#include <optional>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/train/model.hpp"
#include "core/train/tasks.hpp"

namespace peviz::train {

struct LengthAccuracy {
  int n = 0;                           // symbols per sequence
  std::optional<double> exact_match;   // fraction of test sequences answered exactly; nullopt = not defined
};

// Exact match of the whole answer (y1..yn EOS, or c0..cn EOS on add) under greedy decoding, per test length, on
// test_sequences(task, n, samples, seed). One forward pass per sequence suffices: greedy decoding
// answers exactly iff at every answer position the argmax under teacher forcing is the target (if
// every earlier prediction was right, the greedy prefix IS the teacher-forced prefix; at the first
// wrong argmax the greedy answer is wrong too). Test sequences are packed up to the model's
// capacity. Position ids: positions.hpp's test_positions for the encoding's sampler. A length whose sequences
// are longer than a learned table (sequence_length > learned_len) is not defined (nullopt): no position is clamped or wrapped.
std::vector<LengthAccuracy> evaluate_lengths(Model<float>& m, Task task, const std::vector<int>& lengths, int samples,
                                             std::uint64_t seed);

// The literal greedy decode, token by token from the prefix up to the last SEP, as many tokens as the sequence's
// answer and EOS (n + 1, or n + 2 on add): the reference the one-pass
// evaluation is tested against, and what a front end shows as "the model's answer".
// `ids`: the sequence's position ids (empty: 0..L-1); the prefix decoded so far keeps its own.
std::vector<int> greedy_answer(Model<float>& m, const std::vector<int>& sequence, const std::vector<int>& ids = {});
// Whether a test length is defined for the model (a learned table with a row for every id its sequences take).
bool length_defined(const ModelConfig& c, Task task, int n);

// Attention probabilities of every layer and head for one sequence: [layer][head] an L x L matrix,
// row = query i, column = key j, zero above the diagonal. Uses m's buffers (capacity for L tokens).
std::vector<std::vector<Matrix>> attention_maps(Model<float>& m, const std::vector<int>& sequence,
                                                const std::vector<int>& ids = {});

}  // namespace peviz::train
