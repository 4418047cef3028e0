// Frequencies and wavelengths per channel, and the linear shift R(k) with PE(p+k) = R(k) PE(p).
#pragma once
#include <vector>

#include "core/base/matrix.hpp"
#include "core/encodings/params.hpp"

namespace peviz {

// One row per sin/cos pair of the sinusoidal encoding.
struct ChannelFrequency {
  int pair = 0;            // pair index i
  int sin_channel = 0;     // channel holding sin(t w)
  int cos_channel = -1;    // channel holding cos(t w); -1 for the unpaired sin of an odd d
  double w = 0.0;          // angular frequency, radians per position
  double wavelength = 0.0; // 2 pi / w, positions per full turn
};
std::vector<ChannelFrequency> channel_frequencies(int d_model, double base, Layout layout);

// The d x d matrix R(k): for each pair, the 2x2 rotation
//   [sin((p+k)w)]   [ cos kw  sin kw] [sin(pw)]
//   [cos((p+k)w)] = [-sin kw  cos kw] [cos(pw)]
// placed on that pair's channels (adjacent for interleaved, i and i+n for halves). R depends on
// k only, never on p. An unpaired sin channel (odd d, interleaved) cannot be shifted linearly from
// itself; R keeps cos(kw) there and the measured error shows the identity failing. A zero column
// (odd d, halves) maps to zero.
Matrix shift_matrix(int d_model, double base, Layout layout, double k);

struct ShiftCheck {
  double max_abs_error = 0.0;  // max over checked p and channels of |PE(p+k) - R(k) PE(p)|
  int positions_checked = 0;   // p = 0 .. L-1-k (strided when d*d*L is large)
};
// Measures the identity on the float32 table of `p` (sinusoidal only; throws otherwise).
ShiftCheck measure_shift_identity(const EncodingParams& p, int k);

// y = R x for a dense R (row-major) and a vector x.
void apply_matrix(const Matrix& r, const float* x, float* y);

}  // namespace peviz
