// std::to_chars / std::from_chars for floating point, or the C library's snprintf / strtod where they are missing.
#include "core/io/float_chars.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

namespace peviz {

namespace c_library {

namespace {

// The fewest significant digits ("%.*g") whose text reads back to v.
template <class T>
char* shortest_g(char* first, char* last, T v, int max_digits) {
  char buf[40];
  for (int digits = 1;; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, double(v));
    const T back = sizeof(T) == 4 ? T(std::strtof(buf, nullptr)) : T(std::strtod(buf, nullptr));
    if (back == v || digits >= max_digits) break;
  }
  const std::size_t n = std::min<std::size_t>(std::strlen(buf), std::size_t(last - first));
  std::memcpy(first, buf, n);
  return first + n;
}

// strtod / strtof over a bounded, NUL-terminated copy, refusing what from_chars refuses (space, '+', hex).
template <class T>
std::from_chars_result strict_parse(const char* first, const char* last, T& v) {
  const std::string text(first, last);
  const char* s = text.c_str();
  const char* digits = s + (*s == '-' ? 1 : 0);
  const bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  if (text.empty() || std::isspace((unsigned char)*s) || *s == '+' || hex || std::isspace((unsigned char)*digits) ||
      *digits == '+' || *digits == '-')
    return {first, std::errc::invalid_argument};
  char* end = nullptr;
  errno = 0;
  const T parsed = sizeof(T) == 4 ? T(std::strtof(s, &end)) : T(std::strtod(s, &end));
  if (end == s) return {first, std::errc::invalid_argument};
  // Overflow (infinite) or underflow to zero; a subnormal result stands, as from_chars gives it.
  if (errno == ERANGE && (std::isinf(parsed) || parsed == T(0))) return {first + (end - s), std::errc::result_out_of_range};
  v = parsed;
  return {first + (end - s), std::errc()};
}

}  // namespace

char* format_shortest(char* first, char* last, float v) { return shortest_g(first, last, v, 9); }
char* format_shortest(char* first, char* last, double v) { return shortest_g(first, last, v, 17); }
std::from_chars_result parse_real(const char* first, const char* last, float& v) { return strict_parse(first, last, v); }
std::from_chars_result parse_real(const char* first, const char* last, double& v) { return strict_parse(first, last, v); }

}  // namespace c_library

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L

char* format_shortest(char* first, char* last, float v) { return std::to_chars(first, last, v).ptr; }
char* format_shortest(char* first, char* last, double v) { return std::to_chars(first, last, v).ptr; }
std::from_chars_result parse_real(const char* first, const char* last, float& v) { return std::from_chars(first, last, v); }
std::from_chars_result parse_real(const char* first, const char* last, double& v) { return std::from_chars(first, last, v); }

#else

char* format_shortest(char* first, char* last, float v) { return c_library::format_shortest(first, last, v); }
char* format_shortest(char* first, char* last, double v) { return c_library::format_shortest(first, last, v); }
std::from_chars_result parse_real(const char* first, const char* last, float& v) { return c_library::parse_real(first, last, v); }
std::from_chars_result parse_real(const char* first, const char* last, double& v) { return c_library::parse_real(first, last, v); }

#endif

}  // namespace peviz
