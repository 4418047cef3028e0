// The position ids a lab sequence is given: contiguous, randomized (Ruoss et al. 2023) or coupled (Cho et al. 2024).
//
// Every lab encoding reads position ids from PackedBatch::positions. The classic six use 0..L-1; the samplers
// here give the same mechanisms (a table, a rotation) ids that change what training covers:
// - randomized: a sequence of L tokens gets L ids drawn without replacement from [0, range) and sorted (Ruoss et
//   al., ACL 2023, "Randomized Positional Encodings Boost Length Generalization of Transformers";
//   google-deepmind/randomized_positional_encodings, models/positional_encodings.py). Every id below `range` and a
//   wide spread of distances occur in training, so a test sequence longer than any training one still sees ids and
//   distances the model has seen. Their code samples at test time too; so does peviz (test_positions): contiguous
//   ids at test would give distances (all 1 between neighbours) that training rarely showed.
// - coupled: an answer symbol gets the id of the input symbol it copies (Cho et al., NeurIPS 2024, "Position
//   Coupling: Improving Length Generalization of Arithmetic Transformers Using Task Structure";
//   HanseulJo/position-coupling, src/data/copy.py), all ids shifted by a random start in training and by 0 at test
//   (their start 1 at test; ours counts from 0). With BOS x1..xn SEP y1..yn EOS and start s:
//     copy:    BOS s, x_i s + i, SEP s,         y_k s + k,         EOS s + n + 1
//     reverse: BOS s, x_i s + i, SEP s + n + 1, y_k s + n + 1 - k, EOS s
//   so the token that predicts an answer symbol always finds it one id away (+1 on copy, -1 on reverse). This is
//   the task's structure put into the positions: it teaches what extrapolation needs, and has no meaning on sort.
//   On add, digits of equal significance share an id (Cho et al. §4, src/data/addition.py, with our operands written
//   least significant digit first as the answer is):
//     add:     BOS s, a_k s + 1 + k, SEP s + n + 1, b_k s + 1 + k, SEP s, c_k s + 1 + k (k = 0..n), EOS s + n + 2
//   so the token that predicts c_k (the last SEP, or c_(k-1)) sits one id below the digits c_k is made of.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/train/packed_batch.hpp"
#include "core/train/tasks.hpp"

namespace peviz::train {

enum class PositionSampler { contiguous, randomized, coupled };
inline constexpr PositionSampler kAllPositionSamplers[] = {PositionSampler::contiguous, PositionSampler::randomized,
                                                           PositionSampler::coupled};
std::string_view to_string(PositionSampler s);  // "contiguous", "randomized", "coupled" (the lab table's JSON)

// Empty when the sampler has a meaning on the task; otherwise why not (coupled on sort).
std::string sampler_refusal(PositionSampler s, Task task);
// The ids of one sequence: 0..length-1.
std::vector<int> contiguous_positions(int length);
// `length` distinct ids of [0, range), sorted: selection sampling (Knuth, TAOCP vol. 2, 3.4.2, Algorithm S), one
// draw rng() % (range - i) per candidate id i until all are chosen. Needs length <= range.
std::vector<int> randomized_positions(int length, int range, std::mt19937_64& rng);
// The coupled ids above with start `start` (copy, reverse or add).
std::vector<int> coupled_positions(Task task, int n, int start);
// The largest id coupled_positions gives above its start: n + 1, or n + 2 on add.
int coupled_span(Task task, int n);
// Training: a sequence's ids; randomized and coupled draw from rng (coupled: start uniform in
// [0, range - coupled_span)).
std::vector<int> training_positions(PositionSampler s, Task task, int n, int range, std::mt19937_64& rng);
// Rewrites the positions of every sequence of a packed training batch (built by training_batch) with the sampler.
void sample_batch_positions(PositionSampler s, Task task, int range, std::mt19937_64& rng, PackedBatch& b);
// Test: the ids of the `count` test sequences of n symbols: contiguous; coupled with start 0; randomized from a
// stream seeded by (seed, n) only, apart from the symbols' stream, so every run of a seed sees the same ids.
std::vector<std::vector<int>> test_positions(PositionSampler s, Task task, int n, int count, int range,
                                             std::uint64_t seed);

// What training showed of positions: every id below max_id + 1, and query-key id differences up to max_distance.
// contiguous: the longest training sequence's ids 0..L-1 (L = sequence_length(task, train_max)), distances up to
// L - 1; randomized: every id of [0, range), distances up to range - 1; coupled: every id of [0, range) (the random
// start), but within a sequence ids span only coupled_span + 1 values, so distances up to
// coupled_span(task, train_max) (EOS back to BOS, or SEP back to BOS on reverse).
struct PositionCoverage {
  int max_id = 0;
  int max_distance = 0;
};
PositionCoverage training_coverage(PositionSampler s, Task task, int train_max, int range);
// The longest test length n whose ids and id distances all lie inside that coverage: train_max for contiguous
// ids, and for coupled ids too (their distances grow with n); for randomized ids every n whose sequence fits the
// range, length_of_sequence(task, range).
int covered_length(PositionSampler s, Task task, int train_max, int range);
// The largest |id difference| between a token and an earlier one in `ids` (what a query of that sequence meets).
int largest_distance(const std::vector<int>& ids);

}  // namespace peviz::train
