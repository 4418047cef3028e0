// Shared pieces of the query x key relative-position matrices (T5 buckets, Shaw): length checks, rows.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>
#include <string>
#include <string_view>

#include "core/io/array_stream.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/io/nd_array.hpp"
#include "core/encodings/params.hpp"

namespace peviz {

// Throws ParamError(param, ...) outside limits::t5_shaw_seq_len's range, under the name `param`.
inline void check_length(int value, std::string_view param) {
  Limit length = limits::t5_shaw_seq_len;
  length.name = param;
  check_int(length, value);
}

// The int32 [query_len, key_len] rows with cell (i, j) = value(j - i), for a value that depends on the
// relative position only: value is computed once per r = -(query_len-1) .. key_len-1 and each row is a
// window of that table (a Toeplitz matrix), so rows stream at memory speed.
template <class F>
RowSource relative_int_rows(int query_len, int key_len, F&& value) {
  auto by_offset = std::make_shared<std::vector<std::int32_t>>();
  for (long long r = -(query_len - 1); r <= key_len - 1; ++r) by_offset->push_back(value(r));
  RowSource src;
  src.shape = {std::size_t(query_len), std::size_t(key_len)};
  src.dtype = DType::i32;
  src.fill = [by_offset, query_len, key_len](std::size_t first, std::size_t count, void* out) {
    auto* dst = static_cast<std::int32_t*>(out);
    for (std::size_t i = first; i < first + count; ++i)  // cell (i, j) sits at by_offset[j - i + query_len - 1]
      std::memcpy(dst + (i - first) * std::size_t(key_len), by_offset->data() + (std::size_t(query_len) - 1 - i),
                  std::size_t(key_len) * sizeof(std::int32_t));
  };
  return src;
}

}  // namespace peviz
