// How the config inspector states a value's origin.
#include "core/models/value_origin.hpp"

namespace peviz {

std::string describe(const ValueOrigin& o) {
  switch (o.origin) {
    case Origin::read: return "read from " + o.source;
    case Origin::class_default: return "default: " + o.source;
    case Origin::derived: return "derived: " + o.source;
  }
  return "?";
}

}  // namespace peviz
