// Shared pieces of every `peviz export <what>` subcommand: output flags and emitting a result.
#pragma once
#include <functional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/io/array_stream.hpp"
#include "core/base/limits.hpp"
#include "core/io/nd_array.hpp"
#include "core/encodings/params.hpp"

namespace peviz::cli {

struct OutputOptions {
  std::string format = "csv";  // csv | npy | json
  std::string out = "-";       // path, or - for stdout
  std::uint64_t max_memory = kDefaultMemoryBudget;  // --max-memory: bytes one in-memory result may take
  std::uint64_t max_output = std::uint64_t(limits::max_output.fallback);  // --max-output: bytes one file may take
  int threads = 0;             // --threads: 0 = every core
  bool quiet = false;          // --quiet: no progress bar
};

// Adds --format, --out, --max-memory, --max-output, --threads and --quiet to a subcommand.
void add_output_flags(CLI::App& sub, OutputOptions& o);

// Writes the rows of `src` in the chosen format (to stdout, or atomically to a file), a block at a time:
// refuses first (ParamError "max-output" or "out") a result over --max-output or the target's free space,
// shows a progress bar on a terminal, and removes the temporary file on an error or Ctrl+C. Throws
// ParamError on a bad --format or an output that cannot be written. `extra` keys go into the JSON object.
void emit_rows(const RowSource& src, const nlohmann::json& params, const OutputOptions& o,
               const nlohmann::json& extra = nlohmann::json::object());
// The same for a result already in memory.
void emit(const NdArray& a, const nlohmann::json& params, const OutputOptions& o,
          const nlohmann::json& extra = nlohmann::json::object());

// `bytes` to stdout for "-", else written atomically to `out` (whole or not at all).
void emit_bytes(const std::string& out, const std::string& bytes);
// Refuses (ParamError "out") a file whose extension names another output format than `format` (x.csv with
// --format json): the file would hold what its name does not say. Other extensions (x.txt, none) are the user's.
void check_out_extension(const std::string& out, const std::string& format);

// A table export's text (layer-map, models-compared: JSON or CSV of mixed columns) to stdout for "-", else written
// atomically to `out`. Throws ParamError("format") unless `format` is csv or json, before `text_of` runs.
void emit_text_table(const std::string& format, const std::string& out,
                     const std::function<std::string(bool json)>& text_of);

// Adds the absolute-encoding flags (--encoding --d-model --seq-len --base --layout --seed
// --max-len --from-npy --from-safetensors --tensor --signed) bound to `p` and the raw strings that
// need parsing.
struct EncodingFlags {
  EncodingParams params;
  std::string encoding = "sinusoidal";
  std::string layout = "interleaved";
  std::string from_npy;
  std::string from_safetensors;  // a .safetensors checkpoint ...
  std::string tensor;            // ... and the 2-D tensor in it, e.g. transformer.wpe.weight
};
void add_encoding_flags(CLI::App& sub, EncodingFlags& f);
// Turns the raw strings into params (loads --from-npy or --from-safetensors) and validates.
// Throws ParamError.
EncodingParams resolve_encoding_flags(EncodingFlags& f);
nlohmann::json params_to_json(const EncodingParams& p);

// "1073741824", "512MiB", "1GiB", "64KiB" -> bytes; throws ParamError("max-memory") otherwise.
std::uint64_t parse_byte_size(const std::string& text);
// The same with TiB as well, checked against `limit` (throws ParamError(limit.name)).
std::uint64_t parse_byte_size(const std::string& text, const Limit& limit);

}  // namespace peviz::cli
