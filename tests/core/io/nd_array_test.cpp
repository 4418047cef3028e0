// Tests for core/io/nd_array: CSV/NPY/JSON writers and the NPY reader, good files and corrupt ones.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/io/array_stream.hpp"
#include "core/io/nd_array.hpp"

using namespace peviz;

static std::string to_npy(const NdArray& a) {
  std::ostringstream os;
  write_npy(os, a);
  return os.str();
}

TEST_CASE("NPY round trip: float32 2-D and 3-D, int32") {
  const NdArray f = NdArray::from_floats({2, 3}, {1.5f, -2.0f, 0.1f, 1e-30f, 3.0f, NAN});
  const std::string bytes = to_npy(f);
  CHECK((bytes.size() - 6 * 4) % 64 == 0);  // header padded so data is 64-byte aligned
  CHECK(bytes.substr(0, 6) == "\x93NUMPY");
  const NdArray back = parse_npy(bytes);
  CHECK(back.shape == f.shape);
  CHECK(std::memcmp(back.f32.data(), f.f32.data(), 6 * 4) == 0);

  const NdArray cube = NdArray::from_floats({2, 1, 2}, {1, 2, 3, 4});
  CHECK(parse_npy(to_npy(cube)).shape == cube.shape);
  const NdArray ints = NdArray::from_ints({3}, {-1, 0, 7});
  const NdArray ib = parse_npy(to_npy(ints));
  CHECK(ib.dtype == DType::i32);
  CHECK(ib.i32 == ints.i32);
  CHECK(to_npy(ints).find("'shape': (3,)") != std::string::npos);
}

TEST_CASE("NPY matrix reader accepts float64 and Fortran order") {
  // A hand-built float64 Fortran-order 2x2 file: column-major [[1, 2], [3, 4]] -> data 1, 3, 2, 4.
  std::string dict = "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }";
  dict.append(128 - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(dict.size()) + '\0' + dict;
  for (double v : {1.0, 3.0, 2.0, 4.0}) bytes.append(reinterpret_cast<const char*>(&v), 8);
  const Matrix m = parse_npy_matrix(bytes);
  CHECK(m.at(0, 1) == 2.0f);
  CHECK(m.at(1, 0) == 3.0f);
}

TEST_CASE("a float16 NPY table loads exactly, little- or big-endian") {
  for (const char* descr : {"<f2", ">f2"}) {
    INFO(descr);
    std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (2, 2), }";
    dict.append(128 - 10 - dict.size() - 1, ' ');
    dict += '\n';
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(dict.size()) + '\0' + dict;
    // 1, -2, 0.5, 65504 (the largest half) as IEEE binary16 bit patterns.
    for (unsigned bits : {0x3C00u, 0xC000u, 0x3800u, 0x7BFFu}) {
      const char lo = char(bits & 0xFF), hi = char(bits >> 8);
      bytes += descr[0] == '<' ? std::string{lo, hi} : std::string{hi, lo};
    }
    const Matrix m = parse_npy_matrix(bytes);
    CHECK(m.at(0, 0) == 1.0f);
    CHECK(m.at(0, 1) == -2.0f);
    CHECK(m.at(1, 0) == 0.5f);
    CHECK(m.at(1, 1) == 65504.0f);
  }
}

TEST_CASE("corrupt NPY files are refused with a reason") {
  const std::string good = to_npy(NdArray::from_floats({2, 2}, {1, 2, 3, 4}));
  auto reason = [](const std::string& bytes) -> std::string {
    try {
      parse_npy_matrix(bytes);
    } catch (const ParamError& e) {
      return e.rule;
    }
    return "";
  };
  CHECK(reason(good).empty());
  CHECK(reason("").find("magic") != std::string::npos);
  CHECK(reason(good.substr(0, good.size() - 1)).find("data bytes") != std::string::npos);  // truncated
  std::string long_header = good;
  long_header[8] = '\xff';
  long_header[9] = '\x7f';
  CHECK(reason(long_header).find("past the end") != std::string::npos);
  std::string wrong_type = good;
  wrong_type.replace(wrong_type.find("<f4"), 3, "<c8");
  CHECK(reason(wrong_type).find("dtype must be float16, float32, float64, int32 or int64") != std::string::npos);
  std::string int16 = good;
  int16.replace(int16.find("<f4"), 3, "<i2");
  CHECK(reason(int16).find("dtype") != std::string::npos);
  std::string one_d = to_npy(NdArray::from_floats({4}, {1, 2, 3, 4}));
  CHECK(reason(one_d).find("2-D") != std::string::npos);
  std::string nan_file = to_npy(NdArray::from_floats({1, 2}, {1, NAN}));
  CHECK(reason(nan_file).find("not finite") != std::string::npos);
  std::string huge = good;
  huge.replace(huge.find("(2, 2)"), 6, "(99999999999, 99999999999)");
  CHECK_FALSE(reason(huge).empty());
}

TEST_CASE("CSV: shortest round-trip digits, NaN empty, stacked leading axes") {
  std::ostringstream os;
  write_csv(os, NdArray::from_floats({2, 1, 2}, {0.1f, NAN, 1.0f / 3.0f, 2.0f}));
  CHECK(os.str() == "column_0,column_1\n0.1,\n0.33333334,2\n");
  CHECK(std::strtof("0.33333334", nullptr) == 1.0f / 3.0f);
}

TEST_CASE("JSON: shape, data with null for NaN, params and extra keys") {
  std::ostringstream os;
  write_json(os, NdArray::from_floats({1, 2}, {NAN, 0.5f}), {{"d_model", 2}}, {{"attention_factor", 1.25}});
  const auto j = nlohmann::json::parse(os.str());
  CHECK(j["data"][0].is_null());
  CHECK(j["data"][1] == 0.5);
  CHECK(j["params"]["d_model"] == 2);
  CHECK(j["attention_factor"] == 1.25);
}
