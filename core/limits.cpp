// Range checks against the limits table; the messages every front end shows.
#include "core/limits.hpp"

#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace peviz {

namespace {
std::string number_text(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}
}  // namespace

std::string range_text(const Limit& l) { return "[" + number_text(l.min) + ", " + number_text(l.max) + "]"; }

int check_int(const Limit& l, long long v) {
  if (double(v) < l.min || double(v) > l.max)
    throw ParamError(std::string(l.name), "must be an integer in " + range_text(l) + ", got " + std::to_string(v));
  return int(v);
}

double check_real(const Limit& l, double v) {
  if (!std::isfinite(v) || v < l.min || v > l.max)
    throw ParamError(std::string(l.name), "must be a finite number in " + range_text(l) + ", got " + number_text(v));
  return v;
}

}  // namespace peviz
