// Shared pieces of the query x key relative-position matrices (T5 buckets, Shaw): length checks, filling.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "core/nd_array.hpp"
#include "core/params.hpp"

namespace peviz {

// Throws ParamError(param, "must be an integer in [1, 65536], got N") outside 1..kMaxSeqLen.
inline void check_length(int value, std::string_view param) {
  if (value < 1 || value > kMaxSeqLen)
    throw ParamError(std::string(param), "must be an integer in [1, 65536], got " + std::to_string(value));
}

// The int32 [query_len, key_len] array with cell (i, j) = value(i, j).
template <class F>
NdArray relative_int_matrix(int query_len, int key_len, F&& value) {
  NdArray a;
  a.shape = {std::size_t(query_len), std::size_t(key_len)};
  a.dtype = DType::i32;
  a.i32.resize(std::size_t(query_len) * std::size_t(key_len));
  for (int i = 0; i < query_len; ++i)
    for (int j = 0; j < key_len; ++j) a.i32[std::size_t(i) * std::size_t(key_len) + std::size_t(j)] = value(i, j);
  return a;
}

}  // namespace peviz
