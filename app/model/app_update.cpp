// The update step: turns dirty inputs into cached results through core, before the views draw.
#include "app/model/app_update.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <new>
#include <numbers>
#include <cmath>
#include <sstream>

#include "app/model/page_model.hpp"
#include "core/absolute_encodings.hpp"
#include "core/errors.hpp"
#include "core/similarity.hpp"

namespace peviz::app {

std::vector<int> default_wave_channels(int d) {
  std::vector<int> out;
  for (int c : {0, 1, 2, 3, d / 2, d - 2, d - 1})
    if (c >= 0 && c < d && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::vector<int>> parse_channel_list(const std::string& text, int d) {
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) continue;
    int lo = 0, hi = 0;
    const char* b = item.data();
    const char* e = b + item.size();
    auto r = std::from_chars(b, e, lo);
    if (r.ec != std::errc()) return std::nullopt;
    hi = lo;
    if (r.ptr != e) {
      if (*r.ptr != '-') return std::nullopt;
      auto r2 = std::from_chars(r.ptr + 1, e, hi);
      if (r2.ec != std::errc() || r2.ptr != e || hi < lo) return std::nullopt;
    }
    if (lo < 0 || hi >= d || hi - lo > 64) return std::nullopt;
    for (int c = lo; c <= hi; ++c)
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  if (out.empty() || out.size() > 32) return std::nullopt;
  return out;
}

int similarity_stride_for(int seq_len, int width, bool toeplitz) {
  if (toeplitz || seq_len <= 1) return 1;
  const double n_max = std::max(2.0, std::floor(std::sqrt(kGeneralSimilarityWork / std::max(width, 1))));
  return std::max(1, int(std::ceil(seq_len / n_max)));
}

namespace {

using plot::Colormap;

double max_abs(const Matrix& m) {
  double v = 0.0;
  for (float x : m.data)
    if (!std::isnan(x)) v = std::max(v, double(std::abs(x)));
  return v;
}

bool encoding_is_nonnegative(const EncodingParams& p) {
  return (p.encoding == Encoding::binary && !p.signed_bits) || p.encoding == Encoding::integer ||
         p.encoding == Encoding::normalized;
}

void set_colors(plot::HeatmapImage& img, int choice, Colormap automatic, double vmin, double vmax) {
  img.colormap = choice > 0 ? plot::kAllColormaps[std::clamp(choice - 1, 0, plot::kColormapCount - 1)] : automatic;
  img.vmin = vmin;
  img.vmax = vmax > vmin ? vmax : vmin + 1.0;
}

void update_encoding_colors(AppState& s) {
  const EncodingParams& p = s.computed;
  const int L = p.seq_len;
  switch (p.encoding) {
    case Encoding::sinusoidal: set_colors(s.encoding_image, s.encoding_view.colormap_choice, Colormap::diverging, -1, 1); break;
    case Encoding::learned: {
      const double m = std::max(max_abs(s.encoding), 1e-12);
      set_colors(s.encoding_image, s.encoding_view.colormap_choice, Colormap::diverging, -m, m);
      break;
    }
    case Encoding::binary:
      if (p.signed_bits) set_colors(s.encoding_image, s.encoding_view.colormap_choice, Colormap::diverging, -1, 1);
      else set_colors(s.encoding_image, s.encoding_view.colormap_choice, Colormap::viridis, 0, 1);
      break;
    case Encoding::normalized: set_colors(s.encoding_image, s.encoding_view.colormap_choice, Colormap::viridis, 0, 1); break;
    case Encoding::integer: set_colors(s.encoding_image, s.encoding_view.colormap_choice, Colormap::viridis, 0, std::max(L - 1, 1)); break;
  }
}

void update_similarity_colors(AppState& s) {
  if (s.similarity_view.metric == Metric::cosine) {
    set_colors(s.similarity_image, s.similarity_view.colormap_choice, Colormap::diverging, -1, 1);
    return;
  }
  // |p.q| <= max(|p|^2, |q|^2) (Cauchy-Schwarz), so the diagonal holds the largest magnitude.
  double m = 0.0;
  for (std::size_t i = 0; i < plot::value_rows(s.similarity_image.values); ++i) {
    const float v = plot::value_at(s.similarity_image.values, i, i);
    if (!std::isnan(v)) m = std::max(m, double(std::abs(v)));
  }
  m = std::max(m, 1e-12);
  if (encoding_is_nonnegative(s.computed))
    set_colors(s.similarity_image, s.similarity_view.colormap_choice, Colormap::viridis, 0, m);
  else
    set_colors(s.similarity_image, s.similarity_view.colormap_choice, Colormap::diverging, -m, m);
}

void recompute_encoding(AppState& s) {
  EncodingParams p = s.params;
  validate(p);  // throws ParamError before any cache is touched
  try {
    encode(p, s.encoding, MissingRows::nan);
  } catch (...) {
    s.has_results = false;
    throw;
  }
  s.computed = p;
  s.has_results = true;
  s.frequencies.clear();
  if (std::isfinite(p.base) && p.base > 1.0 && p.d_model >= 1)
    s.frequencies = sinusoid_frequencies(p.d_model, p.base, p.layout);
  s.encoding_image.values = &s.encoding;
  ++s.encoding_image.version;
  s.channel_wavelength.assign(s.encoding.cols, std::nanf(""));
  for (std::size_t c = 0; c < s.encoding.cols; ++c) {
    if (p.encoding == Encoding::binary) {
      s.channel_wavelength[c] = std::ldexp(1.0f, int(std::min<std::size_t>(c, 120)) + 1);  // bit c: period 2^(c+1)
    } else if (p.encoding == Encoding::sinusoidal) {
      const std::size_t n = s.frequencies.size();
      std::size_t pair = n;
      if (p.layout == Layout::interleaved) pair = c / 2;
      else if (c < 2 * n) pair = c % n;
      if (pair < n && s.frequencies[pair] > 0.0) s.channel_wavelength[c] = float(2.0 * std::numbers::pi / s.frequencies[pair]);
    }
  }
  s.channel_log10_wavelength.resize(s.channel_wavelength.size());
  for (std::size_t c = 0; c < s.channel_wavelength.size(); ++c)
    s.channel_log10_wavelength[c] = std::log10(s.channel_wavelength[c]);
}

void similarity_done(AppState& s) {
  if (s.similarity_toeplitz.size() > 0) s.similarity_image.values = &s.similarity_toeplitz;
  else s.similarity_image.values = &s.similarity;
  s.similarity_image.cell_width = s.similarity_image.cell_height = s.similarity_stride;
  ++s.similarity_image.version;
}

void recompute_similarity(AppState& s) {
  const EncodingParams& p = s.computed;
  const bool toeplitz = p.encoding == Encoding::sinusoidal;
  s.similarity_stride = similarity_stride_for(p.seq_len, int(s.encoding.cols), toeplitz);
  // Sinusoids keep core's Toeplitz description (O(L)); the views read cells and rows through it.
  s.similarity_toeplitz = ToeplitzSimilarity{};
  if (toeplitz) {
    s.similarity = Matrix{};  // frees any general-path matrix: no L x L floats for sinusoids
    try {
      s.similarity_toeplitz = sinusoidal_similarity_toeplitz(p, s.similarity_view.metric);
    } catch (...) {
      similarity_done(s);  // nothing on screen rather than a stale similarity
      throw;
    }
  } else if (s.similarity_stride == 1) {
    similarity_matrix(s.encoding, s.similarity_view.metric, s.similarity);
  } else {
    const std::size_t stride = std::size_t(s.similarity_stride);
    const std::size_t n = (s.encoding.rows + stride - 1) / stride;
    s.sampled_encoding.reshape(n, s.encoding.cols);
    for (std::size_t i = 0; i < n; ++i)
      std::copy_n(s.encoding.row(i * stride), s.encoding.cols, s.sampled_encoding.row(i));
    similarity_matrix(s.sampled_encoding, s.similarity_view.metric, s.similarity);
  }
  similarity_done(s);
}

std::string summary(const AppState& s) {
  const EncodingParams& p = s.computed;
  std::ostringstream os;
  os << to_string(p.encoding) << ", d_model " << p.d_model << ", L " << p.seq_len;
  if (p.encoding == Encoding::sinusoidal) os << ", base " << p.base << ", " << to_string(p.layout);
  if (p.encoding == Encoding::learned) {
    os << ", seed " << p.seed << ", max_len " << p.max_len;
    if (p.seq_len > p.max_len) os << " (positions >= " << p.max_len << " have no learned row: drawn as missing)";
  }
  if (s.similarity_stride > 1)
    os << "; similarity sampled every " << s.similarity_stride << " positions (general path)";
  return os.str();
}

}  // namespace

namespace {
// The waves view's channel list from its text (defaults when empty or not understood). Returns a note
// for the status line when the text was not understood.
std::string resolve_wave_channels(AppState& s) {
  const int width = int(s.encoding.cols);
  const auto parsed = parse_channel_list(s.waves.channels_text, width);
  if (!s.waves.channels_text.empty() && parsed) {
    s.wave_channels = *parsed;
    return "";
  }
  s.wave_channels = default_wave_channels(width);
  if (s.waves.channels_text.empty()) return "";
  return "; channels \"" + s.waves.channels_text + "\" not understood (use e.g. 0, 1, 8-11; each < " +
         std::to_string(width) + "): showing defaults";
}

bool update_basic_views(AppState& s) {
  if (!s.dirty.any()) {
    s.last_recompute_ms = 0.0;
    return false;
  }
  const auto start = std::chrono::steady_clock::now();
  std::string channel_note;
  try {
    if (s.dirty.encoding) {
      recompute_encoding(s);
      s.dirty.similarity = s.dirty.binary = s.dirty.colors = s.dirty.channels = true;
    }
    if (s.has_results) {
      if (s.dirty.similarity) {
        recompute_similarity(s);
        s.dirty.colors = true;
      }
      if (s.dirty.binary) {
        s.binary_view.positions = std::clamp(s.binary_view.positions, int(limits::binary_positions.min), int(limits::binary_positions.max));
        compute_binary_analogy(s.binary_view.positions, s.frequencies, s.binary_view.morph, s.binary);
      }
      if (s.dirty.colors) {
        update_encoding_colors(s);
        update_similarity_colors(s);
      }
      channel_note = resolve_wave_channels(s);  // cheap; its note stays in the status line
      s.highlight_position = std::clamp(s.highlight_position, 0, s.computed.seq_len - 1);
    }
    s.status = summary(s) + channel_note;
    s.status_is_error = !channel_note.empty();
  } catch (const ParamError& e) {
    s.status = std::string("Not applied: ") + e.what();
    s.status_is_error = true;
  } catch (const std::bad_alloc&) {
    s.status = "Not applied: out of memory for these sizes";
    s.status_is_error = true;
  }
  s.dirty = DirtyFlags{false, false, false, false, false};
  s.last_recompute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  s.change_recompute_ms = s.last_recompute_ms;
  return true;
}
}  // namespace

namespace {

// Runs the shown page's update when it is dirty. Returns (recomputed, error text).
std::pair<bool, std::string> update_shown_page(AppState& s) {
  PageStates& a = s.pages;
  const PageModel& page = page_model(a.page);
  const bool recompute = std::exchange(a.dirty[std::size_t(a.page)], false);
  if (!recompute || !page.update) return {recompute, ""};
  try {
    page.update(s);
  } catch (const ParamError& e) {
    return {true, e.what()};
  }
  return {true, ""};
}

// The status line: a page error replaces it; the next good recompute of a page restores the summary.
void report_status(AppState& s, bool recomputed, const std::string& error) {
  PageStates& a = s.pages;
  if (!error.empty()) {
    s.status = "Not applied: " + error;
    s.status_is_error = true;
    a.status_from_page = true;
  } else if (recomputed && a.status_from_page) {
    s.status = std::string(page_title(a.page)) + ": up to date";
    s.status_is_error = false;
    a.status_from_page = false;
  }
}

}  // namespace

bool update_pages(AppState& s, bool params_changed, double dt, const std::string& load_error) {
  PageStates& a = s.pages;
  for (int i = 0; i < kPageCount; ++i)
    if (params_changed && page_models()[std::size_t(i)]->follows_params) a.mark(Page(i));
  if (const PageModel& shown = page_model(a.page); shown.advance) shown.advance(s, dt);
  auto [recomputed, error] = update_shown_page(s);
  if (error.empty()) error = load_error;
  report_status(s, recomputed, error);
  return recomputed || !error.empty();
}

std::vector<plot::HeatmapImage*> page_images(PageStates& a) {
  std::vector<plot::HeatmapImage*> images;
  for (const PageModel* page : page_models())
    if (page->heatmaps) page->heatmaps(a, images);
  return images;
}

bool shown_page_busy(const AppState& s) {
  const PageModel& shown = page_model(s.pages.page);
  return shown.busy && shown.busy(s);
}

bool update_app_state(AppState& s) {
  const auto start = std::chrono::steady_clock::now();
  const std::string load_error = apply_learned_requests(s);  // may change s.params
  const bool params_changed = s.dirty.encoding;
  const bool basics = update_basic_views(s);
  const double dt = std::min(s.last_frame_ms, 100.0) / 1000.0;
  const bool page = update_pages(s, params_changed, dt, load_error);
  if (page) s.last_recompute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return basics || page;
}

}  // namespace peviz::app
