// Multimodal RoPE: position ids of a text + image + text sequence (get_rope_index) and per-axis offset scores.
#include "core/models/mrope.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

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

std::string describe_pair_axis(std::span<const RopeAxis> axes) {
  std::vector<std::size_t> run_starts;  // where a run of one axis begins
  for (std::size_t j = 0; j < axes.size(); ++j)
    if (j == 0 || axes[j] != axes[j - 1]) run_starts.push_back(j);
  std::ostringstream text;
  if (run_starts.size() <= 3) {  // contiguous sections
    for (std::size_t r = 0; r < run_starts.size(); ++r) {
      const std::size_t end = r + 1 < run_starts.size() ? run_starts[r + 1] : axes.size();
      text << (r ? ", " : "contiguous: pairs ") << run_starts[r] << "-" << end - 1 << " " << to_string(axes[run_starts[r]]);
    }
    return text.str();
  }
  text << "interleaved: pairs 0, 1, 2, ... turn with";
  for (std::size_t j = 0; j < std::min<std::size_t>(6, axes.size()); ++j) text << " " << to_string(axes[j]);
  text << " ...;";
  for (RopeAxis a : {RopeAxis::t, RopeAxis::h, RopeAxis::w})
    text << (a == RopeAxis::t ? " " : ", ") << to_string(a) << " " << std::count(axes.begin(), axes.end(), a);
  return text.str() + " pairs";
}

Matrix mrope_patch_scores(std::span<const double> inv_freq, std::span<const RopeAxis> axes, const MropeSequence& s,
                          int row, int col, bool flattened) {
  validate(s);
  if (row < 0 || row >= s.grid_h || col < 0 || col >= s.grid_w)
    throw ParamError("patch", "must lie inside the " + std::to_string(s.grid_h) + " x " + std::to_string(s.grid_w) +
                                  " grid");
  if (axes.size() != inv_freq.size()) throw ParamError("pair-axis", "needs one axis per rotary pair");
  Matrix out(std::size_t(s.grid_h), std::size_t(s.grid_w));
  for (int r = 0; r < s.grid_h; ++r)
    for (int c = 0; c < s.grid_w; ++c) {
      const int offset[3] = {0, r - row, c - col};  // t, h, w
      const int flat = (r - row) * s.grid_w + (c - col);
      double sum = 0;
      for (std::size_t j = 0; j < inv_freq.size(); ++j)
        sum += std::cos(double(flattened ? flat : offset[std::size_t(axes[j])]) * inv_freq[j]);
      out.at(std::size_t(r), std::size_t(c)) = float(sum / double(inv_freq.size()));
    }
  return out;
}

}  // namespace peviz
