// The precision page's options and cached results (its update, export, caption and state JSON: precision_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/rope/precision.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

struct PrecisionOptions {
  bool use_rope = true;           // RoPE (head_dim, base) or the sidebar's sinusoid frequencies
  int head_dim = 128;
  double base = 10000.0;
  bool from_model = false;        // head_dim and base are the loaded model's rotary dim and base; a knob moved clears it
  int max_position_log2 = 20;     // positions 1 .. 2^this
  // cache
  std::vector<float> log2_position;
  std::array<std::vector<float>, 3> error;  // fp32, bf16, fp16, radians
  std::array<double, 3> indistinguishable{};  // first t with fl(t+1) == fl(t)
};

}  // namespace peviz::app
