// The Basics page (waves, encoding heatmap, similarity, binary analogy of the sidebar's encoding): its views'
// options, its dirty flags and its cached results (update, export, state JSON: basics_page.cpp). The other
// pages read its results of the sidebar's parameters (`computed`, `encoding`, `frequencies`).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/encodings/binary_analogy.hpp"
#include "core/base/matrix.hpp"
#include "core/encodings/params.hpp"
#include "core/encodings/similarity.hpp"

namespace peviz::app {

// Work budget of the general (non-Toeplitz) similarity path, in multiply-adds: above it the
// similarity heatmap samples every s-th position.
inline constexpr double kGeneralSimilarityWork = 64e6;

struct WavesOptions {
  std::string channels_text;      // comma-separated channels; empty = defaults
  int first_position = 0;         // shown position range (clamped to [0, L))
  int last_position = -1;         // -1 = L-1
  bool range_changed = false;     // the range was edited: the plot drops its zoom
};

struct EncodingViewOptions {
  int colormap_choice = 0;  // 0 = automatic (diverging for [-1,1]-ish data), else Colormap + 1
};

struct SimilarityOptions {
  Metric metric = Metric::cosine;
  int colormap_choice = 0;  // 0 = automatic
  int compare_offset = 64;  // second row shown in the line plot: highlight + this
};

struct BinaryOptions {
  int positions = 16;   // table rows 0..positions-1 (2..256)
  float morph = 0.0f;   // 0 = exact base-2 ladder, 1 = the chosen base's frequencies
};

// What of Basics must be recomputed before the next draw. Set by the sidebar and the views; cleared by the
// page's update. None set while the page is marked as a whole (PageStates::mark): everything.
struct BasicsDirty {
  bool encoding = true;    // params changed: encoding, frequencies, and everything below
  bool similarity = true;  // metric changed
  bool binary = true;      // binary options changed
  bool colors = true;      // colormap choice changed (no recompute, new colour range)
  bool channels = true;    // the waves view's channel list changed (re-resolve it)
  bool any() const { return encoding || similarity || binary || colors || channels; }
};

struct BasicsOptions {
  // --- inputs ---
  WavesOptions waves;
  EncodingViewOptions encoding_view;
  SimilarityOptions similarity_view;
  BinaryOptions binary_view;
  BasicsDirty dirty;

  // --- cached results (valid for `computed`) ---
  bool has_results = false;
  EncodingParams computed;            // the parameters the results below belong to
  Matrix encoding;                    // L x width, NaN = position past max_len
  std::vector<double> frequencies;    // sinusoid pair frequencies (rad/position) of `computed`
  std::vector<int> wave_channels;     // resolved channel list for the waves view
  std::vector<float> channel_wavelength;  // per channel, positions per cycle (NaN: not periodic)
  std::vector<float> channel_log10_wavelength;  // log10 of the above, for the fast -> slow strip
  Matrix similarity;                  // n x n over positions 0, s, 2s, ... (s = similarity_stride); empty for sinusoids
  ToeplitzSimilarity similarity_toeplitz;  // sinusoidal: the similarity as offsets, O(L) (size 0 otherwise)
  std::vector<float> similarity_rows;  // scratch: the row plot's rows read from similarity_toeplitz
  int similarity_stride = 1;
  Matrix sampled_encoding;            // scratch: every s-th encoding row for the sampled similarity
  BinaryAnalogy binary;
  plot::HeatmapImage encoding_image, similarity_image;
};

// Default waves channels for d channels: 0, 1, 2, 3, d/2, d-2, d-1 (deduplicated, < d).
std::vector<int> default_wave_channels(int d);
// Parses "0, 1, 5" (ranges "4-7" allowed) into channels < d; nullopt when malformed.
std::optional<std::vector<int>> parse_channel_list(const std::string& text, int d);
// Similarity sampling stride for the general path: 1 when n^2 d fits kGeneralSimilarityWork.
int similarity_stride_for(int seq_len, int width, bool toeplitz);

}  // namespace peviz::app
