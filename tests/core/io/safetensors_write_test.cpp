// Writing .safetensors: byte layout, and a round trip through core's reader with metadata.
#include <cstring>

#include <catch2/catch.hpp>

#include "core/io/safetensors.hpp"

using namespace peviz;

TEST_CASE("safetensors writer round-trips through the reader", "[safetensors]") {
  const std::vector<float> a = {1.5f, -2.0f, 3.25f, 0.0f, 7.0f, -0.125f}, b = {42.0f};
  const std::string bytes = safetensors_bytes({{"table", {2, 3}, a}, {"scalar", {1}, b}}, {{"task", "copy"}});
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  CHECK(n % 8 == 0);
  CHECK(bytes.size() == 8 + n + 4 * 7);
  const SafetensorsIndex idx = parse_safetensors_index(bytes, bytes.size());
  REQUIRE(idx.tensors.size() == 2);
  CHECK(idx.metadata.at("task") == "copy");
  const Matrix m = parse_safetensors_matrix(bytes, "table");
  CHECK(m.rows == 2);
  CHECK(m.cols == 3);
  CHECK(m.data == a);
  CHECK(idx.tensors[0].name == "scalar");
  CHECK(idx.tensors[0].shape == std::vector<std::uint64_t>{1});
}

TEST_CASE("float to half: every half value round-trips, ties go to even, overflow to infinity", "[safetensors]") {
  int mismatches = 0;
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    const bool nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
    if (nan) {
      const std::uint16_t back = float_to_half_bits(half_bits_to_float(std::uint16_t(h)));
      mismatches += !((back & 0x7c00u) == 0x7c00u && (back & 0x3ffu) != 0);  // NaN stays NaN
    } else {
      mismatches += float_to_half_bits(half_bits_to_float(std::uint16_t(h))) != h;
    }
  }
  CHECK(mismatches == 0);
  CHECK(float_to_half_bits(1.0f + 0x1p-11f) == 0x3c00u);            // halfway between 1 and 1 + 2^-10: even (1)
  CHECK(float_to_half_bits(1.0f + 3 * 0x1p-11f) == 0x3c02u);        // halfway, rounds up to the even 1 + 2^-9
  CHECK(float_to_half_bits(1.0f + 0x1p-11f + 0x1p-20f) == 0x3c01u); // just past halfway: up
  CHECK(float_to_half_bits(65519.0f) == 0x7bffu);                    // rounds down to 65504, the largest half
  CHECK(float_to_half_bits(65520.0f) == 0x7c00u);                    // rounds up past it: infinity
  CHECK(float_to_half_bits(0x1p-25f) == 0x0000u);                    // half the smallest subnormal: ties to 0
  CHECK(float_to_half_bits(0x1.8p-25f) == 0x0001u);                  // more than half: the smallest subnormal
  CHECK(float_to_half_bits(-2.0f) == 0xc000u);
}

TEST_CASE("a tensor written as F16 reads back as the rounded values", "[safetensors]") {
  const std::vector<float> a = {0.1f, -3.0f, 1e-3f, 2.5f};
  const std::string bytes = safetensors_bytes({{"w", {2, 2}, a, true}}, {});
  const SafetensorsIndex idx = parse_safetensors_index(bytes, bytes.size());
  CHECK(idx.tensors[0].dtype == "F16");
  CHECK(idx.tensors[0].end - idx.tensors[0].begin == 8);
  const Matrix m = parse_safetensors_matrix(bytes, "w");
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(m.data[i] == half_bits_to_float(float_to_half_bits(a[i])));
  CHECK(m.data[1] == -3.0f);
  CHECK(m.data[0] == Approx(0.1f).epsilon(1e-3));
}
