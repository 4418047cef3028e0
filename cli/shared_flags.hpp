// The flags several commands and the window share (--d-model, --seq-len, --base, --head-dim, --heads, --factor,
// --max-len), each defined here once: its spelling is its limits row's name, its help one line per concept, its range
// the command's own limits row and its refusal the limits table's words (flag_checks.hpp).
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "cli/flag_checks.hpp"
#include "core/base/limits.hpp"

namespace peviz::cli {

struct SharedFlag {
  std::string_view name;  // the spelling without dashes: every limits row a command passes for it has this name
  std::string_view help;  // what the value means, whichever command takes it
};

namespace shared_flags {
inline constexpr SharedFlag d_model{"d-model", "Model width d_model: the channels of a position's encoding"};
inline constexpr SharedFlag seq_len{"seq-len", "Sequence length L: positions 0..L-1"};
inline constexpr SharedFlag base{"base", "Frequency base (rope_theta for RoPE): pair i turns at base^(-2i/d) rad per position"};
inline constexpr SharedFlag head_dim{"head-dim", "Channels per attention head d, even"};
inline constexpr SharedFlag heads{"heads", "Attention heads"};
inline constexpr SharedFlag factor{"factor", "Context extension factor s: the target context is s x the original"};
inline constexpr SharedFlag max_len{"max-len", "Positions the model knows (a learned table's rows, max_position_embeddings)"};
}  // namespace shared_flags

// Registers --<flag.name> on `app` bound to `v`: "<help>, <range>" (the window's range with LimitRange::window), a
// value outside it refused in the limits table's words (by the command itself with LimitRange::checked_later).
// `limit` must carry the flag's name (std::logic_error else).
template <class T>
CLI::Option* add_shared_flag(CLI::App& app, const SharedFlag& flag, T& v, const Limit& limit,
                             LimitRange range = LimitRange::full) {
  if (limit.name != flag.name)
    throw std::logic_error("--" + std::string(flag.name) + " given the limits row of " + std::string(limit.name));
  const std::string range_words = range == LimitRange::window ? window_range_text(limit) : range_text(limit);
  CLI::Option* option = app.add_option("--" + std::string(flag.name), v, std::string(flag.help) + ", " + range_words);
  return range == LimitRange::checked_later ? option : option->check(limit_check<T>(limit, range));
}

}  // namespace peviz::cli
