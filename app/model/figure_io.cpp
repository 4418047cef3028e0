// Opening figures (PNG, SVG, PDF), exporting the data behind a view, and the File menu's requests.
#include "app/model/figure_io.hpp"

#include <cmath>
#include <cstdlib>
#include <ostream>

#include "app/model/figure.hpp"
#include "app/model/state_json.hpp"
#include "app/plot/vector_metadata.hpp"
#include "core/alibi.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/png_file.hpp"

namespace peviz::app {

namespace fs = std::filesystem;

namespace {

constexpr double kToastSeconds = 6.0;

// Columns given as equal-length vectors: rows x columns float32.
NdArray columns(const std::vector<std::vector<float>>& cols) {
  const std::size_t rows = cols.empty() ? 0 : cols[0].size();
  std::vector<float> v(rows * cols.size());
  for (std::size_t c = 0; c < cols.size(); ++c)
    for (std::size_t r = 0; r < rows; ++r) v[r * cols.size() + c] = r < cols[c].size() ? cols[c][r] : NAN;
  return NdArray::from_floats({rows, cols.size()}, std::move(v));
}

NdArray matrix_data(const Matrix& m, const char* what) {
  if (m.rows == 0 || m.cols == 0) throw ParamError("out", std::string("nothing computed yet for ") + what);
  return NdArray::from_matrix(m);
}

NdArray similarity_data(const AppState& s) {
  const ToeplitzSimilarity& t = s.similarity_toeplitz;
  if (t.size() == 0) return matrix_data(s.similarity, "the similarity");
  const std::size_t L = t.size();
  check_result_size(L, L, s.params.memory_budget, "similarity");
  std::vector<float> v(L * L);
  for (std::size_t p = 0; p < L; ++p) t.fill_row(p, v.data() + p * L);
  return NdArray::from_floats({L, L}, std::move(v));
}

NdArray analysis_data(const AppState& s, Page page) {
  const AnalysisState& a = s.analysis;
  switch (page) {
    case Page::basics: return matrix_data(s.encoding, "the encoding");
    case Page::rope_clocks: {  // pair, inv_freq, angle (rad, wrapped to [0, 2 pi))
      std::vector<float> pair, f, angle;
      for (std::size_t j = 0; j < a.clocks.inv_freq.size(); ++j) {
        pair.push_back(float(j));
        f.push_back(float(a.clocks.inv_freq[j]));
        angle.push_back(float(a.clocks.angles[j]));
      }
      return columns({pair, f, angle});
    }
    case Page::rope_decay: {  // r, then score and bound (each / its r = 0 value) per base 1e4, 5e5, 1e6
      std::vector<std::vector<float>> cols(1);
      for (std::size_t r = 0; r < a.decay.score[0].size(); ++r) cols[0].push_back(float(r));
      for (int b = 0; b < 3; ++b) {
        cols.push_back(a.decay.score[std::size_t(b)]);
        cols.push_back(a.decay.bound[std::size_t(b)]);
      }
      return columns(cols);
    }
    case Page::context_extension: {  // pair, wavelength for none, linear, dynamic, yarn, llama3, YaRN ramp
      std::vector<std::vector<float>> cols(1);
      const auto& rows = a.extension.result.rows;
      if (rows.empty()) throw ParamError("out", "nothing computed yet for the context extension");
      for (std::size_t j = 0; j < rows[0].wavelength.size(); ++j) cols[0].push_back(float(j));
      for (const ScalingWavelengths& r : rows) cols.emplace_back(r.wavelength.begin(), r.wavelength.end());
      cols.push_back(a.extension.ramp);
      return columns(cols);
    }
    case Page::alibi: {  // [heads, L, L], NaN where masked (as peviz export alibi-bias)
      NdArray bias = alibi_bias(a.alibi.heads, a.alibi.seq_len, a.alibi.bidirectional);
      return bias;
    }
    case Page::t5_shaw: {  // [2, L, L]: T5 bucket ids, then Shaw's clipped distances
      if (a.t5_shaw.buckets.rows == 0) throw ParamError("out", "nothing computed yet for T5 / Shaw");
      std::vector<float> v(a.t5_shaw.buckets.data);
      v.insert(v.end(), a.t5_shaw.shaw.data.begin(), a.t5_shaw.shaw.data.end());
      return NdArray::from_floats({2, a.t5_shaw.buckets.rows, a.t5_shaw.buckets.cols}, std::move(v));
    }
    case Page::distance_chart: {  // r, then every series (as peviz export distance-series)
      const DistanceSeries& d = a.distance.series;
      std::vector<std::vector<float>> cols(1);
      for (int r : d.distance) cols[0].push_back(float(r));
      for (std::size_t k = 0; k < d.values.rows; ++k) cols.emplace_back(d.values.row(k), d.values.row(k) + d.values.cols);
      return columns(cols);
    }
    case Page::linear_shift:  // channel rows: PE(p+k), R(k) PE(p), difference
      if (!a.shift.sinusoidal) throw ParamError("out", "the linear-shift view needs the sinusoidal encoding");
      return columns({a.shift.shifted, a.shift.rotated, a.shift.difference});
    case Page::criteria: {  // one row per encoding (sinusoidal, learned, binary, normalized, integer)
      std::vector<std::vector<float>> cols(10);
      for (const CriteriaReport& r : a.criteria.reports) {
        const double v[10] = {double(r.unique), r.min_distance, double(r.consistent), r.spread_over_t,
                              r.change_with_length, double(r.bounded), r.max_abs, r.growth,
                              double(r.deterministic), double(r.extrapolates)};
        for (int c = 0; c < 10; ++c) cols[std::size_t(c)].push_back(float(v[c]));
      }
      return columns(cols);
    }
    case Page::learned: {  // position, row norm (NaN past the table)
      std::vector<float> t;
      for (std::size_t i = 0; i < a.learned.row_norm.size(); ++i) t.push_back(float(i));
      return columns({t, a.learned.row_norm});
    }
    case Page::precision: {  // log2 t, phase error in fp32, bf16, fp16 (rad)
      return columns({a.precision.log2_position, a.precision.error[0], a.precision.error[1], a.precision.error[2]});
    }
  }
  return matrix_data(s.encoding, "the encoding");
}

}  // namespace

fs::path default_figure_folder() {
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / "Pictures" / "peviz";
  return fs::path(".");
}

fs::path figure_folder(const AppState& s) {
  return s.figure.folder.empty() ? default_figure_folder() : fs::path(s.figure.folder);
}

bool is_figure_file_name(const std::string& path) {
  const fs::path ext = fs::path(path).extension();
  return ext == ".png" || ext == ".svg" || ext == ".pdf";
}

void open_figure(AppState& s, const std::string& path) {
  const std::string bytes = read_file_bytes(path, "open", std::size_t(1) << 30);
  const FigureMetadata m = parse_figure_metadata(plot::read_figure_text(bytes, "open"));
  try {
    apply_state_json(m.state, s);
  } catch (const ParamError& e) {
    throw ParamError("open", path + ": parameters refused: " + e.what());
  }
  s.analysis.page = m.view.kind == FigureView::analysis_page ? m.view.page : Page::basics;
  s.figure.view_choice = 0;
  const auto views = single_figure_views();
  for (std::size_t i = 0; i < views.size(); ++i)
    if (views[i] == m.view) s.figure.view_choice = int(i) + 1;
}

NdArray view_data(const AppState& s, FigureView v) {
  if (!s.has_results) throw ParamError("out", "nothing computed yet");
  switch (v.kind) {
    case FigureView::window:
    case FigureView::encoding: return matrix_data(s.encoding, "the encoding");
    case FigureView::waves: {  // position rows, one column per channel shown
      std::vector<std::vector<float>> cols;
      for (int c : s.wave_channels) {
        std::vector<float> col(s.encoding.rows);
        for (std::size_t t = 0; t < s.encoding.rows; ++t) col[t] = s.encoding.at(t, std::size_t(c));
        cols.push_back(std::move(col));
      }
      if (cols.empty()) throw ParamError("out", "no channels shown in the waves view");
      return columns(cols);
    }
    case FigureView::similarity: return similarity_data(s);
    case FigureView::binary: {  // t, then per bit k: bit, and 1 where sin(w_k (t + 1/2)) < 0
      const BinaryAnalogy& b = s.binary;
      std::vector<std::vector<float>> cols(1 + 2 * std::size_t(b.bits));
      for (int t = 0; t < b.positions; ++t) {
        cols[0].push_back(float(t));
        for (int k = 0; k < b.bits; ++k) {
          const std::size_t i = std::size_t(t) * std::size_t(b.bits) + std::size_t(k);
          cols[1 + 2 * std::size_t(k)].push_back(float(b.bit[i]));
          cols[2 + 2 * std::size_t(k)].push_back(float(b.negative[i]));
        }
      }
      return columns(cols);
    }
    case FigureView::analysis_page: return analysis_data(s, v.page);
  }
  return matrix_data(s.encoding, "the encoding");
}

std::string export_view_data(const AppState& s, FigureView v, const fs::path& folder, bool npy, long long unix_seconds) {
  const NdArray a = view_data(s, v);
  std::string name = figure_file_name(s, v, unix_seconds);
  name.replace(name.size() - 4, 4, npy ? ".npy" : ".csv");
  std::error_code ec;
  fs::create_directories(folder, ec);
  const std::string path = (folder / name).string();
  write_file_atomically(path, [&](std::ostream& out) { npy ? write_npy(out, a) : write_csv(out, a); }, "out");
  return path;
}

void show_toast(AppState& s, std::string text, bool is_error, double now_seconds) {
  s.toast = {std::move(text), is_error, now_seconds + (is_error ? 2 * kToastSeconds : kToastSeconds)};
}

void handle_file_requests(AppState& s, double now_seconds, long long unix_seconds) {
  if (!s.open_request.empty()) {
    const std::string path = std::exchange(s.open_request, "");
    if (is_figure_file_name(path)) {
      try {
        open_figure(s, path);
        show_toast(s, "Opened the parameters of " + path, false, now_seconds);
      } catch (const ParamError& e) {
        show_toast(s, std::string("Cannot open ") + path + ": " + e.rule, true, now_seconds);
      }
    } else {
      s.analysis.learned.pending_drop = path;  // the learned-table loader reports its own errors
    }
  }
  if (s.figure.export_requested) {
    s.figure.export_requested = false;
    try {
      const std::string path = export_view_data(s, s.figure.export_view, figure_folder(s), s.figure.export_npy, unix_seconds);
      show_toast(s, "Data saved to " + path, false, now_seconds);
    } catch (const ParamError& e) {
      show_toast(s, "Data not saved: " + e.rule, true, now_seconds);
    }
  }
}

}  // namespace peviz::app
