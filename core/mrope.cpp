// Multimodal RoPE: position ids of a text + image + text sequence (get_rope_index) and per-axis offset scores.
#include "core/mrope.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/limits.hpp"

namespace peviz {

void validate(const MropeSequence& s) {
  check_int(limits::mrope_text_before, s.text_before);
  check_int(limits::mrope_grid_h, s.grid_h);
  check_int(limits::mrope_grid_w, s.grid_w);
  check_int(limits::mrope_text_after, s.text_after);
}

MropePositions mrope_position_ids(const MropeSequence& s) {
  validate(s);
  MropePositions p;
  const auto push = [&](int t, int h, int w, bool image) {
    p.t.push_back(t);
    p.h.push_back(h);
    p.w.push_back(w);
    p.image.push_back(image);
  };
  for (int i = 0; i < s.text_before; ++i) push(i, i, i, false);
  const int start = s.text_before;  // the largest id so far + 1
  for (int row = 0; row < s.grid_h; ++row)
    for (int col = 0; col < s.grid_w; ++col) push(start, start + row, start + col, true);
  const int next = start + std::max(s.grid_h, s.grid_w);  // start + max(row, col) + 1
  for (int i = 0; i < s.text_after; ++i) push(next + i, next + i, next + i, false);
  return p;
}

std::vector<double> mrope_axis_score(std::span<const double> inv_freq, std::span<const RopeAxis> axes, RopeAxis a,
                                     int max_offset) {
  check_int(limits::mrope_max_offset, max_offset);
  if (axes.size() != inv_freq.size()) throw ParamError("pair-axis", "needs one axis per rotary pair");
  std::vector<double> freqs;
  for (std::size_t j = 0; j < axes.size(); ++j)
    if (axes[j] == a) freqs.push_back(inv_freq[j]);
  std::vector<double> score;
  if (freqs.empty()) return score;
  for (int d = 0; d <= max_offset; ++d) {
    double sum = 0;
    for (double f : freqs) sum += std::cos(double(d) * f);
    score.push_back(sum / double(freqs.size()));
  }
  return score;
}

}  // namespace peviz
