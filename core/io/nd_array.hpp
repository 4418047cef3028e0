// An n-dimensional float32 or int32 array, the formats' names and the NPY reader (writers: core/io/array_stream).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/matrix.hpp"

namespace peviz {

enum class DType { f32, i32 };

struct NdArray {
  std::vector<std::size_t> shape;  // e.g. {L, d} or {heads, L, L}
  DType dtype = DType::f32;
  std::vector<float> f32;          // used when dtype == f32 (NaN = missing / masked)
  std::vector<std::int32_t> i32;   // used when dtype == i32

  std::size_t size() const;        // product of shape
  static NdArray from_matrix(const Matrix& m);
  static NdArray from_ints(std::vector<std::size_t> shape, std::vector<std::int32_t> values);
  static NdArray from_floats(std::vector<std::size_t> shape, std::vector<float> values);
};

enum class Format { csv, npy, json };
std::optional<Format> parse_format(std::string_view s);


// Reads a 2-D float32/float64 .npy (format 1.0-3.0, C or Fortran order) into a Matrix.
// Throws ParamError("from-npy", ...) naming what is wrong with the file.
Matrix read_npy_matrix(const std::string& path);
// Same, from bytes already in memory (used by the fuzzer and the tests).
Matrix parse_npy_matrix(std::string_view bytes, std::string_view name = "from-npy");
// Reads any .npy into an NdArray (f4/i4/f8/i8 converted), for round-trip tests.
NdArray parse_npy(std::string_view bytes);

}  // namespace peviz
