// CLI11 checks that refuse a bad number in the words every command uses, from core's limits table ("must be an
// integer in [1, 1000], got 0"); CLI11 puts the flag's name before them. Shared by the commands and the window.
#pragma once
#include <exception>
#include <string>
#include <type_traits>

#include <CLI/CLI.hpp>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz::cli {

// Which range of a limit a flag takes: the whole one (commands), the window's (the window's own flags), or the whole
// one named in the help but checked by the command after parsing (`train`'s sizes: core's validate refuses them
// for training, while --emit-pytorch takes any size validate_shape allows).
enum class LimitRange { full, window, checked_later };

// Refuses a number of type T outside `l`; text that is not a number at all passes (CLI11's conversion names it).
template <class T>
CLI::Validator limit_check(const Limit& l, LimitRange range = LimitRange::full) {
  const auto refusal = [&l, range](std::string& text) -> std::string {
    try {
      std::size_t used = 0;
      if constexpr (std::is_integral_v<T>) {
        const long long n = std::stoll(text, &used);
        if (used == text.size()) range == LimitRange::window ? check_window_int(l, n) : check_int(l, n);
      } else {
        const double x = std::stod(text, &used);
        if (used == text.size()) range == LimitRange::window ? check_window_real(l, x) : check_real(l, x);
      }
    } catch (const ParamError& e) {
      return e.rule;
    } catch (const std::exception&) {  // not a number: CLI11's conversion says so
    }
    return "";
  };
  return CLI::Validator(refusal, "");
}

// An unsigned flag (a seed): refuses a minus sign, which CLI11 would wrap around to 2^64 - 1 and accept.
inline CLI::Validator non_negative_integer() {
  const auto refusal = [](std::string& text) -> std::string {
    const std::size_t first = text.find_first_not_of(" \t");
    return first != std::string::npos && text[first] == '-' ? "must be a non-negative integer, got " + text : "";
  };
  return CLI::Validator(refusal, "");
}

}  // namespace peviz::cli
