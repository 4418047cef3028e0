// Variable-length sequences packed end to end: the input of every training-engine pass (no padding).
//
// Token t belongs to one sequence; positions restart at 0 in every sequence (or are given), and attention is
// block-causal (a token sees only the earlier tokens of its own sequence). targets[t] is the token the
// model should predict after token t, or -1 where no loss is taken.
#pragma once
#include <vector>

namespace peviz::train {

struct PackedBatch {
  std::vector<int> tokens;     // [n_tokens] token ids
  std::vector<int> targets;    // [n_tokens] next-token target, -1 = no loss here
  std::vector<int> positions;  // [n_tokens] position id: 0..L-1 in each sequence unless given (positions.hpp)
  std::vector<int> seq_start;  // [n_seqs] index of each sequence's first token
  std::vector<int> seq_len;    // [n_seqs] tokens in each sequence
  int n_targets = 0;           // entries of targets that are >= 0

  int n_tokens() const { return int(tokens.size()); }
  int n_seqs() const { return int(seq_start.size()); }
  void clear();
  // Appends one sequence of L tokens; token i (first_target <= i < L-1) gets target seq[i+1], so the
  // sequence contributes L - 1 - first_target targets.
  void append(const std::vector<int>& seq, int first_target);
  // The same with the sequence's position ids (one per token) in place of 0..L-1.
  void append(const std::vector<int>& seq, int first_target, const std::vector<int>& ids);
};

}  // namespace peviz::train
