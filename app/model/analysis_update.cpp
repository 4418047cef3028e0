// The analysis pages' update step: turns each page's options into cached series and images via core.
#include "app/model/analysis_update.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>

#include "core/absolute_encodings.hpp"
#include "core/alibi.hpp"
#include "core/errors.hpp"
#include "core/nd_array.hpp"
#include "core/precision.hpp"
#include "core/shaw.hpp"
#include "core/shift_analysis.hpp"
#include "core/t5_buckets.hpp"

namespace peviz::app {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
// Criteria cost O(L^2 d) for non-sinusoidal tables: the scorecard measures at most this many positions.
constexpr int kCriteriaMaxLen = 512;

void set_image(plot::HeatmapImage& img, const Matrix& m, plot::Colormap map, double vmin, double vmax) {
  img.values = &m;
  ++img.version;
  img.colormap = map;
  img.vmin = vmin;
  img.vmax = vmax > vmin ? vmax : vmin + 1.0;
}

Matrix from_ints(const NdArray& a) {
  Matrix m(a.shape[0], a.shape[1]);
  for (std::size_t i = 0; i < a.i32.size(); ++i) m.data[i] = float(a.i32[i]);
  return m;
}

void update_clocks(RopeClocksOptions& o) {
  o.inv_freq = rope_inv_freq(o.rope);  // validates head_dim and base
  o.angles = rope_clock_angles(o.inv_freq, o.position);
  o.angles_f.assign(o.angles.begin(), o.angles.end());
  const int R = rotary_dim(o.rope);
  o.channel_a.clear();
  o.channel_b.clear();
  for (int j = 0; j < R / 2; ++j) {
    const bool halves = o.rope.pairing == RopePairing::halves;
    o.channel_a.push_back(halves ? j : 2 * j);
    o.channel_b.push_back(halves ? j + R / 2 : 2 * j + 1);
  }
}

void update_decay(RopeDecayOptions& o) {
  if (o.max_distance < 1 || o.max_distance > 100000)
    throw ParamError("max-distance", "must be an integer in [1, 100000], got " + std::to_string(o.max_distance));
  for (int b = 0; b < 3; ++b) {
    RopeParams p;
    p.head_dim = o.head_dim;
    p.base = kDecayBases[b];
    const Matrix d = rope_decay(rope_inv_freq(p), p.head_dim, o.max_distance);
    o.score[std::size_t(b)].resize(d.rows);
    o.bound[std::size_t(b)].resize(d.rows);
    for (std::size_t r = 0; r < d.rows; ++r) {  // RoFormer Figure 2 shape: each curve over its r = 0 value
      o.score[std::size_t(b)][r] = d.at(r, 1) / d.at(0, 1);
      o.bound[std::size_t(b)][r] = d.at(r, 2) / d.at(0, 2);
    }
  }
}

void update_extension(ContextExtensionOptions& o) {
  o.result = compare_context_extensions(o.params);
  for (std::size_t k = 0; k < o.result.rows.size(); ++k) {
    o.log10_wavelength[k].clear();
    for (double w : o.result.rows[k].wavelength) o.log10_wavelength[k].push_back(float(std::log10(w)));
  }
  o.ramp.assign(o.result.rows[3].scaled.yarn_ramp.begin(), o.result.rows[3].scaled.yarn_ramp.end());
}

void update_alibi(AlibiOptions& o) {
  if (o.seq_len < 1 || o.seq_len > 1024)
    throw ParamError("seq-len", "ALiBi view: must be an integer in [1, 1024], got " + std::to_string(o.seq_len));
  if (o.heads < 1 || o.heads > 64)
    throw ParamError("heads", "ALiBi view: must be an integer in [1, 64], got " + std::to_string(o.heads));
  o.slopes = alibi_slopes(o.heads);
  o.slopes_f.assign(o.slopes.begin(), o.slopes.end());
  const NdArray bias = alibi_bias(o.heads, o.seq_len, o.bidirectional);
  o.head = std::clamp(o.head, 0, o.heads - 1);
  const std::size_t L = std::size_t(o.seq_len), per_head = L * L;
  o.head_bias.reshape(L, L);
  std::copy_n(bias.f32.begin() + std::ptrdiff_t(per_head * std::size_t(o.head)), per_head, o.head_bias.data.begin());
  Matrix stacked(std::size_t(o.heads) * L, L);
  std::copy(bias.f32.begin(), bias.f32.end(), stacked.data.begin());
  o.grid_cols = int(std::ceil(std::sqrt(double(o.heads))));
  o.grid = tile_heads(stacked, o.heads, o.seq_len, o.grid_cols);
  const double lo = -o.slopes[0] * double(o.seq_len - 1);  // the steepest head's farthest key
  set_image(o.head_image, o.head_bias, plot::Colormap::magma, -o.slopes[std::size_t(o.head)] * double(o.seq_len - 1), 0.0);
  set_image(o.grid_image, o.grid, plot::Colormap::magma, lo, 0.0);
}

void update_t5_shaw(T5ShawOptions& o) {
  if (o.seq_len < 1 || o.seq_len > 1024)
    throw ParamError("seq-len", "T5/Shaw view: must be an integer in [1, 1024], got " + std::to_string(o.seq_len));
  T5BucketParams t5;
  t5.query_len = t5.key_len = o.seq_len;
  t5.num_buckets = o.num_buckets;
  t5.max_distance = o.max_distance;
  t5.bidirectional = !o.causal;
  o.buckets = from_ints(t5_bucket_matrix(t5));  // validates
  ShawParams shaw;
  shaw.query_len = shaw.key_len = o.seq_len;
  shaw.max_relative = o.max_relative;
  o.shaw = from_ints(shaw_relative_positions(shaw));
  o.bucket_of_distance.clear();
  for (int r = -(o.seq_len - 1); r <= o.seq_len - 1; ++r)
    o.bucket_of_distance.push_back(float(t5_relative_position_bucket(r, !o.causal, o.num_buckets, o.max_distance)));
  // Categorical: one colour per integer value (bucket ids 0..B-1, Shaw values -k..k).
  set_image(o.buckets_image, o.buckets, plot::Colormap::categorical, -0.5, o.num_buckets - 0.5);
  set_image(o.shaw_image, o.shaw, plot::Colormap::categorical, -o.max_relative - 0.5, o.max_relative + 0.5);
}

void update_distance(DistanceChartOptions& o) {
  o.series = distance_series(o.params);
  o.normalised = normalised_series(o.series);
  if (o.shown.size() != o.series.names.size()) {
    o.shown.assign(o.series.names.size(), true);
    for (std::size_t i = 0; i < o.shown.size(); ++i)  // ALiBi: only heads 0 and H-1 on by default
      if (o.series.names[i].starts_with("alibi_h") && o.series.names[i] != "alibi_h0" &&
          i + 3 != o.series.names.size())
        o.shown[i] = false;
  }
}

void update_shift(LinearShiftOptions& o, const EncodingParams& params) {
  o.sinusoidal = params.encoding == Encoding::sinusoidal;
  if (!o.sinusoidal) return;  // the page says why; nothing to compute
  const int L = params.seq_len;
  o.k = std::clamp(o.k, 0, std::max(L - 1, 0));
  o.p = std::clamp(o.p, 0, std::max(L - 1 - o.k, 0));
  EncodingParams longer = params;
  longer.seq_len = std::max(L, o.p + o.k + 1);
  const Matrix pe = encode(longer);
  const std::size_t d = pe.cols;
  o.rk = shift_matrix(params.d_model, params.base, params.layout, double(o.k));
  o.shifted.assign(pe.row(std::size_t(o.p + o.k)), pe.row(std::size_t(o.p + o.k)) + d);
  o.rotated.assign(d, 0.0f);
  apply_matrix(o.rk, pe.row(std::size_t(o.p)), o.rotated.data());
  o.difference.resize(d);
  o.max_error_here = 0.0;
  for (std::size_t c = 0; c < d; ++c) {
    o.difference[c] = o.shifted[c] - o.rotated[c];
    o.max_error_here = std::max(o.max_error_here, double(std::abs(o.difference[c])));
  }
  o.max_error_all_p = L > o.k ? measure_shift_identity(params, o.k).max_abs_error : 0.0;
  set_image(o.rk_image, o.rk, plot::Colormap::diverging, -1.0, 1.0);
}

void update_criteria(CriteriaOptions& o, const EncodingParams& params) {
  o.measured_len = std::min(params.seq_len, kCriteriaMaxLen);
  for (int e = 0; e < 5; ++e) {
    EncodingParams p = params;
    p.encoding = Encoding(e);
    p.seq_len = o.measured_len;
    if (p.encoding == Encoding::learned)  // the table has no rows past its length: measure inside it
      p.seq_len = std::min(p.seq_len, p.learned_table ? int(p.learned_table->rows) : p.max_len);
    o.errors[std::size_t(e)].clear();
    try {
      o.reports[std::size_t(e)] = measure_criteria(p);
    } catch (const ParamError& err) {
      o.errors[std::size_t(e)] = err.what();
    }
  }
  auto norm = [](int L) {
    std::vector<float> v(static_cast<std::size_t>(L));
    for (int t = 0; t < L; ++t) v[std::size_t(t)] = L > 1 ? float(t) / float(L - 1) : 0.0f;
    return v;
  };
  if (o.length_a < 2 || o.length_b < 2 || o.length_a > 8192 || o.length_b > 8192)
    throw ParamError("length", "the two lengths must be integers in [2, 8192]");
  o.normalized_a = norm(o.length_a);
  o.normalized_b = norm(o.length_b);
  const int n = std::max(o.length_a, o.length_b) * 4;
  o.integer_values.resize(std::size_t(n));
  for (int t = 0; t < n; ++t) o.integer_values[std::size_t(t)] = float(t);
}

// The file dialog's listing: "../", sub-folders with a trailing '/', then .npy / .safetensors files.
void list_directory(LearnedOptions& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (o.directory.empty()) o.directory = fs::current_path(ec).string();
  std::vector<std::string> dirs, files;
  for (const auto& e : fs::directory_iterator(o.directory, fs::directory_options::skip_permission_denied, ec)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with(".")) continue;
    std::error_code ec2;
    if (e.is_directory(ec2)) dirs.push_back(name + "/");
    else if (e.path().extension() == ".npy" || e.path().extension() == ".safetensors") files.push_back(name);
  }
  if (ec) throw ParamError("from-npy", "cannot list " + o.directory + ": " + ec.message());
  std::sort(dirs.begin(), dirs.end());
  std::sort(files.begin(), files.end());
  o.entries = {"../"};
  o.entries.insert(o.entries.end(), dirs.begin(), dirs.end());
  o.entries.insert(o.entries.end(), files.begin(), files.end());
}

