// T5 relative-position buckets and the bucket matrix.
#include "core/encodings/t5_buckets.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/base/errors.hpp"
#include "core/encodings/relative_matrix.hpp"

namespace peviz {

int t5_min_buckets(bool bidirectional) { return bidirectional ? 4 : 2; }

int t5_exact_range(int num_buckets, bool bidirectional) { return (bidirectional ? num_buckets / 2 : num_buckets) / 2; }

T5BucketParams square_t5_params(int seq_len, int num_buckets, int max_distance, bool causal) {
  T5BucketParams t5;
  t5.query_len = t5.key_len = seq_len;
  t5.num_buckets = num_buckets;
  t5.max_distance = max_distance;
  t5.bidirectional = !causal;
  return t5;
}

void validate_shape(const T5BucketParams& p) {
  check_length(p.query_len, "seq-len");
  check_length(p.key_len, "key-len");
  // The exact range max_exact must be >= 1, otherwise HF takes log(0 / 0).
  const int min_buckets = t5_min_buckets(p.bidirectional);
  if (p.num_buckets < min_buckets || p.num_buckets > 65536)
    throw ParamError("num-buckets", "must be an integer in [" + std::to_string(min_buckets) + ", 65536]" +
                                        (p.bidirectional ? " for bidirectional buckets" : "") + ", got " +
                                        std::to_string(p.num_buckets));
  const int max_exact = t5_exact_range(p.num_buckets, p.bidirectional);
  if (p.max_distance <= max_exact || p.max_distance > (1 << 30))
    throw ParamError("max-distance", "must be an integer greater than the exact range (" + std::to_string(max_exact) +
                                         ") and at most 2^30, got " + std::to_string(p.max_distance));
}

void validate(const T5BucketParams& p) {
  validate_shape(p);
  check_result_size(std::size_t(p.query_len), std::size_t(p.key_len), p.memory_budget, "the bucket matrix");
}

int t5_relative_position_bucket(long long relative_position, bool bidirectional, int num_buckets, int max_distance) {
  int bucket = 0;
  long long n = 0;
  if (bidirectional) {
    num_buckets /= 2;
    if (relative_position > 0) bucket += num_buckets;
    n = relative_position < 0 ? -relative_position : relative_position;
  } else {
    n = -std::min(relative_position, 0LL);  // only the past (r <= 0) is bucketed
  }
  const int max_exact = num_buckets / 2;
  if (n < max_exact) return bucket + int(n);
  // torch: log(rp.float() / max_exact) is float32; dividing by the Python float math.log(...) and
  // multiplying by an int stay in float32; .to(torch.long) truncates toward zero.
  const float ratio = float(n) / float(max_exact);
  const float scale = float(std::log(double(max_distance) / double(max_exact)));
  const float large = std::log(ratio) / scale * float(num_buckets - max_exact);
  const long long if_large = std::min<long long>(max_exact + (long long)(large), num_buckets - 1);
  return bucket + int(if_large);
}

RowSource t5_bucket_rows(const T5BucketParams& p) {
  validate_shape(p);
  return relative_int_rows(p.query_len, p.key_len, [&](long long r) {
    return t5_relative_position_bucket(r, p.bidirectional, p.num_buckets, p.max_distance);
  });
}

NdArray t5_bucket_matrix(const T5BucketParams& p) {
  validate(p);
  return materialise(t5_bucket_rows(p));
}

}  // namespace peviz
