// Every parameter limit of peviz in one table: the one spelling of each name, its range, default and scale.
//
// Core validation, CLI flags (--<name>), state JSON and GUI sliders all read these entries; nothing else
// keeps a copy of a bound. `name` is the CLI spelling without dashes ("d-model"); the state JSON key is
// the same word with '_' for '-' ("d_model"), and page-local keys may prefix it. `min`/`max` are what
// core accepts; `window_min`/`window_max` are the window's tighter range (sliders, state JSON, the
// window's flags), NaN = the same as min/max. `scale` says how a slider moves: logarithmic for ranges
// over several decades (sequence length, base, distances, factors).
#pragma once
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

namespace peviz {

enum class Scale { linear, logarithmic };

struct Limit {
  static constexpr double same = std::numeric_limits<double>::quiet_NaN();
  std::string_view name;   // "d-model": the CLI flag without dashes
  double min;              // smallest allowed value (inclusive, or exclusive when min_exclusive)
  double max;              // largest allowed value (inclusive); >= 1e300 means "no upper bound but finite"
  double fallback;         // the default
  Scale scale = Scale::linear;
  double window_min = same;  // the window's range (NaN = min / max)
  double window_max = same;
  bool min_exclusive = false;  // base: > 1
  double window_lo() const { return std::isnan(window_min) ? min : window_min; }
  double window_hi() const { return std::isnan(window_max) ? max : window_max; }
  bool logarithmic() const { return scale == Scale::logarithmic; }
};

// Throw ParamError(l.name, "must be an integer in [min, max], got v") when v is outside the limit.
int check_int(const Limit& l, long long v);
// Throw ParamError(l.name, "must be a finite number in [min, max], got v") when v is outside or not finite.
double check_real(const Limit& l, double v);
// The same against the window's range (state JSON, the window's flags).
int check_window_int(const Limit& l, long long v);
double check_window_real(const Limit& l, double v);
// "[1, 16384]", "> 1": the range as the messages print it.
std::string range_text(const Limit& l);

// The table. Sections by module; a module's validate() and every front end refer to these entries.
namespace limits {
inline constexpr double kUnbounded = 1e300;
// ---- absolute encodings (core/params) ----
inline constexpr Limit d_model{"d-model", 1, 16384, 128, Scale::logarithmic, Limit::same, 4096};
inline constexpr Limit seq_len{"seq-len", 1, 65536, 128, Scale::logarithmic, Limit::same, 8192};
inline constexpr Limit base{"base", 1, kUnbounded, 10000, Scale::logarithmic, 1.0001, 1e7, true};
inline constexpr Limit max_len{"max-len", 1, 65536, 1024, Scale::logarithmic, Limit::same, 8192};
// ---- RoPE pages (core/rope) ----
inline constexpr Limit head_dim{"head-dim", 2, 16384, 128, Scale::logarithmic, 2, 512};
inline constexpr Limit rope_base{"base", 1, kUnbounded, 10000, Scale::logarithmic, 2, 1e8, true};
inline constexpr Limit rope_position{"position", 0, 1e9, 12, Scale::logarithmic, 0, 1e5};
inline constexpr Limit decay_max_distance{"max-distance", 1, 100000, 1000, Scale::logarithmic, 10, 100000};
inline constexpr Limit factor{"factor", 1, 1e6, 8, Scale::logarithmic, 1, 64};
inline constexpr Limit original_len{"original-max-len", 1, 1 << 30, 8192, Scale::logarithmic, 128, 1 << 20};
inline constexpr Limit target_len{"target-len", 0, 1 << 30, 0, Scale::logarithmic, 0, 1 << 24};
inline constexpr Limit beta_fast{"beta-fast", 0, 1e6, 32, Scale::logarithmic, 1.01, 256};
inline constexpr Limit beta_slow{"beta-slow", 0, 1e6, 1, Scale::logarithmic, 0.01, 64};
inline constexpr Limit low_freq_factor{"low-freq-factor", 0, 1e6, 1, Scale::logarithmic, 0.1, 16};
inline constexpr Limit high_freq_factor{"high-freq-factor", 0, 1e6, 4, Scale::logarithmic, 0.1, 64};
inline constexpr Limit precision_max_position_log2{"max-position-log2", 4, 26, 20};
// ---- relative family (core/alibi, core/t5_buckets, core/shaw) ----
inline constexpr Limit alibi_heads{"heads", 1, 4096, 8, Scale::linear, 1, 64};
inline constexpr Limit alibi_seq_len{"seq-len", 1, 65536, 64, Scale::logarithmic, 2, 1024};
inline constexpr Limit t5_shaw_seq_len{"seq-len", 1, 65536, 64, Scale::logarithmic, 2, 1024};
inline constexpr Limit num_buckets{"num-buckets", 2, 65536, 32, Scale::linear, 2, 128};
inline constexpr Limit t5_max_distance{"max-distance", 1, 1 << 30, 128, Scale::logarithmic, 2, 4096};
inline constexpr Limit max_relative{"max-relative", 0, 65536, 16, Scale::logarithmic, 0, 256};
// ---- window-only analyses ----
inline constexpr Limit shift_position{"position", 0, 65536, 10, Scale::linear, 0, 8192};
inline constexpr Limit criteria_length{"length", 2, 8192, 64, Scale::logarithmic};
inline constexpr Limit ui_zoom{"ui-zoom", 0.5, 3, 1};
inline constexpr Limit compare_offset{"compare-offset", -512, 512, 64};
// ---- the binary analogy (core/binary_analogy: export binary-analogy and the window's view) ----
inline constexpr Limit binary_positions{"positions", 2, 256, 16, Scale::logarithmic};
inline constexpr Limit binary_morph{"morph", 0, 1, 0};
// ---- streamed exports (core/array_stream, core/parallel) ----
// Largest file one export may write, in bytes (--max-output; the free space of the target folder is
// checked as well). 1 byte .. 1 PiB, default 64 GiB.
inline constexpr Limit max_output{"max-output", 1, 1125899906842624.0, 68719476736.0, Scale::logarithmic};
// Worker threads for the table, the similarity rows and text formatting; 0 = every core.
inline constexpr Limit threads{"threads", 0, 256, 0};
// ---- animations (peviz render --animate, View > Record animation; app/media writers) ----
inline constexpr Limit animation_frames{"frames", 1, 3600, 60};
// The default animation: 60 frames at 20 per second, 3 s (long enough to follow on a slide).
inline constexpr Limit animation_fps{"fps", 1, 120, 20};  // MP4; a GIF plays at most 50 (media::kMaxGifFps)
// ---- training (core/train); the RoPE base of a run uses `base` above ----
inline constexpr Limit train_layers{"layers", 1, 8, 4};  // the default: docs/lab.md, "Choosing the default"
inline constexpr Limit train_heads{"heads", 1, 8, 4};
inline constexpr Limit train_d_model{"d-model", 16, 256, 64, Scale::logarithmic};  // d-model / heads even
inline constexpr Limit train_batch{"batch", 1, 256, 32, Scale::logarithmic};
inline constexpr Limit train_steps{"steps", 1, 100000, 3000, Scale::logarithmic};
inline constexpr Limit train_max{"train-max", 1, 40, 20};  // longest training n (2n + 3 tokens)
inline constexpr Limit test_max{"test-max", 1, 160, 40};   // also at most 4 x train-max
inline constexpr Limit test_samples{"test-samples", 1, 10000, 200, Scale::logarithmic};  // sequences per length
inline constexpr Limit learning_rate{"lr", 1e-6, 1, 2e-3, Scale::logarithmic};  // the lab default: docs/lab.md
inline constexpr Limit warmup{"warmup", 0, 100000, 300, Scale::logarithmic};
inline constexpr Limit train_threads{"threads", 1, 64, 1};  // runs in parallel, one run per thread
inline constexpr Limit train_seeds{"seeds", 1, 64, 1};      // seeds per encoding (a count; --seeds also takes a list)
// ---- RoPE extrapolation bounds (core/rope_bounds); head-dim and base as in core/rope ----
inline constexpr Limit bounds_context_len{"context-len", 1, 1 << 20, 4096, Scale::logarithmic};
}  // namespace limits

}  // namespace peviz