void update_learned_norms(LearnedOptions& o, const AppState& s) {
  o.row_norm.assign(std::size_t(s.computed.seq_len), kNaN);
  if (!s.has_results || s.computed.encoding != Encoding::learned) return;
  for (std::size_t t = 0; t < s.encoding.rows && t < o.row_norm.size(); ++t) {
    double sum = 0.0;
    for (std::size_t c = 0; c < s.encoding.cols; ++c) sum += double(s.encoding.at(t, c)) * s.encoding.at(t, c);
    o.row_norm[t] = float(std::sqrt(sum));  // NaN rows (past the table) stay NaN: drawn as missing
  }
}

void update_precision(PrecisionOptions& o, const EncodingParams& params) {
  if (o.max_position_log2 < 4 || o.max_position_log2 > 26)
    throw ParamError("max-position", "precision view: 2^4 .. 2^26 positions");
  std::vector<double> freq;
  if (o.use_rope) {
    RopeParams p;
    p.head_dim = o.head_dim;
    p.base = o.base;
    freq = rope_inv_freq(p);
  } else {
    validate(params);
    freq = sinusoid_frequencies(params.d_model, params.base, params.layout);
  }
  // 8 points per octave: x = i/8 on the log2 axis, position round(2^(i/8)) (repeats at small t).
  std::vector<double> t;
  for (int i = 0; i <= 8 * o.max_position_log2; ++i) t.push_back(std::round(std::exp2(i / 8.0)));
  const Matrix err = rope_phase_error(freq, t);
  o.log2_position.resize(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) o.log2_position[i] = float(std::log2(t[i]));
  for (std::size_t f = 0; f < 3; ++f) {
    o.error[f].resize(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) o.error[f][i] = err.at(i, f + 1);
    o.indistinguishable[f] = first_indistinguishable_position(FloatFormat(f));
  }
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A dropped or chosen file: .npy loads at once; .safetensors lists its tensors and picks the first
// 2-D float one whose name mentions "pos" or "wpe" (else the first table), then loads it.
void handle_learned_file(AppState& s, const std::string& path) {
  LearnedOptions& o = s.analysis.learned;
  o.path = path;
  o.tensors.clear();
  o.tensor = -1;
  if (ends_with(path, ".safetensors")) {
    o.tensors = read_safetensors_index(path).tensors;
    for (std::size_t i = 0; i < o.tensors.size() && o.tensor < 0; ++i)
      if (o.tensors[i].loadable_table() &&
          (o.tensors[i].name.find("wpe") != std::string::npos || o.tensors[i].name.find("position") != std::string::npos))
        o.tensor = int(i);
    for (std::size_t i = 0; i < o.tensors.size() && o.tensor < 0; ++i)
      if (o.tensors[i].loadable_table()) o.tensor = int(i);
    if (o.tensor < 0) throw ParamError("from-safetensors", path + " has no 2-D float tensor");
    load_learned_table(s, path, o.tensors[std::size_t(o.tensor)].name);
  } else {
    load_learned_table(s, path, "");
  }
}

}  // namespace

