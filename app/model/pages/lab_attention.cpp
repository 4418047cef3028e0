// The Lab's attention panel from the runs: tiles of every layer and head, the answer query's rows, the position ids
// and what training covered, for the run the panel shows and the one beside it.
#include "app/model/pages/lab_attention.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "app/model/app_update.hpp"
#include "app/model/page_model.hpp"
#include "core/train/positions.hpp"

namespace peviz::app {

using train::PositionEncoding;
using train::TrainSettings;

namespace {

// The query that predicts answer token k (y1 .. yn or c0 .. cn, then EOS) is token start + k, start the last SEP.
int first_wrong_query(const std::vector<int>& sequence, const std::vector<int>& answer, int start) {
  for (int k = 0; k < int(answer.size()); ++k)
    if (answer[std::size_t(k)] != sequence[std::size_t(start + 1 + k)]) return start + k;
  return -1;
}

// Ids as runs of consecutive values (0 1 2 3 7 8 -> 0-3, 7-8), a run split where it passes `max_seen`.
std::vector<LabAttention::IdRun> id_runs(const std::vector<int>& ids, int max_seen) {
  std::vector<LabAttention::IdRun> runs;
  for (int id : ids) {
    const bool seen = id <= max_seen;
    if (!runs.empty() && id == runs.back().last + 1 && seen == runs.back().seen) runs.back().last = id;
    else runs.push_back({id, id, seen});
  }
  return runs;
}

// The query a run's row shows on its own: the first wrong answer token's query, else the last.
int own_query(const LabAttention& a) { return a.wrong >= 0 ? a.wrong : a.tokens - 1; }

// The attention of query `query` over keys 0..query, one row per layer and head, from the tiled maps.
void set_query_row(LabAttention& a, int query) {
  const std::size_t L = std::size_t(a.tokens), q = std::size_t(query), tiles = std::size_t(a.layers * a.heads);
  a.query = query;
  a.query_rows = Matrix(tiles, q + 1);  // the causal part: keys 0..query
  for (std::size_t t = 0; t < tiles; ++t) {
    const std::size_t r0 = (t / std::size_t(a.heads)) * (L + 1), c0 = (t % std::size_t(a.heads)) * (L + 1);
    std::copy_n(a.maps.row(r0 + q) + c0, q + 1, a.query_rows.row(t));
  }
  set_heatmap(a.query_image, a.query_rows, plot::Colormap::viridis, 0.0, 1.0);
}

// Two runs side by side show the same query: the earliest first wrong one of either (where one of them fails), else
// the last; one run alone shows its own.
void align_query_rows(LabOptions& o) {
  const bool paired = o.beside_pe >= 0 && o.attention.defined && o.beside.defined &&
                      o.attention.tokens == o.beside.tokens;
  const auto align = [&](LabAttention& a) {
    const int query = paired ? std::min(own_query(o.attention), own_query(o.beside)) : own_query(a);
    if (a.defined && a.query != query) set_query_row(a, query);
  };
  align(o.attention);
  if (o.beside_pe >= 0) align(o.beside);
}

// The attention maps of the chosen test sequence under the chosen encoding's run (its first seed), tiled
// [layer rows] x [head columns] (masked keys above the diagonal have probability 0), with the tokens and
// the query of the first wrong answer token.
void refresh_attention(const LabOptions& o, int pe_index, LabAttention& a) {
  const PositionEncoding pe = train::kAllPositionEncodings[std::size_t(pe_index)];
  std::size_t index = o.views.size();
  const train::TrainRun* run = first_run_of(o, pe, &index);
  a.defined = false;
  a.wrong = -1;
  a.tokens_ids.clear();
  a.position_ids.clear();
  a.answer.clear();
  if (!run) {
    a.note = index < o.views.size() ? std::string(train::to_string(pe)) + " is queued: its maps show once it starts"
                                              : "no run of " + std::string(train::to_string(pe)) + " yet: tick it and press Train";
    return;
  }
  const TrainSettings& t = run->settings();
  const int n = std::min(o.attention_length, std::max(t.train_max, t.test_max));
  const int sample = std::min(o.attention_sample, t.test_samples - 1);
  const auto maps = run->attention_maps(n, sample);
  if (!maps) {
    a.note = "not defined: a sequence of n = " + std::to_string(n) + " has " +
                       std::to_string(train::sequence_length(t.task, n)) + " tokens, the learned table only " +
                       std::to_string(train::sequence_length(t.task, t.train_max)) + " rows";
    return;
  }
  const std::size_t L = std::size_t(train::sequence_length(t.task, n));
  Matrix stacked(maps->size() * (*maps)[0].size() * L, L);
  std::size_t tile = 0;
  for (const auto& layer : *maps)
    for (const Matrix& head : layer) {
      for (std::size_t i = 0; i < L; ++i)
        std::copy_n(head.row(i), L, stacked.row(tile * L + i));
      ++tile;
    }
  a.layers = int(maps->size());
  a.heads = int((*maps)[0].size());
  a.tokens = int(L);
  a.task = t.task;
  a.tokens_ids = run->test_sequence(n, sample);
  a.answer_start = train::answer_start(a.tokens_ids);
  a.position_ids = run->test_position_ids(n, sample);
  a.coverage = train::training_coverage(train::sampler_of(t.pe), t.task, t.train_max, t.position_range);
  a.widest = train::largest_distance(a.position_ids);
  a.id_runs = id_runs(a.position_ids, a.coverage.max_id);
  a.answer = run->greedy_answer(n, sample);
  a.wrong = first_wrong_query(a.tokens_ids, a.answer, a.answer_start);
  a.maps = tile_heads(stacked, int(tile), int(L), a.heads);
  set_heatmap(a.maps_image, a.maps, plot::Colormap::viridis, 0.0, 1.0);
  a.maps_image.tile_side = int(L), a.maps_image.tiles_across = a.heads;
  a.maps_image.tile_count = int(tile), a.maps_image.tiles_are_layers = true;
  a.maps_image.nan_meaning = plot::NanMeaning::masked;  // only the gutters between tiles are NaN: grey
  a.defined = true;
  a.note.clear();
  set_query_row(a, own_query(a));
}

// What the attention maps were computed for: the runs, the chosen encoding and length, and while its run
// trains, its step in fiftieths of the run (the maps follow training without a forward pass every frame).
std::string attention_key(const LabOptions& o, int pe_index) {
  std::string key = std::to_string(o.generation) + " " + std::to_string(pe_index) + " " +
                    std::to_string(o.attention_length) + " " + std::to_string(o.attention_sample);
  std::size_t i = 0;
  if (!first_run_of(o, train::kAllPositionEncodings[std::size_t(pe_index)], &i) || i >= o.views.size()) return key;
  const LabRunView& v = o.views[i];
  return key + " " + std::to_string(int(v.state)) + " " +
         std::to_string(v.snapshot.step / std::max(1, v.snapshot.steps / 50));
}

// Recomputes a panel's attention when what it shows has changed (-1: no run chosen, the panel empty; its images
// keep their versions, which the GL layer's textures follow).
void refresh_attention_if_changed(const LabOptions& o, int pe_index, LabAttention& a) {
  if (pe_index < 0) {
    a.key.clear(), a.defined = false, a.note.clear();
    return;
  }
  if (std::string key = attention_key(o, pe_index); key != a.key) {
    a.key = std::move(key);
    refresh_attention(o, pe_index, a);
  }
}

// Two runs on one query: their rows stacked (the first run above, a masked gutter row, the second below), one
// picture on one colour scale.
void refresh_pair_rows(LabOptions& o) {
  const LabAttention &a = o.attention, &b = o.beside;
  if (o.beside_pe < 0 || !a.defined || !b.defined || a.query != b.query) {
    o.pair_rows = Matrix();
    return;
  }
  const std::size_t cols = a.query_rows.cols;
  o.pair_rows = Matrix(a.query_rows.rows + 1 + b.query_rows.rows, cols, std::numeric_limits<float>::quiet_NaN());
  for (std::size_t r = 0; r < a.query_rows.rows; ++r) std::copy_n(a.query_rows.row(r), cols, o.pair_rows.row(r));
  for (std::size_t r = 0; r < b.query_rows.rows; ++r)
    std::copy_n(b.query_rows.row(r), cols, o.pair_rows.row(a.query_rows.rows + 1 + r));
  set_heatmap(o.pair_image, o.pair_rows, plot::Colormap::viridis, 0.0, 1.0);
  o.pair_image.nan_meaning = plot::NanMeaning::masked;  // the gutter between the two runs: grey
}

}  // namespace

void refresh_lab_attention(LabOptions& o) {
  refresh_attention_if_changed(o, o.attention_pe, o.attention);
  refresh_attention_if_changed(o, o.beside_pe, o.beside);
  const int before = o.attention.query, before_beside = o.beside.query;
  const std::string key = o.attention.key + "|" + o.beside.key;
  align_query_rows(o);
  if (key != o.pair_key || before != o.attention.query || before_beside != o.beside.query) {
    o.pair_key = key;
    refresh_pair_rows(o);
  }
}

}  // namespace peviz::app
