// The rope decay page's options and cached results (its update, export, caption and state JSON: rope_decay_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/rope.hpp"
#include "core/matrix.hpp"

namespace peviz::app {

struct RopeDecayOptions {
  int head_dim = 128;
  int max_distance = 1000;
  std::array<bool, 3> base_on{true, true, true};  // bases 10000, 500000, 1e6
  bool show_bound = true;
  // cache: per base, rope_decay columns normalised by their value at r = 0
  std::array<std::vector<float>, 3> score, bound;
};

inline constexpr double kDecayBases[3] = {10000.0, 500000.0, 1e6};

}  // namespace peviz::app
