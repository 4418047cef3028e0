// Range checks against the limits table; the messages every front end shows.
#include "core/base/limits.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/base/errors.hpp"

namespace peviz {

namespace {

// Exact powers of two from 2^30 up print as "2^30" (the context bounds), everything else in up to 10 digits.
std::string number_text(double v) {
  int exponent = 0;
  if (v >= 0x1p30 && std::frexp(v, &exponent) == 0.5) return "2^" + std::to_string(exponent - 1);
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

std::string range_of(double lo, double hi, bool lo_exclusive) {
  std::string out = hi >= limits::kUnbounded ? (lo_exclusive ? "> " : ">= ") : (lo_exclusive ? "(" : "[");
  out += number_text(lo);
  if (hi >= limits::kUnbounded) return out;
  out += ", ";
  out += number_text(hi);
  out += "]";
  return out;
}

int checked_int(const Limit& l, long long v, double lo, double hi) {
  if (double(v) < lo || double(v) > hi)
    throw ParamError(std::string(l.name), std::string(hi >= limits::kUnbounded ? "must be an integer "
                                                                                : "must be an integer in ")
                                              .append(range_of(lo, hi, false))
                                              .append(", got ")
                                              .append(std::to_string(v)));
  return int(v);
}

double checked_real(const Limit& l, double v, double lo, double hi) {
  const bool below = l.min_exclusive && lo == l.min ? !(v > lo) : !(v >= lo);
  if (!std::isfinite(v) || below || v > hi)
    throw ParamError(std::string(l.name), "must be a finite number " + std::string(hi >= limits::kUnbounded ? "" : "in ") +
                                              range_of(lo, hi, l.min_exclusive && lo == l.min) + ", got " + number_text(v));
  return v;
}

}  // namespace

std::string range_text(const Limit& l) { return range_of(l.min, l.max, l.min_exclusive); }
std::string window_range_text(const Limit& l) {
  return range_of(l.window_lo(), l.window_hi(), l.min_exclusive && l.window_lo() == l.min);
}

int check_int(const Limit& l, long long v) { return checked_int(l, v, l.min, l.max); }
double check_real(const Limit& l, double v) { return checked_real(l, v, l.min, l.max); }
int check_window_int(const Limit& l, long long v) { return checked_int(l, v, l.window_lo(), l.window_hi()); }
double check_window_real(const Limit& l, double v) { return checked_real(l, v, l.window_lo(), l.window_hi()); }

std::string human_bytes(double b) {
  // "4 GiB", "1.5 GiB", "65536 GiB": one decimal at most, no exponent.
  const char* unit = "bytes";
  if (b >= double(1ull << 30)) b /= double(1ull << 30), unit = "GiB";
  else if (b >= double(1ull << 20)) b /= double(1ull << 20), unit = "MiB";
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << b;
  std::string text = os.str();
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + " " + unit;
}

void check_result_size(std::size_t rows, std::size_t cols, std::uint64_t budget, std::string_view what) {
  const double bytes = double(rows) * double(cols) * 4.0;
  if (bytes > double(budget)) {
    throw ParamError("max-memory", std::string(what) + " of " + std::to_string(rows) + " x " +
                                       std::to_string(cols) + " values would take " + human_bytes(bytes) +
                                       ", over the " + human_bytes(double(budget)) + " budget");
  }
}

}  // namespace peviz
