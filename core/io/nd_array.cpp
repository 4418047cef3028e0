// n-dimensional float32 / int32 arrays and the NPY reader.
#include "core/io/nd_array.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>

#include "core/base/bit_cast.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/io/safetensors.hpp"

namespace peviz {

std::size_t NdArray::size() const {
  std::size_t n = 1;
  for (std::size_t s : shape) n *= s;
  return n;
}

NdArray NdArray::from_matrix(const Matrix& m) { return from_floats({m.rows, m.cols}, m.data); }

NdArray NdArray::from_ints(std::vector<std::size_t> shape, std::vector<std::int32_t> values) {
  NdArray a;
  a.shape = std::move(shape);
  a.dtype = DType::i32;
  a.i32 = std::move(values);
  return a;
}

NdArray NdArray::from_floats(std::vector<std::size_t> shape, std::vector<float> values) {
  NdArray a;
  a.shape = std::move(shape);
  a.dtype = DType::f32;
  a.f32 = std::move(values);
  return a;
}

std::optional<Format> parse_format(std::string_view s) {
  if (s == "csv") return Format::csv;
  if (s == "npy") return Format::npy;
  if (s == "json") return Format::json;
  return std::nullopt;
}

// ---- NPY reader ------------------------------------------------------------------------------

namespace {

struct NpyHeader {
  char kind = 0;            // 'f' or 'i'
  std::size_t itemsize = 0; // 4 or 8
  bool big_endian = false;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::size_t data_offset = 0;
};

[[noreturn]] void bad(std::string_view name, const std::string& why) {
  throw ParamError(std::string(name), "not a usable .npy file: " + why);
}

std::string_view value_after(std::string_view dict, std::string_view key, std::string_view name) {
  const std::size_t k = dict.find(key);
  if (k == std::string_view::npos) bad(name, "header has no " + std::string(key));
  std::size_t colon = dict.find(':', k + key.size());
  if (colon == std::string_view::npos) bad(name, "malformed header");
  std::size_t v = dict.find_first_not_of(' ', colon + 1);
  if (v == std::string_view::npos) bad(name, "malformed header");
  return dict.substr(v);
}

NpyHeader parse_header(std::string_view bytes, std::string_view name) {
  NpyHeader h;
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) bad(name, "missing the \\x93NUMPY magic");
  const unsigned major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_len = 0, prefix = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (std::size_t(static_cast<unsigned char>(bytes[9])) << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) bad(name, "truncated header");
    for (int i = 0; i < 4; ++i) header_len |= std::size_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    prefix = 12;
  } else {
    bad(name, "unsupported format version " + std::to_string(major));
  }
  if (header_len > bytes.size() - prefix) bad(name, "header length runs past the end of the file");
  const std::string_view dict = bytes.substr(prefix, header_len);
  h.data_offset = prefix + header_len;

  std::string_view descr = value_after(dict, "'descr'", name);
  if (descr.size() < 5 || (descr[0] != '\'' && descr[0] != '"')) bad(name, "malformed descr");
  const char order = descr[1];
  h.kind = descr[2];
  if (order != '<' && order != '>' && order != '|' && order != '=') bad(name, "malformed descr");
  h.big_endian = order == '>';
  const bool half = h.kind == 'f' && descr[3] == '2';  // float16 (numpy '<f2'), as tables are often saved
  if ((h.kind != 'f' && h.kind != 'i') || (descr[3] != '4' && descr[3] != '8' && !half) || descr[4] != descr[0])
    bad(name, "dtype must be float16, float32, float64, int32 or int64, got " + std::string(descr.substr(0, 6)));
  h.itemsize = std::size_t(descr[3] - '0');

  std::string_view fo = value_after(dict, "'fortran_order'", name);
  if (fo.substr(0, 4) == "True") h.fortran_order = true;
  else if (fo.substr(0, 5) != "False") bad(name, "malformed fortran_order");

