// The absolute position encodings: a [position, channel] matrix for positions 0..L-1.
#pragma once
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/array_stream.hpp"
#include "core/base/matrix.hpp"
#include "core/encodings/params.hpp"
#include "core/simd/simd_kernels.hpp"

namespace peviz {

// What to do with positions a learned table has no row for (t >= max_len).
enum class MissingRows { error, nan };

// Fills `out` (reshaped to L x encoding_width) with the encoding chosen in `p`.
// Validates `p` first. Reuses out's memory.
void encode(const EncodingParams& p, Matrix& out, MissingRows missing = MissingRows::error);
Matrix encode(const EncodingParams& p, MissingRows missing = MissingRows::error);

// Everything `encode` needs for any block of positions, prepared once (the sinusoid plan, the learned
// table). encode() and the streamed export both fill rows through it, so their bits are the same.
struct EncodingRows {
  EncodingParams params;
  std::size_t width = 0;                 // encoding_width(params)
  SinusoidPlan plan;                     // sinusoidal
  std::shared_ptr<const Matrix> table;   // learned: the given or the random table
  int threads = 1;                       // resolved params.threads
  // Rows t = first .. first + count - 1 into out (count x width floats), on `threads` threads.
  void fill(std::size_t first, std::size_t count, float* out) const;
};

// Which fields of EncodingParams an encoding reads besides seq_len (which every encoding reads).
struct EncodingInputs {
  bool d_model = false;      // its width is d_model (else one column)
  bool base = false;         // the sinusoid base
  bool layout = false;       // the sin/cos channel order
  bool table = false;        // a table of rows: max_len and seed, or a table from a file (learned_table)
  bool signed_bits = false;  // bits {0, 1} mapped to {-1, +1}
};

// The values an encoding takes over positions 0..L-1, for colours and plot axes.
struct ValueScale {
  bool centred = true;        // both signs around 0: diverging colours; else sequential from `low`
  double low = -1, high = 1;  // bounds of the formula (learned: NaN, read from the table's values)
  double axis_low = -1.1, axis_high = 1.1;  // the y range a plot of the rows opens with
};

// Whether the encoding is defined past the length it was built for, and why.
struct Extrapolation {
  bool defined = false;
  std::string note;
};

// One row per absolute encoding: everything the CLI, the state files, the window and the criteria know of
// it. Adding an encoding = its enum value in params.hpp, its functions and its row here.
struct EncodingInfo {
  Encoding id;
  std::string_view name;     // the CLI's and the state JSON's spelling
  std::string_view label;    // its row in the criteria table
  std::string_view summary;  // a phrase for help texts
  EncodingInputs inputs;
  bool whole_numbers = false;     // exported as int32
  std::size_t row_align = 1;      // streamed exports fill blocks of this many rows
  void (*prepare)(EncodingRows& rows, MissingRows missing) = nullptr;  // plan or table, once (may be null)
  void (*fill)(const EncodingRows& rows, std::size_t first, std::size_t count, float* out) = nullptr;
  ValueScale (*scale)(const EncodingParams& p) = nullptr;
  // Positions per cycle of each of the `width` channels (NaN: not periodic); null = none periodic.
  std::vector<float> (*channel_periods)(const EncodingParams& p, std::size_t width) = nullptr;
  Extrapolation (*extrapolation)(const EncodingParams& p) = nullptr;
};

// Throws ParamError naming the first offending parameter of what p's encoding reads and its allowed range.
void validate(const EncodingParams& p);
// Columns the encoding produces (normalized and integer are one column).
int encoding_width(const EncodingParams& p);
std::string_view to_string(Encoding e);
std::optional<Encoding> parse_encoding(std::string_view s);

// Every encoding, in the order of the Encoding enum.
std::span<const EncodingInfo> encoding_table();
const EncodingInfo& encoding_info(Encoding e);
// "sinusoidal, learned, binary, normalized or integer" (`last_joiner` "or") for help and error texts.
std::string encoding_names(std::string_view separator = ", ", std::string_view last_joiner = " or ");

// Validates p (and refuses missing learned rows unless missing == nan). No L x width memory.
EncodingRows prepare_encoding_rows(const EncodingParams& p, MissingRows missing = MissingRows::error);

// The exported table, streamed: float32, or int32 for the whole-number encodings (binary, integer).
RowSource encoding_row_source(const EncodingParams& p);

// Angular frequency of each sin/cos pair, in the order of the pairs.
//  interleaved (Vaswani 2017 §3.5): w_i = base^(-2i/d), i < ceil(d/2)
//  halves (tensor2tensor): w_k = exp(-k ln(base) / max(n-1, 1)), k < n = floor(d/2)
std::vector<double> sinusoid_frequencies(int d_model, double base, Layout layout);
// The frequencies of sinusoid_frequencies with their one-step rotations, for simd_kernels' sinusoid_rows.
SinusoidPlan make_sinusoid_plan(int d_model, double base, Layout layout);

// The random GPT-2-style learned table: N(0, 0.02^2), rows = max_len, from `seed`.
Matrix learned_random_table(int max_len, int d_model, std::uint64_t seed);

}  // namespace peviz
