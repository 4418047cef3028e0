// Opening figures (PNG, SVG, PDF), exporting the data behind a view, and the File menu's requests.
#include "app/model/figure_io.hpp"

#include <cmath>
#include <cstdlib>
#include <ostream>

#include "app/model/app_update.hpp"
#include "app/model/figure.hpp"
#include "app/model/file_browser.hpp"
#include "app/model/page_model.hpp"
#include "app/model/pages/context_extension_page.hpp"
#include "app/model/state_json.hpp"
#include "app/plot/vector_metadata.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/io/png_file.hpp"
#include "core/train/experiment.hpp"

namespace peviz::app {

namespace fs = std::filesystem;

namespace {

constexpr double kToastSeconds = 6.0;

NdArray matrix_data(const Matrix& m, const char* what) {
  if (m.rows == 0 || m.cols == 0) throw ParamError("out", std::string("nothing computed yet for ") + what);
  return NdArray::from_matrix(m);
}

NdArray similarity_data(const AppState& s) {
  const BasicsOptions& basics = s.pages.basics;
  const ToeplitzSimilarity& t = basics.similarity_toeplitz;
  if (t.size() == 0) return matrix_data(basics.similarity, "the similarity");
  const std::size_t L = t.size();
  check_result_size(L, L, s.params.memory_budget, "similarity");
  std::vector<float> v(L * L);
  for (std::size_t p = 0; p < L; ++p) t.fill_row(p, v.data() + p * L);
  return NdArray::from_floats({L, L}, std::move(v));
}

NdArray page_data(const AppState& s, Page page) {
  const PageModel& model = page_model(page);
  if (!model.export_data) throw ParamError("out", std::string("the ") + model.title + " page has no data to export");
  return model.export_data(s);
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
  s.pages.page = m.view.kind == FigureView::one_page ? m.view.page : Page::basics;
  s.figure.view_choice = 0;
  const auto views = single_figure_views();
  for (std::size_t i = 0; i < views.size(); ++i)
    if (views[i] == m.view) s.figure.view_choice = int(i) + 1;
}

namespace {

// open_file's work, by the file's kind: what opened, for the toast.
std::string open_by_kind(AppState& s, const std::string& path) {
  if (is_figure_file_name(path)) {
    open_figure(s, path);
    return "Opened the parameters of " + path;
  }
  if (train::is_lab_file(path)) {
    open_lab_experiment(s, path);
    return "Opened the lab runs of " + path;
  }
  if (is_model_config_file_name(path)) {
    const std::string name = open_model_config(s, path);
    const PageModel& shown = page_model(s.pages.page);
    if (shown.follows_rope_model && !shown.follows_rope_model(s.pages))  // a RoPE page the model does not apply to
      return std::string(shown.title) + " does not apply to " + name + " and keeps its model; the other RoPE pages show " +
             name + " (" + path + ")";
    return "Opened the positions of " + name + " (" + path + ")";
  }
  const std::string ext = fs::path(path).extension().string();
  if (ext != ".npy" && ext != ".safetensors")
    throw ParamError("open", "peviz opens figures (.png, .svg, .pdf), lab experiments and runs, models' config.json "
                             "and learned tables (.npy, .safetensors), not " +
                                 (ext.empty() ? std::string("a file without an extension") : ext + " files"));
  try {
    open_learned_file(s, path);
  } catch (const ParamError& e) {
    throw ParamError("open", std::string("not ") + (ext == ".npy" ? "a NumPy array" : "a safetensors file") +
                                 " peviz reads as a learned table: " + e.rule);
  }
  return "Opened the learned table of " + path;
}

}  // namespace

std::string open_file(AppState& s, const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw ParamError("open", fs::exists(path, ec) ? "not a file" : "no such file");
  std::string opened = open_by_kind(s, path);
  remember_recent_file(s.recent_files, path);
  return opened;
}

NdArray view_data(const AppState& s, FigureView v) {
  const BasicsOptions& basics = s.pages.basics;
  if (!basics.has_results) throw ParamError("out", "nothing computed yet");
  switch (v.kind) {
    case FigureView::window:
    case FigureView::encoding: return matrix_data(basics.encoding, "the encoding");
    case FigureView::waves: {  // position rows, one column per channel shown
      std::vector<std::vector<float>> cols;
      for (int c : basics.wave_channels) {
        std::vector<float> col(basics.encoding.rows);
        for (std::size_t t = 0; t < basics.encoding.rows; ++t) col[t] = basics.encoding.at(t, std::size_t(c));
        cols.push_back(std::move(col));
      }
      if (cols.empty()) throw ParamError("out", "no channels shown in the waves view");
      return data_columns(cols);
    }
    case FigureView::similarity: return similarity_data(s);
    case FigureView::binary: {  // t, then per bit k: bit, and 1 where sin(w_k (t + 1/2)) < 0
      const BinaryAnalogy& b = basics.binary;
      std::vector<std::vector<float>> cols(1 + 2 * std::size_t(b.bits));
      for (int t = 0; t < b.positions; ++t) {
        cols[0].push_back(float(t));
        for (int k = 0; k < b.bits; ++k) {
          const std::size_t i = std::size_t(t) * std::size_t(b.bits) + std::size_t(k);
          cols[1 + 2 * std::size_t(k)].push_back(float(b.bit[i]));
          cols[2 + 2 * std::size_t(k)].push_back(float(b.negative[i]));
        }
      }
      return data_columns(cols);
    }
    case FigureView::one_page: return page_data(s, v.page);
  }
  return matrix_data(basics.encoding, "the encoding");
}

std::string new_figure_path(const AppState& s, FigureView v, long long unix_seconds, const std::string& ending) {
  const fs::path folder = figure_folder(s);
  std::error_code ec;
  fs::create_directories(folder, ec);  // as new_animation_path
  fs::path name = figure_file_name(s, v, unix_seconds);
  name.replace_extension("");
  return (folder / (name.string() + ending)).string();
}

std::string new_animation_path(const AppState& s, FigureView v, const std::string& sweep, long long unix_seconds,
                               const std::string& ending) {
  const fs::path folder = figure_folder(s);
  std::error_code ec;
  fs::create_directories(folder, ec);  // a folder that cannot be made fails when the file is written
  return (folder / ("peviz-" + figure_view_name(v) + "-" + sweep + file_time_stamp(unix_seconds) + ending)).string();
}

FigureOptions figure_options(const FigureSettings& f, FigureView v, int width, int height) {
  FigureOptions o;
  o.view = v;
  o.width = width;
  o.height = height;
  o.caption = f.caption;
  if (f.theme_choice == 1) o.theme = Theme::dark;
  if (f.theme_choice == 2) o.theme = Theme::light;
  return o;
}

namespace {
// The CSV header's names of view_data's columns (write_csv): Basics' views name theirs; a page's are indexed.
nlohmann::json view_data_columns(const AppState& s, FigureView v) {
  nlohmann::json names = nlohmann::json::array();
  switch (v.kind) {
    case FigureView::window:
    case FigureView::encoding: return {{"column_axis", "dim"}};
    case FigureView::similarity: return {{"column_axis", "position"}};
    case FigureView::waves:
      for (int c : s.pages.basics.wave_channels) names.push_back("dim_" + std::to_string(c));
      return {{"columns", names}};
    case FigureView::binary:
      names.push_back("t");
      for (int k = 0; k < s.pages.basics.binary.bits; ++k)
        names.insert(names.end(), {"bit_" + std::to_string(k), "negative_" + std::to_string(k)});
      return {{"columns", names}};
    case FigureView::one_page: break;
  }
  return nlohmann::json::object();
}
}  // namespace

std::string export_view_data(const AppState& s, FigureView v, bool npy, long long unix_seconds) {
  const NdArray a = view_data(s, v);
  const std::string path = new_figure_path(s, v, unix_seconds, npy ? ".npy" : ".csv");
  write_file_atomically(
      path, [&](std::ostream& out) { npy ? write_npy(out, a) : write_csv(out, a, view_data_columns(s, v)); }, "out");
  return path;
}

void show_toast(AppState& s, std::string text, bool is_error, double now_seconds) {
  s.toast = {std::move(text), is_error, now_seconds + (is_error ? 2 * kToastSeconds : kToastSeconds)};
}

void handle_file_requests(AppState& s, double now_seconds, long long unix_seconds) {
  if (!s.open_request.empty()) {
    const std::string path = std::exchange(s.open_request, "");
    try {
      show_toast(s, open_file(s, path), false, now_seconds);
    } catch (const ParamError& e) {
      show_toast(s, "Cannot open " + path + ": " + e.rule, true, now_seconds);
      s.status = "Not opened: " + path + ": " + e.rule;  // stays: a refused file changes nothing to recompute
      s.status_is_error = true;
    }
  }
  if (s.figure.export_requested) {
    s.figure.export_requested = false;
    try {
      const std::string path = export_view_data(s, s.figure.export_view, s.figure.export_npy, unix_seconds);
      s.written_files.push_back(path);
      show_toast(s, "Data saved to " + path, false, now_seconds);
    } catch (const ParamError& e) {
      show_toast(s, "Data not saved: " + e.rule, true, now_seconds);
    }
  }
  if (std::exchange(s.pages.lab.save_requested, false)) {
    try {
      const std::vector<std::string> paths = save_lab_runs(s, figure_folder(s).string(), unix_seconds);
      s.written_files.insert(s.written_files.end(), paths.begin(), paths.end());
      show_toast(s, "Lab runs saved: " + std::to_string(paths.size()) + " files, " + paths.back(), false, now_seconds);
    } catch (const ParamError& e) {
      show_toast(s, "Lab runs not saved: " + e.rule, true, now_seconds);
    }
  }
}

}  // namespace peviz::app