  std::string_view shape = value_after(dict, "'shape'", name);
  if (shape.empty() || shape[0] != '(') bad(name, "malformed shape");
  const std::size_t close = shape.find(')');
  if (close == std::string_view::npos) bad(name, "malformed shape");
  std::string_view inner = shape.substr(1, close - 1);
  std::size_t total = 1;
  while (!inner.empty()) {
    const std::size_t start = inner.find_first_not_of(" ,");
    if (start == std::string_view::npos) break;
    inner.remove_prefix(start);
    std::size_t dim = 0;
    auto [ptr, ec] = std::from_chars(inner.data(), inner.data() + inner.size(), dim);
    if (ec != std::errc()) bad(name, "malformed shape");
    inner.remove_prefix(std::size_t(ptr - inner.data()));
    if (dim != 0 && total > std::numeric_limits<std::size_t>::max() / 16 / dim) bad(name, "shape is absurdly large");
    total *= dim;
    h.shape.push_back(dim);
  }
  if (total > (bytes.size() - h.data_offset) / h.itemsize || total * h.itemsize != bytes.size() - h.data_offset)
    bad(name, "the shape claims " + std::to_string(total * h.itemsize) + " data bytes but the file has " +
                  std::to_string(bytes.size() - h.data_offset));
  return h;
}

double read_element(const char* p, const NpyHeader& h) {
  unsigned char b[8];
  std::memcpy(b, p, h.itemsize);
  if (h.big_endian) std::reverse(b, b + h.itemsize);
  if (h.kind == 'f') {
    if (h.itemsize == 2) return double(half_bits_to_float(std::uint16_t(b[0] | (b[1] << 8))));
    if (h.itemsize == 4) return double(peviz::bit_cast<float>(*reinterpret_cast<std::uint32_t*>(b)));
    return peviz::bit_cast<double>(*reinterpret_cast<std::uint64_t*>(b));
  }
  if (h.itemsize == 4) return double(peviz::bit_cast<std::int32_t>(*reinterpret_cast<std::uint32_t*>(b)));
  return double(peviz::bit_cast<std::int64_t>(*reinterpret_cast<std::uint64_t*>(b)));
}

}  // namespace

Matrix parse_npy_matrix(std::string_view bytes, std::string_view name) {
  const NpyHeader h = parse_header(bytes, name);
  if (h.kind != 'f') bad(name, "a table must be float16, float32 or float64");
  if (h.shape.size() != 2) bad(name, "a table must be 2-D, got " + std::to_string(h.shape.size()) + "-D");
  if (h.shape[0] == 0 || h.shape[1] == 0) bad(name, "a table must not be empty");
  Matrix m(h.shape[0], h.shape[1]);
  const char* data = bytes.data() + h.data_offset;
  for (std::size_t r = 0; r < m.rows; ++r)
    for (std::size_t c = 0; c < m.cols; ++c) {
      const std::size_t idx = h.fortran_order ? c * m.rows + r : r * m.cols + c;
      const double v = read_element(data + idx * h.itemsize, h);
      if (!std::isfinite(v)) bad(name, "value at row " + std::to_string(r) + ", column " + std::to_string(c) + " is not finite");
      m.at(r, c) = float(v);
    }
  return m;
}

NdArray parse_npy(std::string_view bytes) {
  const NpyHeader h = parse_header(bytes, "npy");
  if (h.fortran_order && h.shape.size() > 1) bad("npy", "Fortran order is only read for 2-D tables");
  NdArray a;
  a.shape = h.shape;
  a.dtype = h.kind == 'f' ? DType::f32 : DType::i32;
  const std::size_t n = a.size();
  const char* data = bytes.data() + h.data_offset;
  if (a.dtype == DType::f32) a.f32.resize(n);
  else a.i32.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = read_element(data + i * h.itemsize, h);
    if (a.dtype == DType::f32) {
      a.f32[i] = float(v);
    } else {
      if (!(v >= -2147483648.0 && v <= 2147483647.0)) bad("npy", "integer value out of int32 range");
      a.i32[i] = std::int32_t(v);
    }
  }
  return a;
}

Matrix read_npy_matrix(const std::string& path) {
  return parse_npy_matrix(read_file_bytes(path, "from-npy"), "from-npy");
}

}  // namespace peviz
