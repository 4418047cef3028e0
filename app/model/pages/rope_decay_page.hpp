// The rope decay page's options and cached results (its update, export, caption and state JSON: rope_decay_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/rope/rope.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

struct RopeDecayOptions {
  int head_dim = 128;
  int max_distance = 1000;
  std::array<bool, 3> base_on{true, true, true};  // bases 10000, 500000, 1e6
  bool show_bound = true;
  // cache, per base: the score divided by its value at r = 0, and RoFormer's relative upper bound in its own
  // units ((2/R) sum |S_i|, (R/2 + 1)/2 at r = 0). Two quantities on two scales: drawn in two panels, never
  // one over the other (the bound bounds the score only times max_i |h_{i+1} - h_i|, RoFormer eq. 37).
  std::array<std::vector<float>, 3> score, bound;
  // While `from_model`, head_dim is the loaded model's rotary dim (PageStates::rope_model) and its own base is
  // drawn beside the three; moving head_dim clears it.
  bool from_model = false;
  std::string model_label;                              // cache: "name, base b", the legend's label
  std::vector<float> model_base_score, model_base_bound;  // cache: as score and bound, at the model's base
  // The context-extension page's compared models instead of the three bases: each model's own head and scaled
  // frequencies (core/models/model_comparison.hpp model_rope), one colour each as there.
  bool models = false;
  std::vector<std::string> model_names;                 // cache, per compared model
  std::vector<std::vector<float>> model_score, model_bound;
};

inline constexpr double kDecayBases[3] = {10000.0, 500000.0, 1e6};
// The parts a presented lesson step can name in its "show" list (PageModel::parts), in drawing order: notes: what the
// two plots are; score: the score of an all-ones query and key; bound: RoFormer's relative upper bound.
inline constexpr const char *kRopeDecayNotes = "notes", *kRopeDecayScore = "score", *kRopeDecayBound = "bound";
inline constexpr std::array<const char*, 3> kRopeDecayParts = {kRopeDecayNotes, kRopeDecayScore, kRopeDecayBound};

}  // namespace peviz::app
