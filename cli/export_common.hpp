// Shared pieces of every `peviz export <what>` subcommand: output flags and emitting a result.
#pragma once
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/nd_array.hpp"
#include "core/params.hpp"

namespace peviz::cli {

struct OutputOptions {
  std::string format = "csv";  // csv | npy | json
  std::string out = "-";       // path, or - for stdout
  std::uint64_t max_memory = kDefaultMemoryBudget;  // --max-memory: bytes one result may take
};

// Adds --format, --out and --max-memory to a subcommand.
void add_output_flags(CLI::App& sub, OutputOptions& o);

// Writes `a` in the chosen format (to stdout, or atomically to a file). Throws ParamError on a bad
// --format or an output that cannot be written. `extra` keys are merged into the JSON object.
void emit(const NdArray& a, const nlohmann::json& params, const OutputOptions& o,
          const nlohmann::json& extra = nlohmann::json::object());

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

}  // namespace peviz::cli
