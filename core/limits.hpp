// Every parameter limit of peviz in one table: the one spelling of each name, its range, default and scale.
//
// Core validation, CLI flags (--<name>), state JSON keys and GUI sliders all read these entries; nothing
// else keeps a copy of a bound. `name` is the CLI spelling without dashes ("d-model"); state JSON uses the
// same spelling. `slider_max` is the top of the GUI slider where the interactive range is tighter than
// what core accepts (0 = the slider runs to `max`). `scale` says how a slider moves: logarithmic for
// ranges over several decades (sequence length, base, distances, factors).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace peviz {

enum class Scale { linear, logarithmic };

struct Limit {
  std::string_view name;   // "d-model": the CLI flag without dashes and the state JSON key
  double min;              // smallest allowed value (inclusive)
  double max;              // largest allowed value (inclusive)
  double fallback;         // the default
  Scale scale = Scale::linear;
  double slider_max = 0;   // GUI slider top where tighter than max; 0 = max
  double slider_top() const { return slider_max > 0 ? slider_max : max; }
};

// Throw ParamError(l.name, "must be an integer in [min, max], got v") when v is outside the limit.
int check_int(const Limit& l, long long v);
// Throw ParamError(l.name, "must be a finite number in [min, max], got v") when v is outside or not finite.
double check_real(const Limit& l, double v);
// "[1, 16384]" with integers printed without a decimal point.
std::string range_text(const Limit& l);

// The table. Sections by module; a module's validate() and every front end refer to these entries.
namespace limits {
// ---- absolute encodings (core/params) ----
inline constexpr Limit d_model{"d-model", 1, 16384, 128, Scale::logarithmic, 1024};
inline constexpr Limit seq_len{"seq-len", 1, 65536, 128, Scale::logarithmic, 8192};
inline constexpr Limit base{"base", 1.0000001, 1e12, 10000, Scale::logarithmic, 1e7};
inline constexpr Limit max_len{"max-len", 1, 65536, 1024, Scale::logarithmic, 8192};
// ---- training (core/train); the RoPE base of a run uses `base` above ----
inline constexpr Limit train_layers{"layers", 1, 4, 2};
inline constexpr Limit train_heads{"heads", 1, 8, 2};
inline constexpr Limit train_d_model{"d-model", 16, 256, 64, Scale::logarithmic};  // d-model / heads even
inline constexpr Limit train_batch{"batch", 1, 256, 32, Scale::logarithmic};
inline constexpr Limit train_steps{"steps", 1, 100000, 3000, Scale::logarithmic};
inline constexpr Limit train_max{"train-max", 1, 40, 20};  // longest training n (2n + 3 tokens)
inline constexpr Limit test_max{"test-max", 1, 160, 40};   // also at most 4 x train-max
inline constexpr Limit test_samples{"test-samples", 1, 10000, 200, Scale::logarithmic};  // sequences per length
inline constexpr Limit learning_rate{"lr", 1e-6, 1, 1e-3, Scale::logarithmic};
inline constexpr Limit warmup{"warmup", 0, 100000, 100, Scale::logarithmic};
inline constexpr Limit train_threads{"threads", 1, 64, 1};  // runs in parallel, one encoding per thread
// ---- RoPE extrapolation bounds (core/rope_bounds); head-dim and base as in core/rope ----
inline constexpr Limit bounds_context_len{"context-len", 1, 1 << 20, 4096, Scale::logarithmic};
}  // namespace limits

}  // namespace peviz
