// CSV, NPY and JSON written a block of rows at a time, text formatted on several threads.
#include "core/io/array_stream.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <ostream>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/io/float_chars.hpp"
#include "core/base/parallel.hpp"

namespace peviz {

std::size_t RowSource::rows() const {
  std::size_t n = 1;
  for (std::size_t i = 0; i + 1 < shape.size(); ++i) n *= shape[i];
  return n;
}

std::size_t RowSource::cols() const { return shape.empty() ? 1 : shape.back(); }

NdArray materialise(const RowSource& src) {
  NdArray a;
  a.shape = src.shape;
  a.dtype = src.dtype;
  if (a.dtype == DType::f32) a.f32.resize(src.size());
  else a.i32.resize(src.size());
  if (src.size() > 0)
    src.fill(0, src.rows(), a.dtype == DType::f32 ? static_cast<void*>(a.f32.data()) : static_cast<void*>(a.i32.data()));
  return a;
}

RowSource rows_of(const NdArray& a) {
  RowSource src;
  src.shape = a.shape;
  src.dtype = a.dtype;
  src.fill = [&a, cols = src.cols()](std::size_t first, std::size_t count, void* out) {
    const void* from = a.dtype == DType::f32 ? static_cast<const void*>(a.f32.data() + first * cols)
                                             : static_cast<const void*>(a.i32.data() + first * cols);
    std::memcpy(out, from, count * cols * 4);
  };
  return src;
}

namespace {

// Longest text of one value: "-1.17549435e-38" (shortest round-trip float32) or "-2147483648".
constexpr std::size_t kMaxFloatText = 15, kMaxIntText = 11;

// Shortest decimal text that reads back to the same float32 (std::to_chars round-trip guarantee).
// NaN becomes "" in CSV and null in JSON; infinities "inf" / "-inf" in CSV and null in JSON.
char* format_value(char* p, float v, bool csv) {
  if (std::isnan(v) || std::isinf(v)) {
    const std::string_view t = !csv ? "null" : std::isnan(v) ? "" : v > 0 ? "inf" : "-inf";
    std::memcpy(p, t.data(), t.size());
    return p + t.size();
  }
  return format_shortest(p, p + kMaxFloatText + 1, v);
}

char* format_value(char* p, std::int32_t v, bool) { return std::to_chars(p, p + kMaxIntText + 1, v).ptr; }

// Rows [first, first + count) of a row-major array as text. Values are separated by ','; in CSV a
// row of the last axis ends with '\n' instead (the very first value has no separator before it).
template <class T>
void format_rows(std::string& text, const T* values, std::size_t first, std::size_t count, std::size_t cols, bool csv) {
  text.resize(count * cols * (kMaxFloatText + 1));
  char* p = text.data();
  for (std::size_t r = 0; r < count; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      if (first + r > 0 || c > 0) *p++ = (csv && c == 0) ? '\n' : ',';
      p = format_value(p, values[r * cols + c], csv);
    }
  text.resize(std::size_t(p - text.data()));
}

std::string npy_header(const RowSource& src) {
  std::string shape = "(";
  for (std::size_t i = 0; i < src.shape.size(); ++i) {
    shape += std::to_string(src.shape[i]);
    if (src.shape.size() == 1 || i + 1 < src.shape.size()) shape += src.shape.size() == 1 ? "," : ", ";
  }
  shape += ")";
  std::string dict = std::string("{'descr': '") + (src.dtype == DType::f32 ? "<f4" : "<i4") +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces and a final newline so the data starts on a 64-byte boundary (NumPy's rule).
  const std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  // Magic, format 1.0, little-endian header length.
  const std::uint16_t len = std::uint16_t(dict.size());
  return std::string("\x93NUMPY\x01\x00", 8) + char(len & 0xff) + char(len >> 8) + dict;
}

std::string json_head(const RowSource& src) {
  return "{\"shape\": " + nlohmann::json(src.shape).dump() + ", \"dtype\": \"" +
         (src.dtype == DType::f32 ? "float32" : "int32") + "\", \"data\": [";
}

std::string json_tail(const nlohmann::json& params, const nlohmann::json& extra) {
  std::string tail = "], \"params\": " + params.dump();
  for (const auto& [key, value] : extra.items()) tail += ", " + nlohmann::json(key).dump() + ": " + value.dump();
  return tail + "}\n";
}

// The CSV's first line: extra's "columns" when it names every column, else <column_axis>_<i> for each.
std::string csv_header(const RowSource& src, const nlohmann::json& extra) {
  const std::size_t cols = src.size() > 0 ? src.cols() : 0;
  if (cols == 0) return "";
  const auto names = extra.find("columns");
  const bool named = names != extra.end() && names->is_array() && names->size() == cols &&
                     std::all_of(names->begin(), names->end(), [](const nlohmann::json& n) { return n.is_string(); });
  const auto axis = extra.find("column_axis");
  const std::string prefix = (axis != extra.end() && axis->is_string() ? axis->get<std::string>() : "column") + "_";
  std::string line;
  for (std::size_t c = 0; c < cols; ++c) {
    if (c) line += ',';
    line += named ? (*names)[c].get<std::string>() : prefix + std::to_string(c);
  }
  return line + "\n";
}

std::string head_of(Format format, const RowSource& src, const nlohmann::json& extra) {
  if (format == Format::npy) return npy_header(src);
  if (format == Format::json) return json_head(src);
  return csv_header(src, extra);
}

std::string tail_of(Format format, const RowSource& src, const nlohmann::json& params, const nlohmann::json& extra) {
  if (format == Format::json) return json_tail(params, extra);
  if (format == Format::csv && src.size() > 0) return "\n";
  return "";
}

// Rows per block: about `bytes` of values, a multiple of the source's alignment when that fits. A block
// grows to one aligned unit per thread while that stays within 8x `bytes` (the sinusoid restarts every
// 512 rows: 32 MiB at d = 16384), so every thread gets whole units and none recomputes a restart.
std::size_t block_rows_for(const RowSource& src, std::size_t bytes, int threads) {
  const std::size_t per_row = std::max<std::size_t>(src.cols() * 4, 1);
  std::size_t rows = std::max<std::size_t>(bytes / per_row, 1);
  const std::size_t units = std::size_t(std::max(threads, 1)) * src.row_align;
  if (src.row_align > 1 && rows < units && units * per_row <= 8 * bytes) rows = units;
  if (rows >= src.row_align) rows -= rows % src.row_align;
  return std::min(rows, std::max<std::size_t>(src.rows(), 1));
}

// Formats one computed block as text on up to `threads` threads, then writes the parts in order.
template <class T>
std::uint64_t write_text_block(std::ostream& os, const T* values, std::size_t first, std::size_t count, std::size_t cols,
                      bool csv, int threads, std::vector<std::string>& parts) {
  const std::size_t n = std::min<std::size_t>(std::size_t(std::max(threads, 1)), count);
  parts.resize(std::max(parts.size(), n));
  parallel_rows(0, n, 1, threads, [&](std::size_t part0, std::size_t part_count) {
    for (std::size_t w = part0; w < part0 + part_count; ++w) {
      const std::size_t r0 = count * w / n, r1 = count * (w + 1) / n;
      format_rows(parts[w], values + r0 * cols, first + r0, r1 - r0, cols, csv);
    }
  });
  std::uint64_t bytes = 0;
  for (std::size_t w = 0; w < n; ++w) {
    os.write(parts[w].data(), std::streamsize(parts[w].size()));
    bytes += parts[w].size();
  }
  return bytes;
}

void check_stream(const std::ostream& os) {
  if (!os) throw ParamError("out", "write failed (disk full?)");
}

}  // namespace

void write_array(std::ostream& os, Format format, const RowSource& src, const nlohmann::json& params,
                 const nlohmann::json& extra, const StreamOptions& options) {
  static_assert(std::endian::native == std::endian::little, "NPY writer assumes a little-endian host");
  const std::string head = head_of(format, src, extra);
  os.write(head.data(), std::streamsize(head.size()));
  StreamProgress progress{0, src.size() > 0 ? src.rows() : 0, head.size()};
  const std::size_t cols = src.cols();
  // Text blocks are a quarter of the size: their text is about three times the values.
  const std::size_t block =
      block_rows_for(src, format == Format::npy ? options.block_bytes : options.block_bytes / 4, options.threads);
  std::vector<float> f32(src.dtype == DType::f32 && src.size() > 0 ? block * cols : 0);
  std::vector<std::int32_t> i32(src.dtype == DType::i32 && src.size() > 0 ? block * cols : 0);
  std::vector<std::string> parts;
  for (std::size_t first = 0; first < progress.rows_total; first += block) {
    const std::size_t count = std::min<std::size_t>(block, progress.rows_total - first);
    void* values = src.dtype == DType::f32 ? static_cast<void*>(f32.data()) : static_cast<void*>(i32.data());
    src.fill(first, count, values);
    const bool csv = format == Format::csv;
    if (format == Format::npy) {
      os.write(static_cast<const char*>(values), std::streamsize(count * cols * 4));
      progress.bytes_written += count * cols * 4;
    } else if (src.dtype == DType::f32) {
      progress.bytes_written += write_text_block(os, f32.data(), first, count, cols, csv, options.threads, parts);
    } else {
      progress.bytes_written += write_text_block(os, i32.data(), first, count, cols, csv, options.threads, parts);
    }
    check_stream(os);
    throw_if_interrupted();
    progress.rows_done = first + count;
    if (options.progress) options.progress(progress);
  }
  const std::string tail = tail_of(format, src, params, extra);
  os.write(tail.data(), std::streamsize(tail.size()));
  check_stream(os);
}

OutputSize output_size(Format format, const RowSource& src, const nlohmann::json& params, const nlohmann::json& extra) {
  const std::uint64_t n = src.size();
  const std::uint64_t framing = head_of(format, src, extra).size() + tail_of(format, src, params, extra).size();
  if (format == Format::npy) return {framing + n * 4, true};
  // Every value at its longest text plus one separator (the first value has none: the CSV's last '\n').
  const std::uint64_t longest = src.dtype == DType::f32 ? kMaxFloatText : kMaxIntText;
  return {framing + n * (longest + 1), false};
}

// In-memory arrays are row sources too, so their bytes are the streamed exports' bytes.
void write_csv(std::ostream& os, const NdArray& a, const nlohmann::json& extra) {
  write_array(os, Format::csv, rows_of(a), {}, extra);
}

void write_npy(std::ostream& os, const NdArray& a) { write_array(os, Format::npy, rows_of(a)); }

void write_json(std::ostream& os, const NdArray& a, const nlohmann::json& params, const nlohmann::json& extra) {
  write_array(os, Format::json, rows_of(a), params, extra);
}

}  // namespace peviz
