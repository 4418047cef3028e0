// Tests for core/io/array_stream: every streamed export has the bytes of its in-memory result, in every format.
#include <catch2/catch.hpp>

#include <sstream>

#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/alibi.hpp"
#include "core/io/array_stream.hpp"
#include "core/encodings/distance_series.hpp"
#include "core/encodings/shaw.hpp"
#include "core/encodings/similarity.hpp"
#include "core/encodings/t5_buckets.hpp"

using namespace peviz;

namespace {

const nlohmann::json kParams = {{"seq_len", 3}, {"note", "params"}};
const nlohmann::json kExtra = {{"columns", {"a", "b"}}};

// The in-memory writers (write_csv / write_npy / write_json of an NdArray).
std::string in_memory(Format f, const NdArray& a) {
  std::ostringstream os;
  if (f == Format::csv) write_csv(os, a, kExtra);
  else if (f == Format::npy) write_npy(os, a);
  else write_json(os, a, kParams, kExtra);
  return os.str();
}

// The streamed writer with tiny blocks (many block boundaries) on three threads.
std::string streamed(Format f, const RowSource& src) {
  std::ostringstream os;
  StreamOptions options;
  options.threads = 3;
  options.block_bytes = 256;
  std::uint64_t last_rows = 0;
  options.progress = [&](const StreamProgress& p) {
    CHECK(p.rows_done > last_rows);
    last_rows = p.rows_done;
  };
  write_array(os, f, src, kParams, kExtra, options);
  CHECK(last_rows == (src.size() > 0 ? src.rows() : 0));
  const std::string bytes = os.str();
  const OutputSize size = output_size(f, src, kParams, kExtra);
  if (size.exact) CHECK(size.bytes == bytes.size());
  else CHECK(size.bytes >= bytes.size());
  CHECK(size.exact == (f == Format::npy));
  return bytes;
}

void check_same(const NdArray& memory, const RowSource& stream) {
  REQUIRE(stream.shape == memory.shape);
  REQUIRE(stream.dtype == memory.dtype);
  for (Format f : {Format::csv, Format::npy, Format::json}) {
    INFO("format " << int(f));
    CHECK(streamed(f, stream) == in_memory(f, memory));
  }
}

NdArray table_array(const EncodingParams& p) {
  const Matrix m = encode(p);
  if (p.encoding != Encoding::binary && p.encoding != Encoding::integer) return NdArray::from_matrix(m);
  return NdArray::from_ints({m.rows, m.cols}, std::vector<std::int32_t>(m.data.begin(), m.data.end()));
}

}  // namespace

TEST_CASE("streamed encoding tables equal the in-memory ones: every encoding") {
  for (Encoding e : {Encoding::sinusoidal, Encoding::learned, Encoding::binary, Encoding::normalized, Encoding::integer})
    for (Layout layout : {Layout::interleaved, Layout::halves}) {
      EncodingParams p;
      p.encoding = e;
      p.layout = layout;
      p.seq_len = 600;  // past one restart block of the sinusoid
      p.d_model = 7;
      p.signed_bits = true;
      INFO(to_string(e) << " " << to_string(layout));
      check_same(table_array(p), encoding_row_source(p));
    }
}

TEST_CASE("streamed similarity equals the in-memory matrix: Toeplitz, unpaired channel, general path") {
  struct Case {
    Encoding encoding;
    int d;
    Layout layout;
  } cases[] = {{Encoding::sinusoidal, 16, Layout::interleaved},
               {Encoding::sinusoidal, 7, Layout::interleaved},  // odd d: the unpaired sin channel
               {Encoding::sinusoidal, 9, Layout::halves},
               {Encoding::learned, 33, Layout::interleaved},
               {Encoding::binary, 5, Layout::interleaved}};  // zero rows: cosine 0
  for (const Case& c : cases)
    for (Metric metric : {Metric::dot, Metric::cosine}) {
      EncodingParams p;
      p.encoding = c.encoding;
      p.d_model = c.d;
      p.layout = c.layout;
      p.seq_len = 70;
      INFO(to_string(c.encoding) << " d=" << c.d << " " << to_string(metric));
      Matrix m;
      similarity(p, metric, m);
      check_same(NdArray::from_matrix(m), similarity_row_source(p, metric));
    }
}

