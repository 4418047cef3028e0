// Output flags, encoding flags and result emission shared by every `peviz export` subcommand.
#include "cli/export_common.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <unistd.h>

#include "cli/progress_bar.hpp"
#include "cli/flag_checks.hpp"
#include "cli/shared_flags.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/base/parallel.hpp"
#include "core/io/safetensors.hpp"

namespace peviz::cli {

void add_output_flags(CLI::App& sub, OutputOptions& o) {
  sub.add_option("--format", o.format, "Output format: csv | npy | json")->capture_default_str();
  sub.add_option("--out", o.out, "Output file, or - for standard output")->capture_default_str();
  sub.add_option_function<std::string>(
         "--max-memory", [&o](const std::string& text) { o.max_memory = parse_byte_size(text); },
         "Refuse in-memory results larger than this (bytes, or with KiB/MiB/GiB), default 1GiB, at most 64GiB")
      ->type_name("SIZE");
  sub.add_option_function<std::string>(
         "--max-output", [&o](const std::string& text) { o.max_output = parse_byte_size(text, limits::max_output); },
         "Refuse files larger than this (bytes, or with KiB/MiB/GiB/TiB), default 64GiB; the target's free space "
         "is checked too")
      ->type_name("SIZE");
  sub.add_option_function<int>(
         "--threads", [&o](int n) { o.threads = resolve_threads(n); },
         "Worker threads for the table, similarity rows and text, " + range_text(limits::threads) +
             " (0 = every core); results do not depend on it")
      ->type_name("N");
  sub.add_flag("--quiet", o.quiet, "No progress bar (it is only drawn on a terminal, after a second)");
}

namespace {
// "<digits>[B|KiB|MiB|GiB|TiB]" -> {value, shift}; shift -1 when the unit is unknown or TiB is not allowed.
std::pair<std::uint64_t, int> split_byte_size(const std::string& text, bool tebibytes, bool& ok) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  const std::string_view unit(ptr, std::size_t(end - ptr));
  int shift = -1;
  if (unit.empty() || unit == "B") shift = 0;
  else if (unit == "KiB") shift = 10;
  else if (unit == "MiB") shift = 20;
  else if (unit == "GiB") shift = 30;
  else if (unit == "TiB" && tebibytes) shift = 40;
  ok = ec == std::errc() && shift >= 0 && value <= (~std::uint64_t(0) >> shift);
  return {value, shift};
}
}  // namespace

std::uint64_t parse_byte_size(const std::string& text, const Limit& limit) {
  bool ok = false;
  const auto [value, shift] = split_byte_size(text, true, ok);
  const std::uint64_t bytes = ok ? value << shift : 0;
  if (!ok || double(bytes) < limit.min || double(bytes) > limit.max)
    throw ParamError(std::string(limit.name), "must be a size from 1 byte to " + human_bytes(limit.max) +
                                                  " such as 1073741824, 512MiB, 64GiB or 1TiB, got '" + text + "'");
  return bytes;
}

std::uint64_t parse_byte_size(const std::string& text) {
  bool ok = false;
  const auto [value, shift] = split_byte_size(text, false, ok);
  if (!ok || value == 0 || value > (std::uint64_t(64) << (30 - shift)))
    throw ParamError("max-memory", "must be a size from 1 byte to 64GiB such as 1073741824, 512MiB or 1GiB, got '" +
                                       text + "'");
  return value << shift;
}

void emit_rows(const RowSource& src, const nlohmann::json& params, const OutputOptions& o, const nlohmann::json& extra) {
  const std::optional<Format> fmt = parse_format(o.format);
  if (!fmt) throw ParamError("format", "must be csv, npy or json, got '" + o.format + "'");
  if (o.out.empty()) throw ParamError("out", "must be a file path or - for standard output");
  check_out_extension(o.out, o.format);
  if (fmt == Format::npy && o.out == "-" && isatty(1))
    throw ParamError("out", "refusing to write binary NPY to a terminal; give --out PATH");
  const OutputSize size = output_size(*fmt, src, params, extra);
  const char* names[] = {"the CSV output", "the NPY output", "the JSON output"};
  check_output_size(o.out, size.bytes, size.exact, o.max_output, names[int(*fmt)]);
  ProgressBar bar(o.quiet);
  StreamOptions options;
  options.threads = resolve_threads(o.threads);
  options.progress = [&bar](const StreamProgress& p) { bar.update(p); };
  auto fill = [&](std::ostream& os) { write_array(os, *fmt, src, params, extra, options); };
  if (o.out == "-") {
    InterruptGuard guard;
    std::ios::sync_with_stdio(false);
    fill(std::cout);
    std::cout.flush();
    if (!std::cout) throw ParamError("out", "cannot write to standard output");
    return;
  }
  write_file_atomically(o.out, fill, "out");
}

void emit(const NdArray& a, const nlohmann::json& params, const OutputOptions& o, const nlohmann::json& extra) {
  emit_rows(rows_of(a), params, o, extra);
}

