// Packing sequences end to end with per-sequence positions and next-token targets.
#include "core/train/packed_batch.hpp"

namespace peviz::train {

void PackedBatch::clear() {
  tokens.clear();
  targets.clear();
  positions.clear();
  seq_start.clear();
  seq_len.clear();
  n_targets = 0;
}

void PackedBatch::append(const std::vector<int>& seq, int first_target) {
  const int len = int(seq.size());
  seq_start.push_back(n_tokens());
  seq_len.push_back(len);
  for (int i = 0; i < len; ++i) {
    tokens.push_back(seq[std::size_t(i)]);
    positions.push_back(i);
    const bool scored = i >= first_target && i + 1 < len;
    targets.push_back(scored ? seq[std::size_t(i) + 1] : -1);
    n_targets += scored ? 1 : 0;
  }
}

void PackedBatch::append(const std::vector<int>& seq, int first_target, const std::vector<int>& ids) {
  const std::size_t first = positions.size();
  append(seq, first_target);
  for (std::size_t i = 0; i < seq.size() && i < ids.size(); ++i) positions[first + i] = ids[i];
}

}  // namespace peviz::train