TEST_CASE("streamed ALiBi, T5 buckets and Shaw equal the in-memory arrays and the cell formulas") {
  for (bool bidirectional : {false, true}) {
    const NdArray a = alibi_bias(3, 20, bidirectional);
    check_same(a, alibi_bias_rows(3, 20, bidirectional));
    const std::vector<double> m = alibi_slopes(3);
    CHECK(a.f32[(2 * 20 + 9) * 20 + 4] == float(m[2] * -5.0));  // head 2, i = 9, j = 4
  }
  T5BucketParams t5;
  t5.query_len = 30;
  t5.key_len = 45;
  t5.num_buckets = 8;
  t5.max_distance = 20;
  for (bool bidirectional : {false, true}) {
    t5.bidirectional = bidirectional;
    const NdArray b = t5_bucket_matrix(t5);
    check_same(b, t5_bucket_rows(t5));
    for (int i = 0; i < 30; ++i)
      for (int j = 0; j < 45; ++j)
        REQUIRE(b.i32[std::size_t(i * 45 + j)] == t5_relative_position_bucket(j - i, bidirectional, 8, 20));
  }
  ShawParams shaw;
  shaw.query_len = 12;
  shaw.key_len = 20;
  shaw.max_relative = 3;
  const NdArray s = shaw_relative_positions(shaw);
  check_same(s, shaw_relative_rows(shaw));
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 20; ++j) REQUIRE(s.i32[std::size_t(i * 20 + j)] == shaw_clip(j - (8 + i), 3));
}

TEST_CASE("streamed distance series equals the in-memory series, one row per distance") {
  DistanceSeriesParams p;
  p.seq_len = 40;
  p.d_model = 16;
  p.heads = 3;
  for (bool causal : {false, true}) {
    p.causal = causal;
    const DistanceSeries s = distance_series(p);
    const NdArray table = series_table(s);
    REQUIRE(table.shape == std::vector<std::size_t>{79, s.names.size() + 1});
    REQUIRE(table.f32.size() > 0);
    CHECK(table.f32[0] == -39.0f);             // row 0 is r = -(L-1)
    CHECK(table.f32[39 * table.shape[1]] == 0.0f);  // row L-1 is r = 0
    check_same(table, distance_series_rows(plan_distance_series(p)));
  }
}

TEST_CASE("empty and one-value arrays: CSV, NPY and JSON framing") {
  check_same(NdArray::from_floats({0, 3}, {}), rows_of(NdArray::from_floats({0, 3}, {})));
  const NdArray one = NdArray::from_floats({1}, {2.5f});
  CHECK(streamed(Format::csv, rows_of(one)) == "column_0\n2.5\n");  // kExtra names two columns, not one
  CHECK(streamed(Format::json, rows_of(one)) ==
        "{\"shape\": [1], \"dtype\": \"float32\", \"data\": [2.5], \"params\": {\"note\":\"params\",\"seq_len\":3}, "
        "\"columns\": [\"a\",\"b\"]}\n");
  CHECK(streamed(Format::csv, rows_of(NdArray::from_floats({0}, {}))).empty());
}

TEST_CASE("a CSV starts with its column names: extra's columns, else the column axis and index") {
  const NdArray a = NdArray::from_floats({2, 2}, {1, 2, 3, 4});
  const auto csv = [&](const nlohmann::json& extra) {
    std::ostringstream os;
    write_csv(os, a, extra);
    return os.str();
  };
  CHECK(csv(kExtra) == "a,b\n1,2\n3,4\n");
  CHECK(csv({{"column_axis", "dim"}}) == "dim_0,dim_1\n1,2\n3,4\n");
  CHECK(csv(nlohmann::json::object()) == "column_0,column_1\n1,2\n3,4\n");
  CHECK(csv({{"columns", {"a", 2}}}) == "column_0,column_1\n1,2\n3,4\n");  // not all names: indexed
  CHECK(csv({{"columns", {"a", "b", "c"}}}) == "column_0,column_1\n1,2\n3,4\n");
}

TEST_CASE("blocks hold whole aligned units for every thread when that stays small") {
  RowSource src;
  src.shape = {100, 4};  // 16 bytes per row
  src.row_align = 8;
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  src.fill = [&](std::size_t first, std::size_t count, void* out) {
    calls.emplace_back(first, count);
    for (std::size_t i = 0; i < count * 4; ++i) static_cast<float*>(out)[i] = float(first * 4 + i);
  };
  StreamOptions options;
  options.threads = 2;
  options.block_bytes = 64;  // 4 rows, less than one 8-row unit per thread: blocks grow to 16 rows
  std::ostringstream os;
  write_array(os, Format::npy, src, {}, {}, options);
  REQUIRE(calls.size() == 7);  // 6 x 16 rows + 4
  for (std::size_t i = 0; i < calls.size(); ++i) CHECK(calls[i] == std::pair<std::size_t, std::size_t>{16 * i, i < 6 ? 16 : 4});
  options.block_bytes = 16;  // 16 rows would be 16x the block: keep 1-row blocks
  calls.clear();
  std::ostringstream small;
  write_array(small, Format::npy, src, {}, {}, options);
  CHECK(calls.size() == 100);
  CHECK(small.str() == os.str());
}
