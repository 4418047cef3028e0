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

  // Buffers above this many floats (4 MiB) give memory back when reshaped to under half of it.
  static constexpr std::size_t kShrinkFloor = std::size_t(1) << 20;

  // Resize reusing the buffer (no allocation while a drag changes the size a little), except that a
  // big buffer reshaped to under half its capacity is shrunk: without it, a window that once showed
  // L = 8192 x d_model = 4096 kept those 128 MiB for good (found by peviz --monkey's RSS check). At a
  // quarter, a table dragged back to its starting size still held up to four times its bytes.
  void reshape(std::size_t r, std::size_t c) {
    rows = r;
    cols = c;
    data.resize(r * c);
    if (data.capacity() > kShrinkFloor && data.size() < data.capacity() / 2) data.shrink_to_fit();
  }
  float& at(std::size_t r, std::size_t c) { return data[r * cols + c]; }
  float at(std::size_t r, std::size_t c) const { return data[r * cols + c]; }
  float* row(std::size_t r) { return data.data() + r * cols; }
  const float* row(std::size_t r) const { return data.data() + r * cols; }
  bool empty() const { return data.empty(); }
};

}  // namespace peviz
