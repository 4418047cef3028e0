// Shaw et al. 2018 clipped relative-position matrix.
#include "core/shaw.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"
#include "core/relative_matrix.hpp"

namespace peviz {

void validate(const ShawParams& p) {
  check_length(p.key_len, "key-len");
  check_length(p.query_len, "seq-len");
  if (p.query_len > p.key_len)
    throw ParamError("key-len", "must be >= --seq-len (" + std::to_string(p.query_len) +
                                    "): queries align to the last keys, got " + std::to_string(p.key_len));
  if (p.max_relative < 0 || p.max_relative > kMaxSeqLen)
    throw ParamError("max-relative", "must be an integer in [0, 65536], got " + std::to_string(p.max_relative));
  check_result_size(std::size_t(p.query_len), std::size_t(p.key_len), p.memory_budget, "the Shaw matrix");
}

int shaw_clip(long long relative_position, int max_relative) {
  return int(std::clamp<long long>(relative_position, -max_relative, max_relative));
}

NdArray shaw_relative_positions(const ShawParams& p) {
  validate(p);
  const long long offset = p.key_len - p.query_len;  // position of query 0 among the keys
  return relative_int_matrix(p.query_len, p.key_len,
                             [&](int i, int j) { return shaw_clip(j - (offset + i), p.max_relative); });
}

}  // namespace peviz
