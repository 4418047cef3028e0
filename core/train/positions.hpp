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
// - abacus: every digit gets its 1-based index within its run of digits (its number), shifted by an offset k drawn
//   once per training batch, uniform in [0, range - longest run); every other token gets 0 (McLeish et al., NeurIPS
//   2024, "Transformers Can Do Arithmetic with the Right Embeddings"; mcleish7/arithmetic, abacus.py, which draws k
//   in [0, max_k] per forward pass and uses k = 0 at test, as here). Our numbers are written least significant digit
//   first, as their code needs, so on add a_k, b_k and c_k share the id o + 1 + k:
//     add:     BOS 0, a_k o + 1 + k, SEP 0, b_k o + 1 + k, SEP 0, c_k o + 1 + k (k = 0..n), EOS 0   (o the offset)
//     copy, reverse, sort: BOS 0, x_i o + i, SEP 0, y_k o + k, EOS 0
//   The ids say which digit of a number a token is, not where it stands in the sequence.
// - random-start: contiguous ids from a start drawn per sequence, uniform in [0, range - L] (SHAPE, Kiyono et al.,
//   EMNLP 2021, "Shifted Absolute Position Embedding", shift 0 at test as here; the random start of Cho et al. given
//   to plain ids): the high rows of a table are trained although no training sequence is long.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/train/packed_batch.hpp"
#include "core/train/tasks.hpp"

namespace peviz::train {

enum class PositionSampler { contiguous, randomized, coupled, abacus, random_start };
inline constexpr PositionSampler kAllPositionSamplers[] = {PositionSampler::contiguous, PositionSampler::randomized,
                                                           PositionSampler::coupled, PositionSampler::abacus,
                                                           PositionSampler::random_start};
// "contiguous", "randomized", "coupled", "abacus", "random-start" (the lab table's JSON)
std::string_view to_string(PositionSampler s);

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
// The abacus ids above with offset `offset`.
std::vector<int> abacus_positions(Task task, int n, int offset);
// The longest run of digits in a sequence of length n: n, or n + 1 on add (the sum); the largest abacus id at 0.
int abacus_span(Task task, int n);
// The rows of a position table a test sequence of length n needs: its largest test id + 1.
int test_rows(PositionSampler s, Task task, int n);
// Training: a sequence's ids; randomized, coupled and random-start draw from rng (coupled: start uniform in
// [0, range - coupled_span); random-start: uniform in [0, range - L]; abacus: an offset of its own, rng() % (range - abacus_span)). Training batches give abacus one
// offset per batch: see below.
std::vector<int> training_positions(PositionSampler s, Task task, int n, int range, std::mt19937_64& rng);
// Rewrites the positions of every sequence of a packed training batch (built by training_batch) with the sampler;
// abacus first draws the batch's offset, rng() % (range - the batch's longest abacus_span).
void sample_batch_positions(PositionSampler s, Task task, int range, std::mt19937_64& rng, PackedBatch& b);
// Test: the ids of the `count` test sequences of n symbols: contiguous (random-start from 0); coupled and abacus
// with start 0; randomized from a
// stream seeded by (seed, n) only, apart from the symbols' stream, so every run of a seed sees the same ids.
std::vector<std::vector<int>> test_positions(PositionSampler s, Task task, int n, int count, int range,
                                             std::uint64_t seed);

// What training showed of positions: every id below max_id + 1, and query-key id differences up to max_distance.
// contiguous: the longest training sequence's ids 0..L-1 (L = sequence_length(task, train_max)), distances up to
// L - 1; randomized: every id of [0, range), distances up to range - 1; coupled: every id of [0, range) (the random
// start), but within a sequence ids span only coupled_span + 1 values, so distances up to
// coupled_span(task, train_max) (EOS back to BOS, or SEP back to BOS on reverse); abacus: every id of [0, range),
// distances up to abacus_span(task, train_max); random-start: every id of [0, range), distances up to L - 1.
struct PositionCoverage {
  int max_id = 0;
  int max_distance = 0;
};
PositionCoverage training_coverage(PositionSampler s, Task task, int train_max, int range);
// The longest test length n whose ids and id distances all lie inside that coverage: train_max for contiguous
// ids, and for coupled ids too (their distances grow with n); for randomized and random-start ids every n whose
// sequence fits the range, length_of_sequence(task, range); for abacus ids every n whose longest number's ids fit.
int covered_length(PositionSampler s, Task task, int train_max, int range);
// The largest |id difference| between a token and an earlier one in `ids` (what a query of that sequence meets).
int largest_distance(const std::vector<int>& ids);

}  // namespace peviz::train
