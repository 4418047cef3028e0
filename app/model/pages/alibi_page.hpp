// The alibi page's options and cached results (its update, export, caption and state JSON: alibi_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

// The parts a presented lesson step can name in its "show" list (PageModel::parts), in drawing order: notes: the
// slopes' formula and values; slopes: the slope per head; head: the shown head's bias; heads: every head's bias.
inline constexpr const char *kAlibiNotes = "notes", *kAlibiSlopes = "slopes", *kAlibiHead = "head",
                            *kAlibiHeads = "heads";
inline constexpr std::array<const char*, 4> kAlibiParts = {kAlibiNotes, kAlibiSlopes, kAlibiHead, kAlibiHeads};

struct AlibiOptions {
  int heads = int(limits::alibi_heads.fallback);
  int seq_len = int(limits::alibi_seq_len.fallback);
  bool bidirectional = false;
  int head = 0;                   // head shown large
  bool per_head_scale = false;    // the tiles: each head divided by its own largest |bias| (else one shared scale)
  // cache
  std::vector<double> slopes;
  std::vector<float> slopes_f;
  Matrix head_bias;               // L x L of `head` (NaN above the diagonal when causal)
  Matrix grid;                    // every head tiled in a ceil(sqrt(H)) grid, NaN gutters
  int grid_cols = 1;
  // The heads' grid's columns the view asks for, the count that makes its tiles largest in its room (0: about
  // square, sqrt(heads)); the update tiles the heads so.
  int grid_cols_wanted = 0;
  plot::HeatmapImage head_image, grid_image;
};

}  // namespace peviz::app
