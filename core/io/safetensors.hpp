// Reading `.safetensors` checkpoints: list the tensors, load one 2-D float tensor as a Matrix.
//
// Format (huggingface/safetensors, README "Format" and safetensors/src/tensor.rs):
//   8 bytes   N, unsigned little-endian 64-bit: length of the JSON header
//   N bytes   JSON object: {"__metadata__": {str: str}, "<name>": {"dtype": "F32", "shape": [..],
//             "data_offsets": [begin, end]}, ...}; may be padded with trailing spaces
//   rest      the data buffer; offsets are relative to its start, little-endian, C order.
// Every offset and size is checked against the file before a byte is read: a header running past the
// end, a tensor whose [begin, end) is outside the buffer or overlaps another, a shape whose element
// count times the dtype size is not end - begin, unknown dtypes and malformed JSON are all refused
// with ParamError(param, reason) where param defaults to "from-safetensors".
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/matrix.hpp"

namespace peviz {

struct SafetensorsTensor {
  std::string name;                  // e.g. "transformer.wpe.weight" (GPT-2), "wpe.weight"
  std::string dtype;                 // safetensors spelling: F32, F16, BF16, F64, I64, U8, BOOL, ...
  std::vector<std::uint64_t> shape;  // dimensions, C order
  std::uint64_t begin = 0, end = 0;  // byte span in the data buffer (relative to its start)
  // A table peviz can show: 2-D, non-empty, F32/F16/BF16/F64.
  bool loadable_table() const;
};

struct SafetensorsIndex {
  std::vector<SafetensorsTensor> tensors;  // sorted by name
  std::uint64_t data_start = 0;            // 8 + N: file offset of the data buffer
  std::uint64_t file_size = 0;             // bytes in the file
  std::map<std::string, std::string> metadata;  // "__metadata__" entries whose values are strings
};

// Header limit, as in the reference implementation (safetensors/src/tensor.rs MAX_HEADER_SIZE).
inline constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

// Parses and checks the header. `head` holds at least the first 8 + N bytes of a file of `file_size`
// bytes (it may hold the whole file). Throws ParamError(param, reason).
SafetensorsIndex parse_safetensors_index(std::string_view head, std::uint64_t file_size,
                                         const std::string& param = "from-safetensors");
// Reads only the header of the file at `path`.
SafetensorsIndex read_safetensors_index(const std::string& path, const std::string& param = "from-safetensors");

// Loads tensor `name` as a rows x cols float32 Matrix (F16/BF16/F64 converted; F64 rounded once).
// Refuses a tensor that is not 2-D, is empty, has more than 65536 rows or 16384 columns, has another
// dtype, or holds NaN or infinity (naming the first bad row and column).
Matrix parse_safetensors_matrix(std::string_view bytes, const std::string& name,
                                const std::string& param = "from-safetensors");
// Same from a file; reads the header and only the bytes of that tensor.
Matrix read_safetensors_matrix(const std::string& path, const std::string& name,
                               const std::string& param = "from-safetensors");

// Writing (core/io/safetensors_write.cpp): F32 tensors in the given order, the header padded with spaces
// to a multiple of 8 bytes (as the reference writer does), `metadata` as "__metadata__".
struct SafetensorsF32 {
  std::string name;
  std::vector<std::uint64_t> shape;  // product = data.size()
  std::span<const float> data;
  bool half = false;                 // store as F16 (IEEE binary16, rounded to nearest even): half the bytes
};
std::string safetensors_bytes(const std::vector<SafetensorsF32>& tensors,
                              const std::map<std::string, std::string>& metadata);
// The same written all-or-nothing (core/io/atomic_file); throws ParamError(param, reason).
void write_safetensors(const std::string& path, const std::vector<SafetensorsF32>& tensors,
                       const std::map<std::string, std::string>& metadata, const std::string& param = "out");

// IEEE binary16 and bfloat16 bit patterns to float (exact: both widen without rounding).
float half_bits_to_float(std::uint16_t h);
// float to IEEE binary16, rounded to nearest even (overflow to infinity, NaN stays NaN).
std::uint16_t float_to_half_bits(float f);
float bf16_bits_to_float(std::uint16_t b);

}  // namespace peviz
