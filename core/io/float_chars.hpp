// Shortest round-trip text of a float or double, and strict parsing back: std::to_chars / std::from_chars
// where the standard library has them for floating point, the C library where it does not (libc++ 14, the
// browser build's). Both give text that reads back to the same value.
#pragma once
#include <charconv>

namespace peviz {

// Writes the shortest text of `v` (finite) that reads back to the same value; returns one past its end.
// [first, last) must hold the longest such text: 15 characters for a float, 24 for a double.
char* format_shortest(char* first, char* last, float v);
char* format_shortest(char* first, char* last, double v);
// Like std::from_chars (general format): no leading '+' or white space, stops at the first character that
// is not part of the number; ec is std::errc::invalid_argument when no number starts at `first`.
std::from_chars_result parse_real(const char* first, const char* last, float& v);
std::from_chars_result parse_real(const char* first, const char* last, double& v);

// The C library's versions, compiled everywhere so the tests compare them with the standard library's.
namespace c_library {
char* format_shortest(char* first, char* last, float v);
char* format_shortest(char* first, char* last, double v);
std::from_chars_result parse_real(const char* first, const char* last, float& v);
std::from_chars_result parse_real(const char* first, const char* last, double& v);
}  // namespace c_library

}  // namespace peviz
