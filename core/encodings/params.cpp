// Validation of the absolute-encoding parameters (by what each encoding reads) and the names of the enums.
#include "core/encodings/params.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz {

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

int encoding_width(const EncodingParams& p) {
  const EncodingInputs& uses = encoding_info(p.encoding).inputs;
  if (!uses.d_model) return 1;
  return uses.table && p.learned_table ? int(p.learned_table->cols) : p.d_model;
}

void validate(const EncodingParams& p) {
  const EncodingInputs& uses = encoding_info(p.encoding).inputs;
  if (p.learned_table && uses.table) {
    if (p.learned_table->rows < 1 || p.learned_table->cols < 1 || p.learned_table->cols > std::size_t(limits::d_model.max) ||
        p.learned_table->rows > std::size_t(limits::max_len.max))
      throw ParamError("from-npy", "table must have 1.." + std::to_string(int(limits::max_len.max)) + " rows and 1.." +
                                       std::to_string(int(limits::d_model.max)) + " columns");
  } else {
    check_int(limits::d_model, p.d_model);
  }
  check_int(limits::seq_len, p.seq_len);
  if (uses.base) check_real(limits::base, p.base);
  if (uses.table && !p.learned_table) check_int(limits::max_len, p.max_len);
  check_result_size(std::size_t(p.seq_len), std::size_t(encoding_width(p)), p.memory_budget, "the encoding");
}

std::string_view to_string(Encoding e) { return encoding_info(e).name; }
std::string_view to_string(Layout l) { return l == Layout::interleaved ? "interleaved" : "halves"; }
std::string_view to_string(Metric m) { return m == Metric::dot ? "dot" : "cosine"; }

std::optional<Encoding> parse_encoding(std::string_view s) {
  for (const EncodingInfo& e : encoding_table())
    if (e.name == s) return e.id;
  return std::nullopt;
}
std::optional<Layout> parse_layout(std::string_view s) {
  if (s == "interleaved") return Layout::interleaved;
  if (s == "halves") return Layout::halves;
  return std::nullopt;
}
std::optional<Metric> parse_metric(std::string_view s) {
  if (s == "dot") return Metric::dot;
  if (s == "cosine") return Metric::cosine;
  return std::nullopt;
}

}  // namespace peviz
