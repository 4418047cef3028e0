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
#include <cstddef>
#include <cstdint>
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
// The same for the window's range ("[1, 64]").
std::string window_range_text(const Limit& l);
// Throw ParamError("max-memory", ...) when a result of rows x cols float32 values would take more than `budget`
// bytes; `what` names the result ("the similarity matrix").
void check_result_size(std::size_t rows, std::size_t cols, std::uint64_t budget, std::string_view what);
// "4 GiB", "1.5 GiB", "12 MiB", "100 bytes": one decimal at most, no exponent.
std::string human_bytes(double bytes);

// The table. Sections by module; a module's validate() and every front end refer to these entries.
namespace limits {
inline constexpr double kUnbounded = 1e300;
// ---- absolute encodings (core/encodings/params) ----
inline constexpr Limit d_model{.name = "d-model", .min = 1, .max = 16384, .fallback = 128,
    .scale = Scale::logarithmic, .window_max = 4096};
inline constexpr Limit seq_len{.name = "seq-len", .min = 1, .max = 65536, .fallback = 128,
    .scale = Scale::logarithmic, .window_max = 8192};
inline constexpr Limit base{.name = "base", .min = 1, .max = kUnbounded, .fallback = 10000,
    .scale = Scale::logarithmic, .window_min = 1.0001, .window_max = 1e7, .min_exclusive = true};
inline constexpr Limit max_len{.name = "max-len", .min = 1, .max = 65536, .fallback = 1024,
    .scale = Scale::logarithmic, .window_max = 8192};
// ---- RoPE pages (core/rope/rope) ----
inline constexpr Limit head_dim{.name = "head-dim", .min = 2, .max = 16384, .fallback = 128,
    .scale = Scale::logarithmic, .window_min = 2, .window_max = 512};
inline constexpr Limit rope_base{.name = "base", .min = 1, .max = kUnbounded, .fallback = 10000,
    .scale = Scale::logarithmic, .window_min = 2, .window_max = 1e8, .min_exclusive = true};
inline constexpr Limit rope_position{.name = "position", .min = 0, .max = 1e9, .fallback = 12,
    .scale = Scale::logarithmic, .window_min = 0, .window_max = 1e5};
// rope-test-vectors: one sequence's positions, each exact in float32 (every integer up to 2^24), and how many.
inline constexpr Limit rope_test_position{.name = "positions", .min = 0, .max = 1 << 24, .fallback = 0};
inline constexpr Limit rope_test_positions{.name = "positions", .min = 1, .max = 4096, .fallback = 20};
// attention-scale (core/models/attention_scale): query positions (n = position + 1 keys), how many, the needle's
// margin D and the distractors' spread in logits, and the methods' parameters. SSMax's s: Nakanishi 2025's
// Figure 1 value; log-n's training length; Llama 4's attn_scale and floor_scale: its config class's defaults.
inline constexpr Limit scale_position{.name = "positions", .min = 0, .max = 1 << 30, .fallback = 0};
inline constexpr Limit scale_positions{.name = "positions", .min = 1, .max = 4096, .fallback = 22};
inline constexpr Limit needle_margin{.name = "margin", .min = 0, .max = 100, .fallback = 5,
    .scale = Scale::linear, .window_min = 0, .window_max = 20};
inline constexpr Limit needle_spread{.name = "spread", .min = 0, .max = 10, .fallback = 0,
    .scale = Scale::linear, .window_min = 0, .window_max = 3};
inline constexpr Limit ssmax_s{.name = "ssmax-s", .min = 0, .max = 10, .fallback = 0.43,
    .scale = Scale::linear, .window_min = 0, .window_max = 2};
inline constexpr Limit train_length{.name = "train-length", .min = 2, .max = 1 << 30, .fallback = 4096,
    .scale = Scale::logarithmic, .window_min = 16, .window_max = 1 << 20};
inline constexpr Limit attn_scale{.name = "attn-scale", .min = 0, .max = 10, .fallback = 0.1,
    .scale = Scale::linear, .window_min = 0, .window_max = 1};
// The page's x axis: query positions up to 10^this.
inline constexpr Limit scale_max_log10{.name = "max-position-log10", .min = 2, .max = 9, .fallback = 6};
inline constexpr Limit floor_scale{.name = "floor-scale", .min = 1, .max = 1 << 30, .fallback = 8192,
    .scale = Scale::logarithmic, .window_min = 16, .window_max = 1 << 20};
inline constexpr Limit decay_max_distance{.name = "max-distance", .min = 1, .max = 100000, .fallback = 1000,
    .scale = Scale::logarithmic, .window_min = 10, .window_max = 100000};
inline constexpr Limit factor{.name = "factor", .min = 1, .max = 1e6, .fallback = 8,
    .scale = Scale::logarithmic, .window_min = 1, .window_max = 64};
inline constexpr Limit original_len{.name = "original-max-len", .min = 1, .max = 1 << 30, .fallback = 8192,
    .scale = Scale::logarithmic, .window_min = 128, .window_max = 1 << 20};
inline constexpr Limit target_len{.name = "target-len", .min = 0, .max = 1 << 30, .fallback = 0,
    .scale = Scale::logarithmic, .window_min = 0, .window_max = 1 << 24};
// YaRN's betas and llama3's frequency factors: positive, their defaults transformers' (modeling_rope_utils.py
// _compute_yarn_parameters: beta_fast 32, beta_slow 1; _compute_llama3_parameters: the configs' 1 and 4).
inline constexpr Limit beta_fast{.name = "beta-fast", .min = 0, .max = 1e6, .fallback = 32,
    .scale = Scale::logarithmic, .window_min = 1.01, .window_max = 256, .min_exclusive = true};
inline constexpr Limit beta_slow{.name = "beta-slow", .min = 0, .max = 1e6, .fallback = 1,
    .scale = Scale::logarithmic, .window_min = 0.01, .window_max = 64, .min_exclusive = true};
inline constexpr Limit low_freq_factor{.name = "low-freq-factor", .min = 0, .max = 1e6, .fallback = 1,
    .scale = Scale::logarithmic, .window_min = 0.1, .window_max = 16, .min_exclusive = true};
inline constexpr Limit high_freq_factor{.name = "high-freq-factor", .min = 0, .max = 1e6, .fallback = 4,
    .scale = Scale::logarithmic, .window_min = 0.1, .window_max = 64, .min_exclusive = true};
// rope-precision's log-spaced positions: up to max-position, `points` of them.
inline constexpr Limit precision_max_position{.name = "max-position", .min = 1, .max = 1 << 30, .fallback = 1 << 20,
    .scale = Scale::logarithmic};
inline constexpr Limit precision_points{.name = "points", .min = 1, .max = 100000, .fallback = 64,
    .scale = Scale::logarithmic};
// rope-decay's distances 0..max-distance; a context (rope-wavelengths' and the target of an extension).
inline constexpr Limit export_max_distance{.name = "max-distance", .min = 0, .max = 1 << 30, .fallback = 1000,
    .scale = Scale::logarithmic};
inline constexpr Limit context_len{.name = "context-len", .min = 1, .max = 1 << 30, .fallback = 8192,
    .scale = Scale::logarithmic};
// p-RoPE's fraction of the frequency pairs that turn, the fastest first (Barbero et al. 2024, "Round and Round We
// Go!"; Gemma's rope_proportion, transformers' "proportional" rope_type): 1 is RoPE, 0 no rotation at all.
inline constexpr Limit rope_proportion{.name = "rope-proportion", .min = 0, .max = 1, .fallback = 1};
// The fraction of a head that rotates (transformers' partial_rotary_factor, GPT-NeoX's rotary_pct).
inline constexpr Limit rotary_fraction{.name = "partial_rotary_factor", .min = 0, .max = 1, .fallback = 1,
    .min_exclusive = true};
inline constexpr Limit precision_max_position_log2{.name = "max-position-log2", .min = 4, .max = 26, .fallback = 20};
// ---- relative family (core/encodings/alibi, core/encodings/t5_buckets, core/encodings/shaw) ----
inline constexpr Limit alibi_heads{.name = "heads", .min = 1, .max = 4096, .fallback = 8,
    .scale = Scale::linear, .window_min = 1, .window_max = 64};
inline constexpr Limit alibi_seq_len{.name = "seq-len", .min = 1, .max = 65536, .fallback = 64,
    .scale = Scale::logarithmic, .window_min = 2, .window_max = 1024};
inline constexpr Limit t5_shaw_seq_len{.name = "seq-len", .min = 1, .max = 65536, .fallback = 64,
    .scale = Scale::logarithmic, .window_min = 2, .window_max = 1024};
inline constexpr Limit num_buckets{.name = "num-buckets", .min = 2, .max = 65536, .fallback = 32,
    .scale = Scale::linear, .window_min = 2, .window_max = 128};
inline constexpr Limit t5_max_distance{.name = "max-distance", .min = 1, .max = 1 << 30, .fallback = 128,
    .scale = Scale::logarithmic, .window_min = 2, .window_max = 4096};
inline constexpr Limit max_relative{.name = "max-relative", .min = 0, .max = 65536, .fallback = 16,
    .scale = Scale::logarithmic, .window_min = 0, .window_max = 256};
// The T5 & Shaw page's Shaw k: a smaller default than the command's, so its clipping shows at L = 64.
inline constexpr Limit t5_shaw_max_relative{.name = "max-relative", .min = 0, .max = 65536, .fallback = 8,
    .scale = Scale::logarithmic, .window_min = 0, .window_max = 256};
// ---- window-only analyses ----
inline constexpr Limit shift_position{.name = "position", .min = 0, .max = 65536, .fallback = 10,
    .scale = Scale::linear, .window_min = 0, .window_max = 8192};
// The linear-shift page's offset k, and the criteria page's two lengths (the shorter, the longer).
inline constexpr Limit shift_offset{.name = "offset", .min = 0, .max = 65536, .fallback = 5,
    .scale = Scale::linear, .window_min = 0, .window_max = 8192};
inline constexpr Limit criteria_length{.name = "length", .min = 2, .max = 8192, .fallback = 64,
    .scale = Scale::logarithmic};
inline constexpr Limit criteria_length_long{.name = "length", .min = 2, .max = 8192, .fallback = 256,
    .scale = Scale::logarithmic};
inline constexpr Limit ui_zoom{.name = "ui-zoom", .min = 0.5, .max = 3, .fallback = 1};
// RoPE clocks' animation: positions per second.
// The clocks page draws a dial per pair: at most 128 of them on screen.
inline constexpr Limit clock_head_dim{.name = "head-dim", .min = 2, .max = 16384, .fallback = 64,
    .scale = Scale::logarithmic, .window_min = 2, .window_max = 256};
inline constexpr Limit clock_speed{.name = "speed", .min = 0.1, .max = 1000, .fallback = 4,
    .scale = Scale::logarithmic};
inline constexpr Limit compare_offset{.name = "compare-offset", .min = -512, .max = 512, .fallback = 64};
// ---- figures (render, F12, File > Export): width and height in screen units ----
inline constexpr Limit figure_width{.name = "width", .min = 64, .max = 7680, .fallback = 1600};
inline constexpr Limit figure_height{.name = "height", .min = 64, .max = 4320, .fallback = 900};
// ---- the window: its size (--size WxH, the saved session) in screen units; the sidebar's width in pixels at
// zoom 1 (times the zoom on screen); the Basics grid's splits as fractions of its width and height ----
inline constexpr Limit sidebar_width{.name = "sidebar_width", .min = 150, .max = 4000, .fallback = 330};
inline constexpr Limit pane_split{.name = "split", .min = 0.15, .max = 0.85, .fallback = 0.5};
inline constexpr Limit window_width{.name = "width", .min = 320, .max = 16384, .fallback = 1600};
inline constexpr Limit window_height{.name = "height", .min = 240, .max = 16384, .fallback = 900};
// ---- the binary analogy (core/encodings/binary_analogy: export binary-analogy and the window's view) ----
inline constexpr Limit binary_positions{.name = "positions", .min = 2, .max = 256, .fallback = 16,
    .scale = Scale::logarithmic};
inline constexpr Limit binary_morph{.name = "morph", .min = 0, .max = 1, .fallback = 0};
// ---- streamed exports (core/io/array_stream, core/base/parallel) ----
// Largest file one export may write, in bytes (--max-output; the free space of the target folder is
// checked as well). 1 byte .. 1 PiB, default 64 GiB.
inline constexpr Limit max_output{.name = "max-output", .min = 1, .max = 1125899906842624.0,
    .fallback = 68719476736.0, .scale = Scale::logarithmic};
// Worker threads for the table, the similarity rows and text formatting; 0 = every core.
inline constexpr Limit threads{.name = "threads", .min = 0, .max = 256, .fallback = 0};
// peviz bench: timed repetitions per size, after one warm-up; the median of 21 is steady on a busy 2-core host.
inline constexpr Limit bench_reps{.name = "reps", .min = 1, .max = 1000, .fallback = 21};
// ---- the window's run flags (peviz --frames N, --lesson-step K) ----
// Frames before the window closes itself (0 = until the user closes it): up to about 4 hours at 60 per second.
inline constexpr Limit window_frames{.name = "frames", .min = 0, .max = 1000000, .fallback = 0};
// The lesson step to start at, 1-based (a lesson's own count is checked when it loads).
inline constexpr Limit lesson_step{.name = "lesson-step", .min = 1, .max = 1000, .fallback = 1};
// ---- animations (peviz render --animate, View > Record animation; app/media writers) ----
inline constexpr Limit animation_frames{.name = "frames", .min = 1, .max = 3600, .fallback = 60};
// The default animation: 60 frames at 20 per second, 3 s (long enough to follow on a slide). MP4; a GIF plays at
// most 50 (media::kMaxGifFps).
inline constexpr Limit animation_fps{.name = "fps", .min = 1, .max = 120, .fallback = 20};
// ---- training (core/train); the RoPE base of a run uses `base` above ----
// The defaults: docs/lab.md, "Choosing the default".
inline constexpr Limit train_layers{.name = "layers", .min = 1, .max = 8, .fallback = 4};
inline constexpr Limit train_heads{.name = "heads", .min = 1, .max = 8, .fallback = 4};
inline constexpr Limit train_d_model{.name = "d-model", .min = 16, .max = 256, .fallback = 64,
    .scale = Scale::logarithmic};  // d-model / heads even
inline constexpr Limit train_batch{.name = "batch", .min = 1, .max = 256, .fallback = 32,
    .scale = Scale::logarithmic};
inline constexpr Limit train_steps{.name = "steps", .min = 1, .max = 100000, .fallback = 3000,
    .scale = Scale::logarithmic};
// Longest training n (2n + 3 tokens).
inline constexpr Limit train_max{.name = "train-max", .min = 1, .max = 40, .fallback = 20};
// Also at most 4 x train-max.
inline constexpr Limit test_max{.name = "test-max", .min = 1, .max = 160, .fallback = 40};
// test-max may be at most this many times train-max (a test length past it says nothing the chart can show).
inline constexpr int kTestMaxPerTrainMax = 4;
inline constexpr Limit test_samples{.name = "test-samples", .min = 1, .max = 10000, .fallback = 200,
    .scale = Scale::logarithmic};  // sequences per length
inline constexpr Limit learning_rate{.name = "lr", .min = 1e-6, .max = 1, .fallback = 2e-3,
    .scale = Scale::logarithmic};  // the lab default: docs/lab.md
inline constexpr Limit warmup{.name = "warmup", .min = 0, .max = 100000, .fallback = 300,
    .scale = Scale::logarithmic};
// Position ids of the randomized and coupled encodings (core/train/positions.hpp) lie in [0, position-range): Ruoss
// et al.'s L. At least the longest sequence, 2 x max(train-max, test-max) + 3; the default: docs/lab.md.
inline constexpr Limit position_range{.name = "position-range", .min = 2, .max = 4096, .fallback = 128,
    .scale = Scale::logarithmic};
// The exponential moving average of the weights (core/train/run.hpp): ema = decay * ema + (1 - decay) * w after every
// step, evaluated in place of the weights; 0 (the default) = off. Dropout's probability on the attention probabilities
// and on both residual branches (core/train/dropout.hpp), training steps only; 0 (the default) = off. docs/lab.md,
// "EMA of the weights and dropout" (Zsámboki et al. 2025 found both help length generalisation).
inline constexpr Limit train_ema{.name = "ema", .min = 0, .max = 0.9999, .fallback = 0};
inline constexpr Limit train_dropout{.name = "dropout", .min = 0, .max = 0.9, .fallback = 0};
// A layer schedule: every this-many-th layer attends without positions (0 = none; SmolLM3 and Llama 4 use 4).
inline constexpr Limit train_nope_every{.name = "nope-every", .min = 0, .max = 8, .fallback = 0};
// DroPE (Gelberg et al., ICLR 2026): the last this-many training steps run without positions (0 = off); fewer than
// the steps, so that training starts with them.
inline constexpr Limit train_drope_steps{.name = "drope-steps", .min = 0, .max = 99999, .fallback = 0,
    .scale = Scale::logarithmic};
// Runs in parallel, one run per thread.
inline constexpr Limit train_threads{.name = "threads", .min = 1, .max = 64, .fallback = 1};
// Seeds per encoding (a count; --seeds also takes a list).
inline constexpr Limit train_seeds{.name = "seeds", .min = 1, .max = 64, .fallback = 1};
// ---- RoPE extrapolation bounds (core/rope/rope_bounds); head-dim and base as in core/rope/rope ----
inline constexpr Limit bounds_context_len{.name = "context-len", .min = 1, .max = 1 << 20, .fallback = 4096,
    .scale = Scale::logarithmic};
// Liu et al.'s training length T_train; 0: the context length (core/rope/rope_bounds.hpp).
inline constexpr Limit bounds_train_len{.name = "train-len", .min = 0, .max = 1 << 20, .fallback = 0};
// How far above Men et al.'s smallest base the bases that hold are listed (a factor; 0: not listed). Each holding
// base costs a walk over m < L: 64x takes seconds at L 4096 and minutes at 131072 (docs/lab.md).
inline constexpr Limit bounds_islands{.name = "islands", .min = 0, .max = 64, .fallback = 0};
// The window's models-compared table lists the bases that hold up to this factor above each model's smallest base
// (core/models/model_comparison: holding_base_scan), 5 s of frames at 131,072 tokens. Every base above 2.2x holds at 4,096
// tokens; at 32,768 the islands go on to about 5x (`peviz export rope-bounds --islands` lists further).
inline constexpr double bounds_islands_listed = 2.0;

// ---- multimodal RoPE (core/models/mrope): a text + image + text sequence, the image after spatial merging ----
inline constexpr Limit mrope_text_before{.name = "text-before", .min = 0, .max = 4096, .fallback = 4,
    .window_max = 64};
inline constexpr Limit mrope_text_after{.name = "text-after", .min = 0, .max = 4096, .fallback = 4, .window_max = 64};
inline constexpr Limit mrope_grid_h{.name = "grid-h", .min = 1, .max = 256, .fallback = 8, .window_max = 48};
inline constexpr Limit mrope_grid_w{.name = "grid-w", .min = 1, .max = 256, .fallback = 12, .window_max = 48};
// The patch whose scores with the others the page draws (0-based row and column; clamped into the grid).
inline constexpr Limit mrope_patch_row{.name = "patch-row", .min = 0, .max = 255, .fallback = 3, .window_max = 47};
inline constexpr Limit mrope_patch_col{.name = "patch-col", .min = 0, .max = 255, .fallback = 5, .window_max = 47};
inline constexpr Limit mrope_max_offset{.name = "max-offset", .min = 1, .max = 1 << 20, .fallback = 64,
    .scale = Scale::logarithmic, .window_min = 4, .window_max = 1 << 16};
}  // namespace limits

}  // namespace peviz
