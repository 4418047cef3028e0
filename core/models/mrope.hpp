// Multimodal RoPE (Qwen2-VL and later): the three position ids (t, h, w) of a text + image + text sequence, and the
// score of a relative offset along one axis with the pairs that turn with that axis.
//
// Source: huggingface/transformers models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index (one image,
// grid_t = 1): text tokens take t = h = w = their index; the image's tokens (its H x W grid after spatial merging,
// row by row) take t = s, h = s + row, w = s + column, where s is the position after the text before it; the text
// after continues from the largest id so far + 1. Which pair turns with which axis: ModelConfig::pair_axis.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"
#include "core/models/model_config.hpp"

namespace peviz {

struct MropeSequence {
  int text_before = int(limits::mrope_text_before.fallback);  // text tokens before the image
  int grid_h = int(limits::mrope_grid_h.fallback);  // the image's rows of tokens (after spatial merging)
  int grid_w = int(limits::mrope_grid_w.fallback);  // its columns
  int text_after = int(limits::mrope_text_after.fallback);    // text tokens after it
};

// ParamError naming the flag (limits::mrope_*) of the first value out of range.
void validate(const MropeSequence& s);

struct MropePositions {
  std::vector<int> t, h, w;  // one per token, in sequence order
  std::vector<bool> image;   // whether the token is one of the image's
};
MropePositions mrope_position_ids(const MropeSequence& s);

// For offsets d = 0..max_offset along axis `a`: (1 / n_a) * sum over the n_a pairs j with axes[j] == a of
// cos(d * inv_freq_j): 1 at d = 0, and how alike two tokens d apart along that axis look to q.k with q = k = ones
// (RoFormer's decay per axis). Empty when no pair turns with `a`. inv_freq and axes have one entry per pair.
std::vector<double> mrope_axis_score(std::span<const double> inv_freq, std::span<const RopeAxis> axes, RopeAxis a,
                                     int max_offset);

// How the pairs split between the axes: "interleaved: pairs 0, 1, 2, ... turn with t h w t h w ...; t 24, h 20,
// w 20 pairs" or "contiguous: pairs 0-15 t, 16-39 h, 40-63 w"; "" without M-RoPE.
std::string describe_pair_axis(std::span<const RopeAxis> axes);

// The score of every patch of an image of grid_h x grid_w tokens with the patch at (row, col), for q = k = ones:
// (1 / n) * sum over all n pairs of cos(offset_j * inv_freq_j), where offset_j is the two patches' offset along the
// axis pair j turns with (t: 0 inside one image). `flattened` scores them as plain RoPE over the image's tokens in
// sequence order instead (every pair turns with the token index: offset (dr * grid_w + dc)), what a 1D model sees.
// A grid_h x grid_w matrix, 1 at (row, col); ParamError for a sequence or patch out of range.
Matrix mrope_patch_scores(std::span<const double> inv_freq, std::span<const RopeAxis> axes, const MropeSequence& s,
                          int row, int col, bool flattened);

}  // namespace peviz
