// Tests for core/base/matrix: reshape reuses its buffer for small changes and gives a big one back.
#include <catch2/catch.hpp>

#include "core/base/matrix.hpp"

using namespace peviz;

TEST_CASE("reshape keeps the buffer while the size changes a little") {
  Matrix m(1024, 2048);
  const float* before = m.data.data();
  m.reshape(1000, 2048);
  CHECK(m.rows == 1000);
  CHECK(m.cols == 2048);
  CHECK(m.data.size() == 1000u * 2048u);
  CHECK(m.data.data() == before);  // no reallocation during a drag
  m.reshape(1024, 2048);
  CHECK(m.data.data() == before);
}

TEST_CASE("reshape gives a big buffer back when the new size is under half of it") {
  Matrix m(8192, 4096);
  REQUIRE(m.data.capacity() >= 8192u * 4096u);
  m.reshape(8192, 2100);  // just over half: kept
  CHECK(m.data.capacity() >= 8192u * 4096u);
  m.reshape(8192, 2000);  // just under half: given back
  CHECK(m.data.capacity() < 8192u * 4096u / 2);
  m.reshape(128, 128);
  CHECK(m.data.size() == 128u * 128u);
  CHECK(m.data.capacity() < 8192u * 4096u / 4);
  Matrix small(64, 64);  // under the floor: kept, however small the new size
  const std::size_t capacity = small.data.capacity();
  small.reshape(1, 1);
  CHECK(small.data.capacity() == capacity);
}
