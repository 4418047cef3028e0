// Shortest float text and strict parsing: the C library's versions (the browser build's) against the standard's.
#include "core/io/float_chars.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>

namespace {

template <class T>
std::string text_of(T v, bool c_library) {
  char buf[40];
  char* end = c_library ? peviz::c_library::format_shortest(buf, buf + sizeof buf, v) : peviz::format_shortest(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

template <class T>
T parsed(const std::string& text, bool c_library, std::errc* ec = nullptr, std::size_t* used = nullptr) {
  T v = T(-12345);
  const auto r = c_library ? peviz::c_library::parse_real(text.data(), text.data() + text.size(), v)
                           : peviz::parse_real(text.data(), text.data() + text.size(), v);
  if (ec) *ec = r.ec;
  if (used) *used = std::size_t(r.ptr - text.data());
  return v;
}

}  // namespace

TEST_CASE("every float's shortest text reads back to the same bits, with as few digits as the standard's") {
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::uint32_t bits = rng();
    float v;
    std::memcpy(&v, &bits, 4);
    if (!std::isfinite(v)) continue;
    for (bool c : {false, true}) {
      const std::string t = text_of(v, c);
      REQUIRE(t.size() <= 15);
      REQUIRE(parsed<float>(t, false) == v);
    }
    // The same number of significant digits as std::to_chars (the text may place the exponent differently).
    const auto digits = [](const std::string& t) {
      std::string m = t.substr(0, t.find_first_of("eE"));
      std::string d;
      for (char ch : m)
        if (ch >= '0' && ch <= '9') d += ch;
      d.erase(0, d.find_first_not_of('0'));
      while (!d.empty() && d.back() == '0') d.pop_back();
      return d.size();
    };
    REQUIRE(digits(text_of(v, true)) <= digits(text_of(v, false)));
  }
  CHECK(text_of(0.1f, true) == "0.1");
  CHECK(text_of(-2.5, true) == "-2.5");
  CHECK(text_of(std::numeric_limits<float>::denorm_min(), true) == "1e-45");
}

TEST_CASE("doubles round-trip through the C library's shortest text") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 5000; ++i) {
    const std::uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, 8);
    if (!std::isfinite(v)) continue;
    REQUIRE(parsed<double>(text_of(v, true), false) == v);
    REQUIRE(text_of(v, true).size() <= 24);
  }
}

TEST_CASE("parsing refuses what from_chars refuses and stops where it stops, in both versions") {
  for (bool c : {false, true}) {
    std::errc ec{};
    std::size_t used = 0;
    CHECK(parsed<double>("1.5e3,2", c, &ec, &used) == 1500.0);
    CHECK(ec == std::errc());
    CHECK(used == 5);
    CHECK(parsed<float>("-0.25]", c, &ec, &used) == -0.25f);
    CHECK(used == 5);
    for (const char* bad : {"", " 1", "+1", "x", "-+1", "0x10"}) {
      const std::string text = bad;
      parsed<double>(text, c, &ec, &used);
      if (text == "0x10") {  // std reads the "0" and stops at 'x'; the C library's refuses hex outright
        CHECK((ec == std::errc::invalid_argument || used == 1));
        continue;
      }
      CHECK(ec == std::errc::invalid_argument);
    }
    CHECK(parsed<float>("1e60", c, &ec) == -12345.0f);  // out of a float's range: the value is left as it was
    CHECK(ec == std::errc::result_out_of_range);
  }
}