void add_encoding_flags(CLI::App& sub, EncodingFlags& f) {
  EncodingParams& p = f.params;
  sub.add_option("--encoding", f.encoding, encoding_names(" | ", " | "))
      ->capture_default_str();
  // Each number is checked as given, also where the encoding does not read it (--base for binary): never ignored.
  add_shared_flag(sub, shared_flags::d_model, p.d_model, limits::d_model)->capture_default_str();
  add_shared_flag(sub, shared_flags::seq_len, p.seq_len, limits::seq_len)->capture_default_str();
  add_shared_flag(sub, shared_flags::base, p.base, limits::base)->capture_default_str();
  sub.add_option("--layout", f.layout, "Sinusoid channel order: interleaved | halves")->capture_default_str();
  sub.add_option("--seed", p.seed, "Learned: seed of the random N(0, 0.02^2) table")
      ->check(non_negative_integer())
      ->capture_default_str();
  add_shared_flag(sub, shared_flags::max_len, p.max_len, limits::max_len)->capture_default_str();
  sub.add_option("--from-npy", f.from_npy, "Learned: load the table from a 2-D float32/float64 .npy file");
  sub.add_option("--from-safetensors", f.from_safetensors,
                 "Learned: load the table from a .safetensors checkpoint (with --tensor)");
  sub.add_option("--tensor", f.tensor, "Learned: the 2-D tensor to load, e.g. transformer.wpe.weight");
  sub.add_flag("--signed", p.signed_bits, "Binary: map bits {0,1} to {-1,+1}");
}

EncodingParams resolve_encoding_flags(EncodingFlags& f) {
  EncodingParams p = f.params;
  const auto enc = parse_encoding(f.encoding);
  if (!enc) throw ParamError("encoding", "must be " + encoding_names() + ", got '" + f.encoding + "'");
  p.encoding = *enc;
  const auto layout = parse_layout(f.layout);
  if (!layout) throw ParamError("layout", "must be interleaved or halves, got '" + f.layout + "'");
  p.layout = *layout;
  if (!f.from_npy.empty() && !f.from_safetensors.empty())
    throw ParamError("from-safetensors", "give either --from-npy or --from-safetensors, not both");
  if (f.from_safetensors.empty() != f.tensor.empty())
    throw ParamError("tensor", f.tensor.empty() ? "--from-safetensors needs --tensor NAME"
                                                : "needs --from-safetensors PATH");
  const std::string& source = f.from_npy.empty() ? f.from_safetensors : f.from_npy;
  if (!source.empty()) {
    const char* flag = f.from_npy.empty() ? "from-safetensors" : "from-npy";
    if (!encoding_info(p.encoding).inputs.table) throw ParamError(flag, "needs --encoding learned");
    auto table = std::make_shared<Matrix>(f.from_npy.empty() ? read_safetensors_matrix(f.from_safetensors, f.tensor)
                                                             : read_npy_matrix(f.from_npy));
    p.d_model = int(table->cols);
    p.max_len = int(table->rows);
    p.learned_table = std::move(table);
    p.learned_source = f.from_npy.empty() ? "safetensors:" + f.tensor : "npy";
  }
  validate(p);
  return p;
}

nlohmann::json params_to_json(const EncodingParams& p) {
  nlohmann::json j = {{"encoding", to_string(p.encoding)}, {"d_model", encoding_width(p)}, {"seq_len", p.seq_len}};
  const EncodingInputs& uses = encoding_info(p.encoding).inputs;
  if (uses.base) j["base"] = p.base;
  if (uses.layout) j["layout"] = to_string(p.layout);
  if (uses.table) {
    j["max_len"] = p.learned_table ? int(p.learned_table->rows) : p.max_len;
    if (!p.learned_table) j["seed"] = p.seed;
    else j["source"] = p.learned_source.empty() ? "npy" : p.learned_source;
  }
  if (uses.signed_bits) j["signed"] = p.signed_bits;
  return j;
}

void emit_text_table(const std::string& format, const std::string& out,
                     const std::function<std::string(bool json)>& text_of) {
  if (format != "json" && format != "csv") throw ParamError("format", "must be json or csv, got '" + format + "'");
  check_out_extension(out, format);
  emit_bytes(out, text_of(format == "json"));
}

void check_out_extension(const std::string& out, const std::string& format) {
  if (out == "-") return;
  std::string ext = std::filesystem::path(out).extension().string();
  if (ext.empty()) return;
  ext = ext.substr(1);
  for (char& ch : ext) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  constexpr std::string_view kFormats[] = {"csv", "json", "npy", "safetensors", "md"};
  if (ext != format && std::find(std::begin(kFormats), std::end(kFormats), ext) != std::end(kFormats))
    throw ParamError("out", out + " names a ." + ext + " file, but --format is " + format + ": name it ." + format +
                                " or pass --format " + ext);
}

void emit_bytes(const std::string& out, const std::string& bytes) {
  if (out == "-") {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    return;
  }
  write_file_atomically(out, [&](std::ostream& o) { o << bytes; });
}

}  // namespace peviz::cli
