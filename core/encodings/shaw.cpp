// Shaw et al. 2018 clipped relative-position matrix.
#include "core/encodings/shaw.hpp"

#include <algorithm>
#include <string>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/encodings/relative_matrix.hpp"

namespace peviz {

ShawParams square_shaw_params(int seq_len, int max_relative) {
  ShawParams shaw;
  shaw.query_len = shaw.key_len = seq_len;
  shaw.max_relative = max_relative;
  return shaw;
}

void validate_shape(const ShawParams& p) {
  check_length(p.key_len, "key-len");
  check_length(p.query_len, "seq-len");
  if (p.query_len > p.key_len)
    throw ParamError("key-len", "must be >= --seq-len (" + std::to_string(p.query_len) +
                                    "): queries align to the last keys, got " + std::to_string(p.key_len));
  check_int(limits::max_relative, p.max_relative);
}

void validate(const ShawParams& p) {
  validate_shape(p);
  check_result_size(std::size_t(p.query_len), std::size_t(p.key_len), p.memory_budget, "the Shaw matrix");
}

int shaw_clip(long long relative_position, int max_relative) {
  return int(std::clamp<long long>(relative_position, -max_relative, max_relative));
}

RowSource shaw_relative_rows(const ShawParams& p) {
  validate_shape(p);
  const long long offset = p.key_len - p.query_len;  // position of query 0 among the keys
  // clip(j - (offset + i)) = clip((j - i) - offset)
  return relative_int_rows(p.query_len, p.key_len, [&](long long r) { return shaw_clip(r - offset, p.max_relative); });
}

NdArray shaw_relative_positions(const ShawParams& p) {
  validate(p);
  return materialise(shaw_relative_rows(p));
}

}  // namespace peviz
