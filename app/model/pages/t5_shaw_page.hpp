// The t5 shaw page's options and cached results (its update, export, caption and state JSON: t5_shaw_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

// The parts a presented lesson step can name in its "show" list (PageModel::parts), in drawing order: notes: the
// exact range and the clipping in words; buckets: T5's bucket map; shaw: Shaw's clipped distances; curve: bucket
// against distance.
inline constexpr const char *kT5ShawNotes = "notes", *kT5ShawBuckets = "buckets", *kT5ShawShaw = "shaw",
                            *kT5ShawCurve = "curve";
inline constexpr std::array<const char*, 4> kT5ShawParts = {kT5ShawNotes, kT5ShawBuckets, kT5ShawShaw, kT5ShawCurve};

struct T5ShawOptions {
  int seq_len = int(limits::t5_shaw_seq_len.fallback);
  int num_buckets = int(limits::num_buckets.fallback);
  int max_distance = int(limits::t5_max_distance.fallback);
  bool causal = false;
  int max_relative = int(limits::t5_shaw_max_relative.fallback);  // Shaw k
  // cache
  Matrix buckets, shaw;           // L x L
  std::vector<float> bucket_of_distance;  // r = -(L-1)..L-1
  plot::HeatmapImage buckets_image, shaw_image;
};

}  // namespace peviz::app
