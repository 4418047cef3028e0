// The t5 shaw page's options and cached results (its update, export, caption and state JSON: t5_shaw_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/matrix.hpp"

namespace peviz::app {

struct T5ShawOptions {
  int seq_len = 64;
  int num_buckets = 32;
  int max_distance = 128;
  bool causal = false;
  int max_relative = 8;           // Shaw k
  // cache
  Matrix buckets, shaw;           // L x L
  std::vector<float> bucket_of_distance;  // r = -(L-1)..L-1
  plot::HeatmapImage buckets_image, shaw_image;
};

}  // namespace peviz::app