Matrix tile_heads(const Matrix& stacked, int heads, int seq_len, int cols) {
  const int rows = (heads + cols - 1) / cols;
  const std::size_t L = std::size_t(seq_len), gutter = 1;
  Matrix out(std::size_t(rows) * (L + gutter) - gutter, std::size_t(cols) * (L + gutter) - gutter, kNaN);
  for (int h = 0; h < heads; ++h) {
    const std::size_t r0 = std::size_t(h / cols) * (L + gutter), c0 = std::size_t(h % cols) * (L + gutter);
    for (std::size_t i = 0; i < L; ++i)
      std::copy_n(stacked.row(std::size_t(h) * L + i), L, out.row(r0 + i) + c0);
  }
  return out;
}

void load_learned_table(AppState& s, const std::string& path, const std::string& tensor) {
  const bool st = !tensor.empty();
  auto table = std::make_shared<Matrix>(st ? read_safetensors_matrix(path, tensor) : read_npy_matrix(path));
  if (table->rows > std::size_t(kGuiMaxSeqLen) || table->cols > std::size_t(kGuiMaxDModel))
    throw ParamError(st ? "from-safetensors" : "from-npy",
                     "the window shows tables of at most 8192 rows and 4096 columns, got " +
                         std::to_string(table->rows) + " x " + std::to_string(table->cols));
  EncodingParams& p = s.params;
  p.encoding = Encoding::learned;
  p.d_model = int(table->cols);
  p.max_len = int(table->rows);
  p.learned_table = std::move(table);
  p.learned_source = st ? "safetensors:" + tensor : "npy";
  s.analysis.learned.loaded_name = std::filesystem::path(path).filename().string() + (st ? " : " + tensor : "");
  mark_params_changed(s);
}

