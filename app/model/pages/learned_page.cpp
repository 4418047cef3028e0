// The learned-tables page: a .npy / .safetensors table (file dialog or drag-and-drop) and its row norms.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>

#include "app/model/app_update.hpp"
#include "app/model/app_state.hpp"
#include "app/model/data_files.hpp"
#include "app/model/page_model.hpp"
#include "app/model/pages/lab_page.hpp"
#include "core/base/errors.hpp"
#include "core/io/nd_array.hpp"

namespace peviz::app {

namespace learned_local {  // this page's own names (the pages share a unity batch)
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

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
  const BasicsOptions& basics = s.pages.basics;
  o.row_norm.assign(std::size_t(basics.computed.seq_len), kNaN);
  if (!basics.has_results || basics.computed.encoding != Encoding::learned) return;
  for (std::size_t t = 0; t < basics.encoding.rows && t < o.row_norm.size(); ++t) {
    double sum = 0.0;
    for (std::size_t c = 0; c < basics.encoding.cols; ++c) sum += double(basics.encoding.at(t, c)) * basics.encoding.at(t, c);
    o.row_norm[t] = float(std::sqrt(sum));  // NaN rows (past the table) stay NaN: drawn as missing
  }
}

void update(AppState& s) {
  LearnedOptions& o = s.pages.learned;
  if (std::exchange(o.list_directory, false)) list_directory(o);
  update_learned_norms(o, s);
}

// Columns: position, row norm (NaN past the table).
NdArray export_data(const AppState& s) {
  const LearnedOptions& o = s.pages.learned;
  std::vector<float> t;
  for (std::size_t i = 0; i < o.row_norm.size(); ++i) t.push_back(float(i));
  return data_columns({t, o.row_norm});
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A dropped or chosen file: .npy loads at once; .safetensors lists its tensors and picks the first
// 2-D float one whose name mentions "pos" or "wpe" (else the first table), then loads it.
// Loads `path` (a .npy, or a .safetensors' first position-like 2-D float tensor) as the learned table and
// remembers its tensors for the picker; all or nothing: a refusal leaves the options and the table as they were.
void handle_learned_file(AppState& s, const std::string& path) {
  std::vector<SafetensorsTensor> tensors;
  int tensor = -1;
  if (ends_with(path, ".safetensors")) {
    tensors = read_safetensors_index(path).tensors;
    for (std::size_t i = 0; i < tensors.size() && tensor < 0; ++i)
      if (tensors[i].loadable_table() &&
          (tensors[i].name.find("wpe") != std::string::npos || tensors[i].name.find("position") != std::string::npos))
        tensor = int(i);
    for (std::size_t i = 0; i < tensors.size() && tensor < 0; ++i)
      if (tensors[i].loadable_table()) tensor = int(i);
    if (tensor < 0) throw ParamError("from-safetensors", path + " has no 2-D float tensor");
  }
  load_learned_table(s, path, tensor < 0 ? "" : tensors[std::size_t(tensor)].name);
  LearnedOptions& o = s.pages.learned;
  o.path = path;
  o.tensors = std::move(tensors);
  o.tensor = tensor;
}

// The position table (wpe) of the Lab's shipped experiment's learned run, seed 0: a table trained on copy.
void load_shipped_table(AppState& s) {
  const std::string relative = "assets/lab/" + std::string(kDefaultExperiment) + "-learned-seed0.safetensors";
  const std::filesystem::path path = find_data_file(relative);
  if (path.empty()) throw ParamError("from-safetensors", "no shipped trained table: " + describe_search(relative));
  load_learned_table(s, path.string(), "wpe");
  s.pages.learned.loaded_name = "the Lab's shipped experiment (copy, learned, seed 0) : wpe";
}

}  // namespace
}  // namespace learned_local

extern const PageModel learned_page{.name = "learned", .title = "Learned tables", .follows_params = true,
                                    .update = learned_local::update, .export_data = learned_local::export_data};

void load_learned_table(AppState& s, const std::string& path, const std::string& tensor) {
  const bool st = !tensor.empty();
  auto table = std::make_shared<Matrix>(st ? read_safetensors_matrix(path, tensor) : read_npy_matrix(path));
  if (double(table->rows) > limits::max_len.window_hi() || double(table->cols) > limits::d_model.window_hi())
    throw ParamError(st ? "from-safetensors" : "from-npy",
                     "the window shows tables of at most " + std::to_string(int(limits::max_len.window_hi())) +
                         " rows and " + std::to_string(int(limits::d_model.window_hi())) + " columns, got " +
                         std::to_string(table->rows) + " x " + std::to_string(table->cols));
  install_learned_table(s, std::move(table), st ? "safetensors:" + tensor : "npy",
                        std::filesystem::path(path).filename().string() + (st ? " : " + tensor : ""));
}

void install_learned_table(AppState& s, std::shared_ptr<const Matrix> table, std::string source, std::string shown) {
  EncodingParams& p = s.params;
  p.encoding = Encoding::learned;
  p.d_model = int(table->cols);
  p.max_len = int(table->rows);
  p.learned_table = std::move(table);
  p.learned_source = std::move(source);
  s.pages.learned.loaded_name = std::move(shown);
  mark_params_changed(s);
}

void open_learned_file(AppState& s, const std::string& path) {
  learned_local::handle_learned_file(s, path);
  s.pages.page = Page::learned;
  s.pages.learned.shipped_offered = true;  // the file is the table: the shipped one does not replace it
  s.pages.learned.error.clear();
}

std::string apply_learned_requests(AppState& s) {
  PageStates& a = s.pages;
  std::string error;
  try {
    const bool first_visit = a.page == Page::learned && !std::exchange(a.learned.shipped_offered, true) &&
                             s.params.encoding != Encoding::learned;
    if (std::exchange(a.learned.shipped_requested, false) || first_visit) learned_local::load_shipped_table(s);
    if (a.learned.load_requested) {
      a.learned.load_requested = false;
      if (a.learned.tensor >= 0 && std::size_t(a.learned.tensor) < a.learned.tensors.size())
        load_learned_table(s, a.learned.path, a.learned.tensors[std::size_t(a.learned.tensor)].name);
      else
        learned_local::handle_learned_file(s, a.learned.path);
    }
    a.learned.error.clear();
  } catch (const ParamError& e) {
    a.learned.error = e.what();
    error = e.what();
  }
  return error;
}

}  // namespace peviz::app
