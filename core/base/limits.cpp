// Range checks against the limits table; the messages every front end shows.
#include "core/base/limits.hpp"

#include <cmath>
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

}  // namespace peviz
