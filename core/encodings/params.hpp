// Parameters of the absolute encodings and their defaults (validated by core/encodings/absolute_encodings).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/limits.hpp"
#include "core/base/matrix.hpp"

namespace peviz {

enum class Encoding { sinusoidal, learned, binary, normalized, integer };
// Channel order of the sinusoidal table.
//  interleaved: [sin w0, cos w0, sin w1, cos w1, ...]   (Vaswani et al. 2017; annotated transformer)
//  halves:      [sin w0..w_{n-1}, cos w0..w_{n-1}]       (tensor2tensor get_timing_signal_1d)
enum class Layout { interleaved, halves };
enum class Metric { dot, cosine };
inline constexpr std::array<std::string_view, 2> kMetricNames = {"dot", "cosine"};  // the enum's order

// Shorthands of the limits table's entries (core/base/limits.hpp), for array bounds in core.
inline constexpr int kMaxDModel = int(limits::d_model.max);
inline constexpr int kMaxSeqLen = int(limits::seq_len.max);
inline constexpr std::uint64_t kDefaultMemoryBudget = 1ull << 30;  // 1 GiB per result

struct EncodingParams {
  Encoding encoding = Encoding::sinusoidal;
  int d_model = 128;         // channels, 1..16384 (learned from a file: the file's width)
  int seq_len = 128;         // positions 0..L-1, 1..65536
  double base = 10000.0;     // sinusoid base, finite and > 1
  Layout layout = Layout::interleaved;
  std::uint64_t seed = 0;    // learned: random table seed
  int max_len = 1024;        // learned: rows of the table (positions it knows), 1..65536
  bool signed_bits = false;  // binary: map bits {0,1} to {-1,+1}
  // learned: a table loaded from a file (rows = max_len, cols = d_model); null = random table.
  std::shared_ptr<const Matrix> learned_table;
  std::string learned_source;  // where learned_table came from, for display: "npy", "safetensors:<tensor>"
  std::uint64_t memory_budget = kDefaultMemoryBudget;  // bytes a single result may take
  int threads = 0;  // worker threads for the table and similarity rows, 0 = every core (results never depend on it)
};

std::string_view to_string(Layout l);
std::string_view to_string(Metric m);
std::optional<Layout> parse_layout(std::string_view s);
std::optional<Metric> parse_metric(std::string_view s);

}  // namespace peviz
