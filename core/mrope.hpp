// Multimodal RoPE (Qwen2-VL and later): the three position ids (t, h, w) of a text + image + text sequence, and the
// score of a relative offset along one axis with the pairs that turn with that axis.
//
// Source: huggingface/transformers models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index (one image,
// grid_t = 1): text tokens take t = h = w = their index; the image's tokens (its H x W grid after spatial merging,
// row by row) take t = s, h = s + row, w = s + column, where s is the position after the text before it; the text
// after continues from the largest id so far + 1. Which pair turns with which axis: ModelConfig::pair_axis.
#pragma once
#include <span>
#include <vector>

#include "core/model_config.hpp"

namespace peviz {

struct MropeSequence {
  int text_before = 4;  // text tokens before the image
  int grid_h = 4;       // the image's rows of tokens (after spatial merging)
  int grid_w = 6;       // its columns
  int text_after = 4;   // text tokens after it
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

}  // namespace peviz
