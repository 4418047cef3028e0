// The names of the layouts and metrics.
#include "core/encodings/params.hpp"

namespace peviz {

std::string_view to_string(Layout l) { return l == Layout::interleaved ? "interleaved" : "halves"; }
std::string_view to_string(Metric m) { return kMetricNames[std::size_t(m)]; }

std::optional<Layout> parse_layout(std::string_view s) {
  if (s == "interleaved") return Layout::interleaved;
  if (s == "halves") return Layout::halves;
  return std::nullopt;
}
std::optional<Metric> parse_metric(std::string_view s) {
  for (std::size_t i = 0; i < kMetricNames.size(); ++i)
    if (s == kMetricNames[i]) return Metric(i);
  return std::nullopt;
}

}  // namespace peviz
