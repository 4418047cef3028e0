// Tests for core/encodings/params: the one validation layer and the enum names.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/base/errors.hpp"
#include "core/encodings/params.hpp"

using namespace peviz;

static std::string param_of(const EncodingParams& p) {
  try {
    validate(p);
  } catch (const ParamError& e) {
    return e.param;
  }
  return "";
}

TEST_CASE("validate names the offending parameter") {
  EncodingParams p;
  CHECK(param_of(p).empty());
  p.d_model = 0;
  CHECK(param_of(p) == "d-model");
  p.d_model = 16385;
  CHECK(param_of(p) == "d-model");
  p = {};
  p.seq_len = 0;
  CHECK(param_of(p) == "seq-len");
  p.seq_len = 65537;
  CHECK(param_of(p) == "seq-len");
  p = {};
  for (double b : {1.0, 0.5, -3.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    p.base = b;
    CHECK(param_of(p) == "base");
  }
  p = {};
  p.encoding = Encoding::learned;
  p.max_len = 0;
  CHECK(param_of(p) == "max-len");
}

TEST_CASE("results over the memory budget are refused with their size") {
  EncodingParams p;
  p.seq_len = 65536;
  p.d_model = 16384;  // 4 GiB of float32
  try {
    validate(p);
    FAIL("expected a ParamError");
  } catch (const ParamError& e) {
    CHECK(e.param == "max-memory");
    CHECK(std::string(e.what()).find("4 GiB") != std::string::npos);
  }
  p.memory_budget = std::uint64_t(8) << 30;
  CHECK_NOTHROW(validate(p));
}

TEST_CASE("enum names round-trip") {
  for (Encoding e : {Encoding::sinusoidal, Encoding::learned, Encoding::binary, Encoding::normalized, Encoding::integer})
    CHECK(parse_encoding(to_string(e)) == e);
  CHECK(parse_layout("halves") == Layout::halves);
  CHECK(parse_metric("cosine") == Metric::cosine);
  CHECK_FALSE(parse_encoding("rotary").has_value());
  CHECK(encoding_width(EncodingParams{.encoding = Encoding::integer}) == 1);
}
