// Tests for the safetensors reader: good files in every float dtype and a set of corrupt ones.
#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/io/safetensors.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

namespace {

struct TensorSpec {
  std::string name, dtype;
  std::vector<std::uint64_t> shape;
  std::string bytes;  // raw little-endian data
};

std::string le(std::uint64_t v, int n) {
  std::string s(std::size_t(n), '\0');
  for (int i = 0; i < n; ++i) s[std::size_t(i)] = char((v >> (8 * i)) & 0xff);
  return s;
}
std::string f32s(std::initializer_list<float> v) {
  std::string s;
  for (float x : v) s += le(std::bit_cast<std::uint32_t>(x), 4);
  return s;
}
std::string u16s(std::initializer_list<std::uint16_t> v) {
  std::string s;
  for (auto x : v) s += le(x, 2);
  return s;
}

// A file the way safetensors writes it: tensors packed in order; `tweak` edits the header JSON first.
std::string make_file(const std::vector<TensorSpec>& ts, const std::function<void(nlohmann::json&)>& tweak = {}) {
  nlohmann::json h = {{"__metadata__", {{"format", "pt"}}}};
  std::string data;
  for (const auto& t : ts) {
    h[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {data.size(), data.size() + t.bytes.size()}}};
    data += t.bytes;
  }
  if (tweak) tweak(h);
  std::string text = h.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the reference writer pads to 8 bytes
  return le(text.size(), 8) + text + data;
}

std::string error_of(const std::string& bytes, const std::string& name = "wpe") {
  return param_error_of([&] { parse_safetensors_matrix(bytes, name); });
}

const TensorSpec kWpe{"wpe", "F32", {2, 3}, f32s({1.0f, -2.0f, 0.5f, 3.25f, 0.0f, -1e-3f})};

}  // namespace

TEST_CASE("safetensors F32 table loads exactly and the index lists every tensor") {
  const TensorSpec bias{"h.0.attn.bias", "F32", {4}, f32s({1, 2, 3, 4})};
  const std::string file = make_file({kWpe, bias});
  const Matrix m = parse_safetensors_matrix(file, "wpe");
  REQUIRE(m.rows == 2);
  REQUIRE(m.cols == 3);
  CHECK(m.data == std::vector<float>{1.0f, -2.0f, 0.5f, 3.25f, 0.0f, -1e-3f});

  const SafetensorsIndex idx = parse_safetensors_index(file, file.size());
  REQUIRE(idx.tensors.size() == 2);
  CHECK(idx.tensors[0].name == "h.0.attn.bias");  // sorted by name
  CHECK_FALSE(idx.tensors[0].loadable_table());   // 1-D
  CHECK(idx.tensors[1].loadable_table());
  CHECK(idx.tensors[1].shape == std::vector<std::uint64_t>{2, 3});
  CHECK(idx.data_start + 24 + 16 == file.size());
}

TEST_CASE("F16, BF16 and F64 tables convert exactly") {
  // F16: 1, -2, 65504 (largest), 2^-24 (smallest subnormal), 0x3555 = 1365/4096 * 2^-1 ... exact value below.
  const std::string f16 = make_file({{"t", "F16", {1, 5}, u16s({0x3C00, 0xC000, 0x7BFF, 0x0001, 0x3555})}});
  const Matrix a = parse_safetensors_matrix(f16, "t");
  REQUIRE(a.data.size() > 4);
  CHECK(a.data[0] == 1.0f);
  CHECK(a.data[1] == -2.0f);
  CHECK(a.data[2] == 65504.0f);
  CHECK(a.data[3] == std::ldexp(1.0f, -24));
  CHECK(a.data[4] == float((1024 + 0x155) * std::ldexp(1.0, -12)));  // 0.333251953125

  // BF16: the high half of a float32. 0x3F80 = 1, 0x4049 = 3.140625, 0xBF00 = -0.5.
  const std::string bf16 = make_file({{"t", "BF16", {3, 1}, u16s({0x3F80, 0x4049, 0xBF00})}});
  const Matrix b = parse_safetensors_matrix(bf16, "t");
  CHECK(b.data == std::vector<float>{1.0f, 3.140625f, -0.5f});

  std::string f64bytes;
  for (double v : {0.1, -7.0}) f64bytes += le(std::bit_cast<std::uint64_t>(v), 8);
  const Matrix c = parse_safetensors_matrix(make_file({{"t", "F64", {1, 2}, f64bytes}}), "t");
  CHECK(c.data == std::vector<float>{0.1f, -7.0f});  // rounded once to float32
}

TEST_CASE("reading from a path reads the same table and only the header for the index") {
  const auto path = std::filesystem::path(unique_temp_path("st.safetensors"));
  const TensorSpec pad{"aaa", "U8", {3}, "xyz"};  // a tensor before the table shifts its offset
  {
    std::ofstream os(path, std::ios::binary);
    const std::string file = make_file({pad, kWpe});
    os.write(file.data(), std::streamsize(file.size()));
  }
  const Matrix m = read_safetensors_matrix(path.string(), "wpe");
  CHECK(m.data == std::vector<float>{1.0f, -2.0f, 0.5f, 3.25f, 0.0f, -1e-3f});
  CHECK(read_safetensors_index(path.string()).tensors.size() == 2);
  CHECK(param_error_of([&] { read_safetensors_matrix(path.string(), "aaa"); }) ==
        "from-safetensors: tensor 'aaa' must be 2-D [positions, channels], got 1-D");
  std::filesystem::remove(path);
  CHECK(param_error_of([&] { read_safetensors_index(path.string()); }).rfind("from-safetensors: cannot open", 0) == 0);
}

