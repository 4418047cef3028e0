// A dense row-major float32 matrix: the currency every core function takes and returns.
#pragma once
#include <cstddef>
#include <vector>

namespace peviz {

struct Matrix {
  std::size_t rows = 0;     // e.g. positions
  std::size_t cols = 0;     // e.g. channels
  std::vector<float> data;  // rows*cols values, row-major

  Matrix() = default;
  Matrix(std::size_t r, std::size_t c, float fill = 0.0f) : rows(r), cols(c), data(r * c, fill) {}

  // Resize without giving memory back: buffers are reused across recomputes.
  void reshape(std::size_t r, std::size_t c) {
    rows = r;
    cols = c;
    data.resize(r * c);
  }
  float& at(std::size_t r, std::size_t c) { return data[r * cols + c]; }
  float at(std::size_t r, std::size_t c) const { return data[r * cols + c]; }
  float* row(std::size_t r) { return data.data() + r * cols; }
  const float* row(std::size_t r) const { return data.data() + r * cols; }
  bool empty() const { return data.empty(); }
};

}  // namespace peviz
