// Tests for core/train/packed_batch: sequences packed end to end, positions restarting at 0, next-token targets.
#include "core/train/packed_batch.hpp"

#include <vector>

#include <catch2/catch.hpp>

using namespace peviz::train;

TEST_CASE("append packs sequences end to end with their own positions and next-token targets", "[train][packed_batch]") {
  PackedBatch b;
  b.append({1, 4, 2}, 0);
  CHECK(b.tokens == std::vector<int>{1, 4, 2});
  CHECK(b.targets == std::vector<int>{4, 2, -1});  // the last token has nothing to predict
  CHECK(b.n_targets == 2);
  b.append({3, 0, 2, 5, 1}, 2);  // scored from token 2 on: L - 1 - first_target = 2 targets
  CHECK(b.tokens == std::vector<int>{1, 4, 2, 3, 0, 2, 5, 1});
  CHECK(b.positions == std::vector<int>{0, 1, 2, 0, 1, 2, 3, 4});
  CHECK(b.targets == std::vector<int>{4, 2, -1, -1, -1, 5, 1, -1});
  CHECK(b.seq_start == std::vector<int>{0, 3});
  CHECK(b.seq_len == std::vector<int>{3, 5});
  CHECK(b.n_targets == 4);
  CHECK(b.n_tokens() == 8);
  CHECK(b.n_seqs() == 2);
}

TEST_CASE("a one-token sequence has no target; clear empties everything", "[train][packed_batch]") {
  PackedBatch b;
  b.append({7}, 0);
  CHECK(b.targets == std::vector<int>{-1});
  CHECK(b.n_targets == 0);
  b.append({1, 2}, 5);  // first_target past the end: nothing scored
  CHECK(b.n_targets == 0);
  b.clear();
  CHECK(b.n_tokens() == 0);
  CHECK(b.n_seqs() == 0);
  CHECK(b.n_targets == 0);
  CHECK(b.positions.empty());
  CHECK(b.seq_len.empty());
  b.append({5, 6}, 0);  // a cleared batch packs from token 0 again
  CHECK(b.seq_start == std::vector<int>{0});
  CHECK(b.targets == std::vector<int>{6, -1});
}