std::string apply_learned_requests(AppState& s) {
  AnalysisState& a = s.analysis;
  std::string error;
  try {
    if (!a.learned.pending_drop.empty()) {
      const std::string path = std::exchange(a.learned.pending_drop, "");
      a.page = Page::learned;
      handle_learned_file(s, path);
    }
    if (a.learned.load_requested) {
      a.learned.load_requested = false;
      if (a.learned.tensor >= 0 && std::size_t(a.learned.tensor) < a.learned.tensors.size())
        load_learned_table(s, a.learned.path, a.learned.tensors[std::size_t(a.learned.tensor)].name);
      else
        handle_learned_file(s, a.learned.path);
    }
    a.learned.error.clear();
  } catch (const ParamError& e) {
    a.learned.error = e.what();
    error = e.what();
  }
  return error;
}

bool update_analysis(AppState& s, bool params_changed, double dt, const std::string& load_error) {
  AnalysisState& a = s.analysis;
  std::string error = load_error;
  if (params_changed)
    for (Page p : {Page::linear_shift, Page::criteria, Page::learned, Page::precision}) a.mark(p);
  if (a.clocks.animate && a.page == Page::rope_clocks) {
    a.clocks.position = std::max(a.clocks.position + double(a.clocks.speed) * dt, 0.0);  // t >= 0 whatever the speed
    a.mark(Page::rope_clocks);
  }
  const std::size_t i = std::size_t(a.page);
  const bool recompute = a.dirty[i];
  a.dirty[i] = false;
  if (recompute) try {
    switch (a.page) {
      case Page::basics: break;
      case Page::rope_clocks: update_clocks(a.clocks); break;
      case Page::rope_decay: update_decay(a.decay); break;
      case Page::context_extension: update_extension(a.extension); break;
      case Page::alibi: update_alibi(a.alibi); break;
      case Page::t5_shaw: update_t5_shaw(a.t5_shaw); break;
      case Page::distance_chart: update_distance(a.distance); break;
      case Page::linear_shift: update_shift(a.shift, s.computed); break;
      case Page::criteria: update_criteria(a.criteria, s.computed); break;
      case Page::learned:
        if (std::exchange(a.learned.list_directory, false)) list_directory(a.learned);
        update_learned_norms(a.learned, s);
        break;
      case Page::precision: update_precision(a.precision, s.computed); break;
    }
  } catch (const ParamError& e) {
    error = e.what();
  }
  // The status line: a page error replaces it; the next good recompute of a page restores the summary.
  if (!error.empty()) {
    s.status = "Not applied: " + error;
    s.status_is_error = true;
    a.status_from_page = true;
  } else if (recompute && a.status_from_page) {
    s.status = std::string(page_title(a.page)) + ": up to date";
    s.status_is_error = false;
    a.status_from_page = false;
  }
  return recompute || !error.empty();
}

