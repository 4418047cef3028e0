// Test helper: settings of a run that trains in milliseconds, and a bit-for-bit comparison of float buffers.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/train/run.hpp"

// 1 layer, d_model 16, batch 4, trained to n = 4, tested at n = 5 and 8 on 5 sequences each.
inline peviz::train::TrainSettings tiny_run(peviz::train::PositionEncoding pe, std::uint64_t seed, int steps = 20) {
  peviz::train::TrainSettings s;
  s.pe = pe;
  s.layers = 1;
  s.d_model = 16;
  s.batch = 4;
  s.steps = steps;
  s.warmup = 2;
  s.train_max = 4;
  s.test_max = 8;
  s.test_samples = 5;
  s.seed = seed;
  return s;
}

// d_model 32, batch 8, 30 steps, trained to n = 6, tested up to n = 12 on 10 sequences each.
inline peviz::train::TrainSettings quick_run(peviz::train::PositionEncoding pe, std::uint64_t seed) {
  peviz::train::TrainSettings s;
  s.pe = pe;
  s.d_model = 32;
  s.batch = 8;
  s.steps = 30;
  s.warmup = 5;
  s.train_max = 6;
  s.test_max = 12;
  s.test_samples = 10;
  s.seed = seed;
  return s;
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), 4 * a.size()) == 0;
}