TEST_CASE("corrupt safetensors files are refused with a reason") {
  const std::string good = make_file({kWpe});

  SECTION("shorter than the length prefix") {
    CHECK(error_of(good.substr(0, 5)) == "from-safetensors: file is 5 bytes, too short for the 8-byte header length");
  }
  SECTION("truncated data") {
    const std::string cut = good.substr(0, good.size() - 4);
    CHECK(error_of(cut) == "from-safetensors: tensor 'wpe' claims bytes [0, 24) but the data buffer has only 20 bytes");
  }
  SECTION("truncated header") {
    CHECK(error_of(good.substr(0, 20)).find("runs past the end of the file (20 bytes)") != std::string::npos);
  }
  SECTION("header length past the end, including a 10 GB claim") {
    std::string f = good;
    f.replace(0, 8, le(10'000'000'000ull, 8));
    CHECK(error_of(f) == "from-safetensors: header length 10000000000 runs past the end of the file (" +
                             std::to_string(f.size()) + " bytes)");
  }
  SECTION("a tensor claiming 10 GB") {
    const std::string f = make_file({kWpe}, [](nlohmann::json& h) {
      h["wpe"]["shape"] = {50'000, 50'000};
      h["wpe"]["data_offsets"] = {0, 10'000'000'000ull};
    });
    CHECK(error_of(f) ==
          "from-safetensors: tensor 'wpe' claims bytes [0, 10000000000) but the data buffer has only 24 bytes");
  }
  SECTION("offsets outside the data") {
    const std::string f = make_file({kWpe}, [](nlohmann::json& h) { h["wpe"]["data_offsets"] = {8, 32}; });
    CHECK(error_of(f).find("claims bytes [8, 32) but the data buffer has only 24 bytes") != std::string::npos);
  }
  SECTION("overlapping tensors") {
    const std::string f = make_file({kWpe, {"b", "F32", {1}, f32s({1})}},
                                    [](nlohmann::json& h) { h["b"]["data_offsets"] = {20, 24}; });
    CHECK(error_of(f) == "from-safetensors: tensor 'b' overlaps another tensor's bytes");
  }
  SECTION("a hole in the buffer") {
    const std::string f = make_file({kWpe, {"b", "F32", {1}, f32s({1})}},
                                    [](nlohmann::json& h) { h["b"]["data_offsets"] = {28, 28}, h["b"]["shape"] = {0}; });
    CHECK(error_of(f) == "from-safetensors: the data buffer has a hole before tensor 'b'");
  }
  SECTION("shape times dtype size differs from the span") {
    const std::string f = make_file({kWpe}, [](nlohmann::json& h) { h["wpe"]["shape"] = {2, 2}; });
    CHECK(error_of(f) == "from-safetensors: tensor 'wpe': shape times F32 size is 16 bytes but data_offsets span 24");
  }
  SECTION("unknown and non-float dtypes") {
    const std::string f33 = make_file({kWpe}, [](nlohmann::json& h) { h["wpe"]["dtype"] = "F33"; });
    CHECK(error_of(f33) == "from-safetensors: tensor 'wpe' has unknown dtype 'F33'");
    const std::string i64 = make_file({{"wpe", "I64", {1, 2}, le(1, 8) + le(2, 8)}});
    CHECK(error_of(i64) == "from-safetensors: tensor 'wpe' has dtype I64; a table must be F32, F16, BF16 or F64");
  }
  SECTION("not 2-D") {
    const std::string f = make_file({{"wpe", "F32", {1, 2, 3}, f32s({1, 2, 3, 4, 5, 6})}});
    CHECK(error_of(f) == "from-safetensors: tensor 'wpe' must be 2-D [positions, channels], got 3-D");
    const std::string empty = make_file({{"wpe", "F32", {0, 4}, ""}});
    CHECK(error_of(empty).find("must have [1, 65536] rows and [1, 16384] columns") != std::string::npos);
  }
  SECTION("NaN and infinity") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(error_of(make_file({{"wpe", "F32", {2, 2}, f32s({0, 1, 2, nan})}})) ==
          "from-safetensors: tensor 'wpe' value at row 1, column 1 is not finite");
    CHECK(error_of(make_file({{"wpe", "F16", {1, 2}, u16s({0x3C00, 0x7C00})}})) ==
          "from-safetensors: tensor 'wpe' value at row 0, column 1 is not finite");
    std::string big = le(std::bit_cast<std::uint64_t>(1e300), 8);  // finite in F64, not in float32
    CHECK(error_of(make_file({{"wpe", "F64", {1, 1}, big}})).find("is not finite") != std::string::npos);
  }
  SECTION("bad JSON and bad structure") {
    const std::string text = "{\"wpe\": [";
    CHECK(error_of(le(text.size(), 8) + text) == "from-safetensors: header is not valid JSON");
    const std::string arr = "[1,2]";
    CHECK(error_of(le(arr.size(), 8) + arr) == "from-safetensors: header is not a JSON object");
    const std::string neg = make_file({kWpe}, [](nlohmann::json& h) { h["wpe"]["data_offsets"] = {-1, 23}; });
    CHECK(error_of(neg) == "from-safetensors: tensor 'wpe': data_offsets must be a non-negative integer");
    const std::string noshape = make_file({kWpe}, [](nlohmann::json& h) { h["wpe"].erase("shape"); });
    CHECK(error_of(noshape) == "from-safetensors: tensor 'wpe' has no shape array");
  }
  SECTION("a missing tensor name lists the loadable ones") {
    CHECK(error_of(good, "wte") == "from-safetensors: no tensor named 'wte'; 2-D float tensors: wpe");
  }
}