std::vector<plot::HeatmapImage*> analysis_images(AnalysisState& a) {
  return {&a.alibi.head_image, &a.alibi.grid_image, &a.t5_shaw.buckets_image, &a.t5_shaw.shaw_image, &a.shift.rk_image};
}

bool analysis_busy(const AnalysisState& a) { return a.clocks.animate && a.page == Page::rope_clocks; }

std::optional<Page> parse_page(std::string_view name) {
  for (int i = 0; i < kPageCount; ++i)
    if (name == page_name(Page(i))) return Page(i);
  return std::nullopt;
}

std::string page_names() {
  std::string out;
  for (int i = 0; i < kPageCount; ++i) out += (i ? ", " : "") + std::string(page_name(Page(i)));
  return out;
}

const char* page_title(Page p) {
  static const char* const titles[kPageCount] = {
      "Basics",       "RoPE clocks",       "RoPE decay", "Context extension", "ALiBi", "T5 & Shaw",
      "Distance chart", "Linear shift", "Criteria", "Learned tables", "Precision"};
  return titles[std::size_t(p)];
}

const char* page_name(Page p) {
  static const char* const names[kPageCount] = {"basics", "rope-clocks", "rope-decay", "context-extension",
                                                "alibi",  "t5-shaw",     "distance",   "linear-shift",
                                                "criteria", "learned",   "precision"};
  return names[std::size_t(p)];
}

}  // namespace peviz::app
