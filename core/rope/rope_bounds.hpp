// Theory of RoPE extrapolation next to the lab: Liu et al. 2023's critical dimension and Men et al. 2024's base bound.
//
// Frequencies theta_i = base^(-2i/d), i < d/2, d = head_dim (core/rope/rope.hpp's default inv_freq).
//  - Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation", Eq. 13: the critical dimension
//    d_extra = 2 * ceil((d/2) * log_base(T_train / 2 pi)) counts the channels whose pair completes a
//    full period inside the training length; beyond T_extra = 2 pi * base^(d_extra / d) the first pair
//    that never completed a period sees angles it was never trained on.
//  - Men et al. 2024, "Base of RoPE Bounds Context Length", Eq. 7-8: B(m) = sum_i cos(m theta_i)
//    measures how much more attention a similar token gets than a random one at distance m; it must stay
//    >= 0 for every m < L, which bounds the base from below for a context length L. B(m) is not monotone in
//    the base: the bases that hold form islands below the region where all hold, so the smallest one is
//    found by a scan over log(base) and a bisection inside the last step (core/rope/rope_bounds.cpp, min_base).
#pragma once
#include <memory>
#include <optional>
#include <vector>

namespace peviz {

// Two contexts, as the papers define them: Liu's d_extra counts the pairs that turn inside the length the model
// was trained on (T_train: a model's original context before any extension), Men's bound is for the context the
// model must serve (L: its extended context). One number for a model has one context: the models-compared
// table (core/models/model_comparison) and `peviz export rope-bounds --config` both take the original and the
// extended context from model_rope.
struct RopeBoundsParams {
  int head_dim = 128;      // even, 2..16384
  double base = 10000;     // > 1
  int context_len = 4096;  // L for Men; 1..2^20 (limits::bounds_context_len)
  int train_len = 0;       // T_train for Liu, 0..2^20 (limits::bounds_train_len); 0: context_len
};

struct RopeBounds {
  int d_extra = 0;                             // Liu Eq. 13, clamped to [0, head_dim]
  double t_extra = 0;                          // 2 pi * base^(d_extra / head_dim)
  std::optional<long long> first_negative_m;   // first m with B(m) < 0, searched up to 2^24; nullopt: none
  std::optional<double> min_base;              // smallest base with B(m) >= 0 for all m < L (scan in steps of
                                               // 0.05%, refined to 1e-6); nullopt: none up to 1e12
};

// Throws ParamError("head-dim" | "base" | "context-len", rule).
void validate(const RopeBoundsParams& p);
RopeBounds rope_bounds(const RopeBoundsParams& p);

// Liu et al. Eq. 13's d_extra, clamped to [0, head_dim] (no validation).
int liu_critical_dim(int head_dim, double base, double context_len);
// Men et al.'s smallest base for context L (RopeBounds::min_base) without the rest (no validation).
std::optional<double> rope_min_base(int head_dim, long long L);

// The bases from Men et al.'s smallest one (`smallest`, rope_min_base's answer for L) up to `up_to` that keep
// B(m) >= 0 for every m < L, as ranges [lo, hi] (islands: the bases between two ranges fail again). Scanned as
// rope_min_base, bases 0.05% apart, edges refined to 1e-6; a range still holding at up_to ends there. Empty when
// up_to is not above the smallest base. A full walk over m < L per holding base: about 2 s at L 4096 up to 4x the
// smallest base (docs/lab.md), 4.8 s at L 131072 up to 2x (docs/views.md).
struct BaseRange {
  double lo = 0, hi = 0;
};
std::vector<BaseRange> rope_holding_bases(int head_dim, long long L, double smallest, double up_to);

// The same scan one base at a time, for a caller that spreads it over frames (the window's models-compared
// table): ranges() grows as step() goes, and equals rope_holding_bases's answer once done().
class HoldingBaseScan {
 public:
  HoldingBaseScan(int head_dim, long long L, double smallest, double up_to);
  HoldingBaseScan(const HoldingBaseScan& other);
  HoldingBaseScan& operator=(const HoldingBaseScan& other);
  HoldingBaseScan(HoldingBaseScan&&) noexcept;
  HoldingBaseScan& operator=(HoldingBaseScan&&) noexcept;
  ~HoldingBaseScan();

  bool done() const;
  // Decides the next base of the scan, or takes one step of the bisection of an edge where the answer changed:
  // one walk over m < L at most. A moved-from scan may only be assigned to or destroyed.
  void step();
  // The share of log(base) from the smallest base to up_to scanned so far, 0..1.
  double progress() const;
  double up_to() const;
  const std::vector<BaseRange>& ranges() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// B(m) = sum_{i < d/2} cos(m * base^(-2i/d)), in double (Men et al. 2024, Eq. 8).
double rope_similarity_bound(int head_dim, double base, long long m);
// The first m in [0, limit] with B(m) < 0, or nullopt.
std::optional<long long> first_negative_rope_bound(int head_dim, double base, long long limit);

}  // namespace peviz
