// State of the analysis pages (RoPE, context extension, ALiBi, T5/Shaw, distance chart, linear shift,
// criteria, learned tables, precision): their options, dirty flags and cached results. No ImGui, no GL.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "app/plot/heatmap_image.hpp"
#include "core/context_extension.hpp"
#include "core/criteria.hpp"
#include "core/distance_series.hpp"
#include "core/matrix.hpp"
#include "core/rope.hpp"
#include "core/safetensors.hpp"

namespace peviz::app {

// The pages of the window: the 2 x 2 grid of the basic views, then one page per analysis view.
enum class Page {
  basics, rope_clocks, rope_decay, context_extension, alibi, t5_shaw, distance_chart, linear_shift, criteria,
  learned, precision
};
inline constexpr int kPageCount = 11;
const char* page_title(Page p);  // "RoPE clocks", ...
const char* page_name(Page p);   // command-line spelling: "rope-clocks", ...

struct RopeClocksOptions {
  RopeParams rope{64, 0, 10000.0, RopePairing::halves};  // head_dim 64: 32 dials
  double position = 12.0;        // t, the position whose rotations are drawn
  bool animate = false;          // sweep t forward every frame
  float speed = 4.0f;            // positions per second while animating
  // cache
  std::vector<double> inv_freq, angles;  // per pair; angle wrapped to [0, 2 pi)
  std::vector<float> angles_f;           // the same as float, for the line plot
  std::vector<int> channel_a, channel_b; // the two channels of each pair for this pairing
};

struct RopeDecayOptions {
  int head_dim = 128;
  int max_distance = 1000;
  std::array<bool, 3> base_on{true, true, true};  // bases 10000, 500000, 1e6
  bool show_bound = true;
  // cache: per base, rope_decay columns normalised by their value at r = 0
  std::array<std::vector<float>, 3> score, bound;
};
inline constexpr double kDecayBases[3] = {10000.0, 500000.0, 1e6};

struct ContextExtensionOptions {
  ContextExtensionParams params = rope_model_presets()[1].params;  // Llama-3.1 8B
  int preset = 1;                 // index into rope_model_presets(), -1 = custom
  std::array<bool, 5> shown{true, true, true, true, true};  // none, linear, dynamic, yarn, llama3
  // cache
  ContextExtension result;
  std::array<std::vector<float>, 5> log10_wavelength;
  std::vector<float> ramp;        // YaRN ramp per pair
};

struct AlibiOptions {
  int heads = 8;
  int seq_len = 64;
  bool bidirectional = false;
  int head = 0;                   // head shown large
  // cache
  std::vector<double> slopes;
  std::vector<float> slopes_f;
  Matrix head_bias;               // L x L of `head` (NaN above the diagonal when causal)
  Matrix grid;                    // every head tiled in a ceil(sqrt(H)) grid, NaN gutters
  int grid_cols = 1;
  plot::HeatmapImage head_image, grid_image;
};

struct T5ShawOptions {
  int seq_len = 64;
  int num_buckets = 32;
  int max_distance = 128;
  bool causal = false;
  int max_relative = 8;           // Shaw k
  // cache
  Matrix buckets, shaw;           // L x L
  std::vector<float> bucket_of_distance;  // r = -(L-1)..L-1
  plot::HeatmapImage buckets_image, shaw_image;
};

struct DistanceChartOptions {
  DistanceSeriesParams params;
  std::vector<bool> shown;        // per series (legend toggles); grows with the series list
  // cache
  DistanceSeries series;
  Matrix normalised;
};

struct LinearShiftOptions {
  int p = 10;                     // base position
  int k = 5;                      // offset
  // cache (sinusoidal table of the sidebar's d_model, base and layout)
  std::vector<float> shifted, rotated, difference;  // PE(p+k), R(k) PE(p), their difference
  Matrix rk;                      // R(k), d x d
  double max_error_here = 0.0;    // max |difference| at this p
  double max_error_all_p = 0.0;   // the same over every p in 0..L-1-k (measure_shift_identity)
  bool sinusoidal = true;
  plot::HeatmapImage rk_image;
};

struct CriteriaOptions {
  int length_a = 64, length_b = 256;   // the two lengths of the "same offset" plot
  // cache: one report per encoding at the sidebar's parameters
  std::array<CriteriaReport, 5> reports;
  std::array<std::string, 5> errors;   // ParamError text when an encoding cannot be measured
  int measured_len = 0;                // L used (capped for the O(L^2 d) measurements)
  std::vector<float> normalized_a, normalized_b, integer_values;
};

struct LearnedOptions {
  std::string directory;          // file dialog folder (empty = current directory)
  std::vector<std::string> entries;  // its sub-folders ("name/") then .npy and .safetensors files
  bool list_directory = true;     // re-read `directory` in the next update
  std::string path;               // chosen file
  std::string pending_drop;       // a file dropped onto the window, loaded by the next update
  std::vector<SafetensorsTensor> tensors;  // tensors of `path` when it is a .safetensors
  int tensor = -1;                // chosen tensor index
  std::string loaded_name;        // what the learned table came from, for display
  std::string error;              // last refusal, shown in the page
  bool load_requested = false;
  // cache: row norms of the loaded table against position (NaN past its length)
  std::vector<float> row_norm;
};

struct PrecisionOptions {
  bool use_rope = true;           // RoPE (head_dim, base) or the sidebar's sinusoid frequencies
  int head_dim = 128;
  double base = 10000.0;
  int max_position_log2 = 20;     // positions 1 .. 2^this
  // cache
  std::vector<float> log2_position;
  std::array<std::vector<float>, 3> error;  // fp32, bf16, fp16, radians
  std::array<double, 3> indistinguishable{};  // first t with fl(t+1) == fl(t)
};

struct AnalysisState {
  Page page = Page::basics;
  RopeClocksOptions clocks;
  RopeDecayOptions decay;
  ContextExtensionOptions extension;
  AlibiOptions alibi;
  T5ShawOptions t5_shaw;
  DistanceChartOptions distance;
  LinearShiftOptions shift;
  CriteriaOptions criteria;
  LearnedOptions learned;
  PrecisionOptions precision;
  // Dirty per page; set by the page's controls and by sidebar parameter changes.
  std::array<bool, kPageCount> dirty{};
  AnalysisState() { dirty.fill(true); }
  void mark(Page p) { dirty[std::size_t(p)] = true; }
  // Where the key part of the page's drawing landed last frame (tests and screenshots).
  float plot_region[4] = {0, 0, 0, 0};
  bool status_from_page = false;  // the status line shows a page's error
};

}  // namespace peviz::app
