// Exact-match evaluation by length in one teacher-forced pass per sequence; greedy decode; attention maps.
#include "core/train/evaluate.hpp"

#include <algorithm>

namespace peviz::train {

namespace {

int argmax_row(const Model<float>& m, int token) {
  const float* row = m.act(Act::logits) + std::size_t(token) * std::size_t(m.config.vocab);
  return int(std::max_element(row, row + m.config.vocab) - row);
}

// Packs as many sequences from `next` on as fit the model; returns the index after the last packed.
std::size_t pack_from(const Model<float>& m, const std::vector<std::vector<int>>& seqs,
                      const std::vector<std::vector<int>>& ids, std::size_t next, PackedBatch& b) {
  b.clear();
  std::size_t att = 0;
  const std::size_t L = seqs[next].size(), per_seq = std::size_t(m.config.heads) * L * L;
  while (next < seqs.size() && std::size_t(b.n_tokens()) + L <= std::size_t(m.token_capacity) &&
         att + per_seq <= m.att_capacity) {
    b.append(seqs[next], answer_start(seqs[next]), ids[next]);
    ++next;
    att += per_seq;
  }
  return next;
}

}  // namespace

std::vector<LengthAccuracy> evaluate_lengths(Model<float>& m, Task task, const std::vector<int>& lengths, int samples,
                                             std::uint64_t seed) {
  std::vector<LengthAccuracy> out;
  PackedBatch b;
  for (int n : lengths) {
    LengthAccuracy acc{n, std::nullopt};
    if (length_defined(m.config, task, n)) {
      const std::vector<std::vector<int>> seqs = test_sequences(task, n, samples, seed);
      const std::vector<std::vector<int>> ids =
          test_positions(sampler_of(m.config.pe), task, n, samples, m.config.position_range, seed);
      int exact = 0;
      for (std::size_t next = 0; next < seqs.size();) {
        next = pack_from(m, seqs, ids, next, b);
        model_forward(m, b);
        for (int s = 0; s < b.n_seqs(); ++s) {
          bool all = true;
          for (int t = b.seq_start[std::size_t(s)]; t < b.seq_start[std::size_t(s)] + b.seq_len[std::size_t(s)]; ++t)
            all = all && (b.targets[std::size_t(t)] < 0 || argmax_row(m, t) == b.targets[std::size_t(t)]);
          exact += all ? 1 : 0;
        }
      }
      acc.exact_match = double(exact) / double(samples);
    }
    out.push_back(acc);
  }
  return out;
}

bool length_defined(const ModelConfig& c, Task task, int n) {
  // The rows a sequence's ids need: as many as its tokens, but coupled and abacus ids repeat and span fewer.
  return mechanism_of(c.pe) != PositionMechanism::trainable_table || test_rows(sampler_of(c.pe), task, n) <= c.position_rows();
}

std::vector<int> greedy_answer(Model<float>& m, const std::vector<int>& sequence, const std::vector<int>& ids) {
  const int start = answer_start(sequence);
  std::vector<int> prefix(sequence.begin(), sequence.begin() + start + 1);  // up to the last SEP
  std::vector<int> answer;
  const std::vector<int> all_ids = ids.empty() ? contiguous_positions(int(sequence.size())) : ids;
  PackedBatch b;
  for (int k = start + 1; k < int(sequence.size()); ++k) {
    b.clear();
    b.append(prefix, int(prefix.size()), all_ids);  // no targets: only the logits are read
    model_forward(m, b);
    const int next = argmax_row(m, b.n_tokens() - 1);
    answer.push_back(next);
    prefix.push_back(next);
  }
  return answer;
}

std::vector<std::vector<Matrix>> attention_maps(Model<float>& m, const std::vector<int>& sequence,
                                                const std::vector<int>& ids) {
  PackedBatch b;
  b.append(sequence, int(sequence.size()), ids);
  model_forward(m, b);
  const std::size_t L = sequence.size();
  std::vector<std::vector<Matrix>> maps(std::size_t(m.config.layers));
  for (int l = 0; l < m.config.layers; ++l)
    for (int h = 0; h < m.config.heads; ++h) {
      Matrix a(L, L);
      const float* src = m.act(Act::att) + std::size_t(l) * m.att_capacity + std::size_t(h) * L * L;
      std::copy(src, src + L * L, a.data.begin());
      maps[std::size_t(l)].push_back(std::move(a));
    }
  return maps;
}

}  // namespace peviz::train
