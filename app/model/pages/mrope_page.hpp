// The multimodal RoPE page's options and cached results (its update, export, caption and state JSON: mrope_page.cpp).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/base/matrix.hpp"
#include "core/models/model_config.hpp"
#include "core/models/mrope.hpp"

namespace peviz::app {

struct PageStates;

struct MropeOptions {
  // The M-RoPE model shown: a shipped one, or the loaded model when it has M-RoPE (then the page follows it).
  std::shared_ptr<const ModelConfig> model;  // null until the first update picks kDefaultMropeModel
  MropeSequence sequence;
  int patch_row = int(limits::mrope_patch_row.fallback);  // the patch scored against the others (clamped)
  int patch_col = int(limits::mrope_patch_col.fallback);
  int max_offset = int(limits::mrope_max_offset.fallback);
  // cache
  std::array<std::vector<float>, 3> ids;       // t, h, w position id per token (get_rope_index)
  std::vector<float> image_begin_end;          // the first image token and one past the last
  std::array<std::vector<float>, 3> axis_score;  // per axis, offsets 0..max_offset (empty: no pair turns with it)
  std::array<int, 3> axis_pairs{};             // pairs turning with t, h, w
  std::string pair_split;                      // describe_pair_axis of the model
  Matrix patch_score, flat_score;              // grid_h x grid_w: M-RoPE, and 1D RoPE over the flattened image
  plot::HeatmapImage patch_image, flat_image;
};

// The M-RoPE models peviz ships and, first, the loaded model when it has M-RoPE.
std::vector<std::shared_ptr<const ModelConfig>> mrope_models(const PageStates& a);
// The RoPE model the user opened or chose (not the default one loaded at start) has no M-RoPE: the page keeps its
// own model and says so.
bool mrope_keeps_own_model(const PageStates& a);

}  // namespace peviz::app
