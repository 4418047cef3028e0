// Writing .safetensors: byte layout, and a round trip through core's reader with metadata.
#include <cstring>

#include <catch2/catch.hpp>

#include "core/safetensors.hpp"

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
