// The context-extension page: wavelength per RoPE pair for every compared scaling (core/models/context_extension).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <utility>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/base/limits.hpp"
#include "core/models/model_comparison.hpp"
#include "core/models/model_config.hpp"
#include "core/train/experiment.hpp"

namespace peviz::app {

namespace context_extension_local {  // this page's own names (the pages share a unity batch)
namespace {

constexpr auto kSettings = join_settings(
    join_settings(rope_settings<&PageStates::context_extension, &ContextExtensionOptions::params, &ContextExtensionParams::rope>(limits::head_dim),
                  std::array<PageSetting, 7>{{
    {.key = "factor", .help = "The extension factor s: target context = original x s", .access = member<&PageStates::context_extension, &ContextExtensionOptions::params, &ContextExtensionParams::factor>(),
     .limit = &limits::factor, .full_range = true, .shared_flag = true, .knob = true},
    {.key = "original_len", .help = "original_max_position_embeddings: the context trained", .access = member<&PageStates::context_extension, &ContextExtensionOptions::params, &ContextExtensionParams::original_len>(),
     .limit = &limits::original_len, .full_range = true, .shared_flag = true, .knob = true},
    {.key = "target_len", .help = "max_position_embeddings extended to (0: original x factor)", .access = member<&PageStates::context_extension, &ContextExtensionOptions::params, &ContextExtensionParams::target_len>(),
     .limit = &limits::target_len, .full_range = true, .knob = true},
    {.key = "beta_fast", .help = "YaRN: pairs with more turns than this in the original context extrapolate", .access = member<&PageStates::context_extension, &ContextExtensionOptions::params, &ContextExtensionParams::beta_fast>(),
     .limit = &limits::beta_fast, .full_range = true, .knob = true},
    {.key = "beta_slow", .help = "YaRN: pairs with fewer turns than this interpolate", .access = member<&PageStates::context_extension, &ContextExtensionOptions::params, &ContextExtensionParams::beta_slow>(),
     .limit = &limits::beta_slow, .full_range = true, .knob = true},
    {.key = "low_freq_factor", .help = "Llama 3: wavelengths above original / this are divided by the factor", .access = member<&PageStates::context_extension, &ContextExtensionOptions::params, &ContextExtensionParams::low_freq_factor>(),
     .limit = &limits::low_freq_factor, .full_range = true, .knob = true},
    {.key = "high_freq_factor", .help = "Llama 3: wavelengths below original / this are kept", .access = member<&PageStates::context_extension, &ContextExtensionOptions::params, &ContextExtensionParams::high_freq_factor>(),
     .limit = &limits::high_freq_factor, .full_range = true, .knob = true},
}}),
    std::array<PageSetting, 2>{{{.key = "compare", .help = "Compare models side by side instead of one model's scalings",
                                 .access = member<&PageStates::context_extension, &ContextExtensionOptions::compare>()},
                                {.key = "inspect", .help = "Inspect the loaded model's config: every layer's RoPE and where each value came from",
                                 .access = member<&PageStates::context_extension, &ContextExtensionOptions::inspect>()}}});

// The summary's name for a model and layer type (RopeModelSummary::name).
std::string summarize_name(const ModelConfig& m, const std::string& layer_type) {
  if (m.layer_types.size() < 2) return m.name;
  return m.name + " (" + layer_type_rope(m, layer_type).layer_type + ")";
}

// The summaries of the compared models, reusing those already computed (Men et al.'s base takes a scan).
void update_summaries(ContextExtensionOptions& o) {
  std::vector<RopeModelSummary> out;
  std::vector<HoldingBaseScan> scans;
  for (const ComparedModel& c : o.compared) {
    const std::string name = summarize_name(*c.model, c.layer_type);
    const auto old = std::find_if(o.summaries.begin(), o.summaries.end(), [&](auto& x) { return x.name == name; });
    const std::size_t k = std::size_t(old - o.summaries.begin());
    out.push_back(old != o.summaries.end() ? std::move(*old) : summarize_rope_model(*c.model, c.layer_type));
    scans.push_back(k < o.holding_scans.size() ? std::move(o.holding_scans[k]) : holding_base_scan(out.back()));
  }
  o.summaries = std::move(out);
  o.holding_scans = std::move(scans);
  const auto log10_of = [](const std::vector<double>& w) {
    std::vector<float> out;
    for (double v : w) out.push_back(float(std::log10(v)));
    return out;
  };
  o.compared_log10.clear();
  o.compared_log10_unscaled.clear();
  o.compared_labels.clear();
  for (std::size_t k = 0; k < o.summaries.size(); ++k) {
    const RopeModelSummary& m = o.summaries[k];
    o.compared_log10.push_back(log10_of(m.scaled_wavelength));
    o.compared_log10_unscaled.push_back(log10_of(m.wavelength));
    const auto same = std::find_if(o.summaries.begin(), o.summaries.end(), [&](const RopeModelSummary& x) {
      return &x != &m && x.scaled_wavelength == m.scaled_wavelength;
    });
    o.compared_labels.push_back(same != o.summaries.end() ? m.name + " (same curve as " + same->name + ")" : m.name);
  }
}

// The holding-base scans take their turn each frame for at most this long, so that the window keeps its pace.
constexpr auto kScanBudget = std::chrono::milliseconds(8);

void advance(AppState& s, double) {
  ContextExtensionOptions& o = s.pages.context_extension;
  if (!o.compare) return;
  const auto deadline = std::chrono::steady_clock::now() + kScanBudget;
  for (HoldingBaseScan& scan : o.holding_scans)
    while (!scan.done() && std::chrono::steady_clock::now() < deadline) scan.step();
}

bool busy(const AppState& s) {
  const ContextExtensionOptions& o = s.pages.context_extension;
  return o.compare && std::any_of(o.holding_scans.begin(), o.holding_scans.end(), [](auto& x) { return !x.done(); });
}

void take_model(PageStates& a) {
  a.context_extension.params = loaded_preset(a.rope_model).params;
  a.context_extension.from_model = true;
}

// The flag, and the knobs still the model's (a knob moved on a page not updated since counts too).
bool follows_model(const PageStates& a) {
  return a.context_extension.from_model && a.context_extension.params == loaded_preset(a.rope_model).params;
}

void update_query_scale(ContextExtensionOptions& o, const ModelConfig& model) {
  o.query_scale.clear();
  o.query_scale_label.clear();
  const auto scaled =
      std::find_if(model.layers.begin(), model.layers.end(), [](const ModelLayer& l) { return l.query_scaled; });
  if (!o.from_model || scaled == model.layers.end()) return;
  const double step = o.result.target_len / double(kQueryScaleSamples - 1);
  for (int i = 0; i < kQueryScaleSamples; ++i) o.query_scale.push_back(float(query_scale_at(model.query_scale, i * step)));
  o.query_scale_label = "queries x " + query_scale_formula(model, *scaled);
}

// Core wants beta_fast > beta_slow (YaRN) and high_freq_factor > low_freq_factor (llama3): when the lower
// knob passes the upper one, the upper one is lifted this factor above it, so the pair never becomes a
// state core refuses (found by peviz --monkey 11: low_freq_factor 5.4 over high_freq_factor 4).
constexpr double kAboveLower = 1.01;

void keep_above(double& upper, double lower) {
  if (upper <= lower) upper = lower * kAboveLower;
}

// The loaded model's own scaling, while the page follows a model that has one (core's model_rope, as the comparison
// table computes it): at the target context, the page's.
void update_own_scaling(ContextExtensionOptions& o, const LoadedRopeModel& m) {
  o.own = {};
  const RopeScaling kind = shown_layer(m).scaling.kind;
  if (!o.from_model || kind == RopeScaling::none) return;
  const ModelRope r = model_rope(*m.model, shown_layer_type(m));
  o.own.label = "the model's own (" + std::string(to_string(kind)) + " x" + caption_number(r.scaled.factor) + ")";
  const ScalingWavelengths row = scaling_wavelengths(kind, r.scaled, r.original_len, o.result.target_len);
  o.own.attention_factor = row.scaled.attention_factor;
  o.own.pairs_beyond_target = row.pairs_beyond_target;
  for (double w : row.wavelength) o.own.log10_wavelength.push_back(float(std::log10(w)));
}

void update(AppState& s) {
  ContextExtensionOptions& o = s.pages.context_extension;
  keep_above(o.params.beta_fast, o.params.beta_slow);
  keep_above(o.params.high_freq_factor, o.params.low_freq_factor);
  o.from_model = follows_model(s.pages);  // a knob moved: custom from now on
  if (o.compare) ensure_comparison(s.pages);
  if (o.compare) o.inspect = false;  // one view at a time: a state naming both compares
  o.inspected = {};
  if (o.inspect) o.inspected = rope_test_vectors(*s.pages.rope_model.model, kInspectedPositions);
  o.result = compare_context_extensions(o.params);
  o.log10_wavelength.assign(o.result.rows.size(), {});
  o.ramp.clear();
  for (std::size_t k = 0; k < o.result.rows.size(); ++k) {
    const ScalingWavelengths& row = o.result.rows[k];
    for (double w : row.wavelength) o.log10_wavelength[k].push_back(float(std::log10(w)));
    if (!row.scaled.yarn_ramp.empty()) o.ramp.assign(row.scaled.yarn_ramp.begin(), row.scaled.yarn_ramp.end());
  }
  update_query_scale(o, *s.pages.rope_model.model);
  update_own_scaling(o, s.pages.rope_model);
  update_summaries(o);
}

// Columns: pair j, then each compared model's scaled wavelength (NaN past its last pair).
NdArray comparison_data(const ContextExtensionOptions& o) {
  if (o.summaries.empty()) throw ParamError("out", "no models compared yet");
  std::size_t pairs = 0;
  for (const RopeModelSummary& m : o.summaries) pairs = std::max(pairs, m.scaled_wavelength.size());
  std::vector<std::vector<float>> cols(1);
  for (std::size_t j = 0; j < pairs; ++j) cols[0].push_back(float(j));
  for (const RopeModelSummary& m : o.summaries) {
    cols.emplace_back(pairs, std::numeric_limits<float>::quiet_NaN());
    for (std::size_t j = 0; j < m.scaled_wavelength.size(); ++j) cols.back()[j] = float(m.scaled_wavelength[j]);
  }
  return data_columns(cols);
}

// Columns: pair j, then each inspected group's inv_freq (NaN for a NoPE group and past a group's last pair).
NdArray inspected_data(const ContextExtensionOptions& o) {
  std::size_t pairs = 0;
  for (const RopeVectorGroup& g : o.inspected.groups) pairs = std::max(pairs, g.inv_freq.size());
  std::vector<std::vector<float>> cols(1);
  for (std::size_t j = 0; j < pairs; ++j) cols[0].push_back(float(j));
  for (const RopeVectorGroup& g : o.inspected.groups) {
    cols.emplace_back(pairs, std::numeric_limits<float>::quiet_NaN());
    std::copy(g.inv_freq.begin(), g.inv_freq.end(), cols.back().begin());
  }
  return data_columns(cols);
}

// Columns: pair, wavelength per compared scaling (none, linear, dynamic, yarn, llama3), then the YaRN ramp.
NdArray export_data(const AppState& s) {
  const ContextExtensionOptions& o = s.pages.context_extension;
  if (o.compare) return comparison_data(o);
  if (o.inspect) return inspected_data(o);
  const auto& rows = o.result.rows;
  if (rows.empty()) throw ParamError("out", "nothing computed yet for the context extension");
  std::vector<std::vector<float>> cols(1);
  for (std::size_t j = 0; j < rows[0].wavelength.size(); ++j) cols[0].push_back(float(j));
  for (const ScalingWavelengths& r : rows) cols.emplace_back(r.wavelength.begin(), r.wavelength.end());
  cols.push_back(o.ramp);
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const ContextExtensionParams& c = s.pages.context_extension.params;
  const std::string dot = kCaptionDot;
  if (s.pages.context_extension.compare) {
    std::string text = "RoPE models compared";
    for (const RopeModelSummary& m : s.pages.context_extension.summaries) text += dot + m.name;
    return text;
  }
  if (s.pages.context_extension.inspect) return "RoPE config inspected" + dot + rope_model_label(s.pages.rope_model);
  const std::string model = rope_model_caption(s.pages, follows_model(s.pages));
  return "RoPE scaling" + dot + model + "head_dim " + std::to_string(c.rope.head_dim) + dot + "base " + caption_number(c.rope.base) +
         dot + "factor " + caption_number(c.factor) + dot + "original " + std::to_string(c.original_len);
}

// A compared model from the state JSON: a shipped one by name, else its config.json read again (nullopt when
// that file is gone: the rest of the state still opens).
std::optional<ComparedModel> read_compared(const nlohmann::json& j) {
  ComparedModel c;
  std::string name;
  read(j, "model", name);
  read(j, "layer_type", c.layer_type);
  read(j, "path", c.path);
  c.model = c.path.empty() ? find_shipped_model(name) : nullptr;
  if (!c.path.empty()) {
    try {
      c.model = std::make_shared<const ModelConfig>(load_model_config(c.path));
    } catch (const ParamError&) {
      return std::nullopt;
    }
  }
  if (!c.model) return std::nullopt;
  rope_model_preset(*c.model, c.layer_type);  // validates the scheme and the layer type
  return c;
}

// The loaded model, and the models compared (a list: the table cannot hold it).
// The keys read_extra reads besides the settings table's (PageModel::extra_keys).
inline constexpr const char* kExtraKeys[] = {"model_name", "layer_type", "model_path", "compared"};

bool read_extra(const nlohmann::json& j, PageStates& a) {
  ContextExtensionOptions& o = a.context_extension;
  if (j.contains("compared")) {
    o.compared.clear();
    if (!j.at("compared").is_array()) throw ParamError("compared", "must be a list of models");
    for (const nlohmann::json& m : j.at("compared"))
      if (auto c = read_compared(m); c && int(o.compared.size()) < kMaxComparedModels) o.compared.push_back(*c);
  }
  return read_model_knobs(j, a, knob_keys(kSettings), take_model, o.from_model);
}

void write_extra(const PageStates& a, nlohmann::json& j) {
  write_rope_model_json(j, a, follows_model(a));
  j["compared"] = nlohmann::json::array();
  for (const ComparedModel& m : a.context_extension.compared)
    j["compared"].push_back({{"model", m.model->name}, {"layer_type", m.layer_type}, {"path", m.path}});
}

// Every knob together (factor, lengths, betas, llama3's factors), as the update computes them.
void check(const PageStates& a) { compare_context_extensions(a.context_extension.params); }

}  // namespace
}  // namespace context_extension_local

bool is_model_config_file_name(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0 && !train::is_lab_file(path);
}

std::string open_model_config(AppState& s, const std::string& path) {
  auto model = std::make_shared<const ModelConfig>(load_model_config(path));
  const std::string name = model->name;
  PageStates& a = s.pages;
  switch (model->scheme) {
    case PositionScheme::rope: {
      ContextExtensionOptions& o = a.context_extension;
      const std::string absolute = std::filesystem::absolute(path).string();
      std::erase_if(o.opened, [&](const ComparedModel& m) { return m.path == absolute; });
      o.opened.push_back({model, "", absolute});
      if (o.compare && !is_compared(o, *model, "")) toggle_compared(o, o.opened.back());
      load_rope_model(a, std::move(model), absolute);
      if (!page_model(a.page).take_rope_model) a.page = Page::context_extension;  // a RoPE page shown stays
      a.mark(Page::rope_decay);  // it draws the compared models too
      break;
    }
    case PositionScheme::t5_relative:
      if (model->num_buckets > 0) a.t5_shaw.num_buckets = model->num_buckets;
      if (model->max_distance > 0) a.t5_shaw.max_distance = model->max_distance;
      a.t5_shaw.causal = !model->bidirectional;
      a.page = Page::t5_shaw;
      break;
    case PositionScheme::alibi:
      if (model->heads > 0) a.alibi.heads = model->heads;
      a.page = Page::alibi;
      break;
    case PositionScheme::learned_absolute:
      throw ParamError("open", model->name + " learns a table of " + std::to_string(model->max_position_embeddings) +
                                   " positions x " + std::to_string(model->width) +
                                   " channels: its values are in the model's .safetensors (open that file)");
  }
  a.mark(a.page);
  return name;
}

void ensure_comparison(PageStates& a) {
  ContextExtensionOptions& o = a.context_extension;
  if (!o.compared.empty()) return;
  for (std::string_view name : kDefaultComparedModels)
    if (auto m = find_shipped_model(name)) toggle_compared(o, {m, "", ""});
  if (!o.from_model) return;
  const LoadedRopeModel& m = a.rope_model;
  if (!is_compared(o, *m.model, shown_layer_type(m))) toggle_compared(o, {m.model, shown_layer_type(m), m.path});
}

namespace {
// Ranges listed in the hover; the rest are counted (the CLI's --islands lists them all).
constexpr std::size_t kListedRanges = 8;

std::string printed(const char* format, double a, double b = 0) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, a, b);
  return buf;
}

// Where the model's base lies among the ranges of a finished scan.
std::string base_among(double base, const HoldingBaseScan& scan) {
  const std::vector<BaseRange>& r = scan.ranges();
  const std::string at = printed("The model's base %g ", base);
  if (base < r.front().lo) return at + "is below them: it fails.";
  if (base > scan.up_to()) return at + "is above the bases scanned.";
  for (std::size_t k = 0; k < r.size(); ++k)
    if (base >= r[k].lo && base <= r[k].hi) return at + "lies in range " + std::to_string(k + 1) + ": it holds.";
  return at + "lies between two ranges: it fails.";
}
}  // namespace

std::string holding_bases_text(const RopeModelSummary& m, const HoldingBaseScan& scan) {
  if (!m.min_base) return "No base up to 1e12 keeps B(m) >= 0 below the span.";
  const std::vector<BaseRange>& r = scan.ranges();
  std::string text = "Bases that keep B(m) >= 0 for every m below the span " + std::to_string(m.span) +
                     printed(", from Men base up to %gx it", limits::bounds_islands_listed);
  text += scan.done() ? "" : printed(" (scanned %.0f%% so far)", 100 * scan.progress());
  text += ": " + std::to_string(r.size()) + (r.size() == 1 ? " range" : " ranges") +
          "; the bases between two ranges fail again.";
  for (std::size_t k = 0; k < std::min(r.size(), kListedRanges); ++k) text += printed("\n  %.6g .. %.6g", r[k].lo, r[k].hi);
  if (r.size() > kListedRanges)
    text += "\n  ... and " + std::to_string(r.size() - kListedRanges) +
            printed(" more (peviz export rope-bounds --config FILE --islands %g --format json lists them all)",
                    limits::bounds_islands_listed);
  if (scan.done() && !r.empty()) text += "\n" + base_among(m.base, scan);
  return text;
}

std::string compared_name(const ComparedModel& c) { return context_extension_local::summarize_name(*c.model, c.layer_type); }

bool is_compared(const ContextExtensionOptions& o, const ModelConfig& model, const std::string& layer_type) {
  return std::any_of(o.compared.begin(), o.compared.end(),
                     [&](const ComparedModel& c) { return c.model->name == model.name && c.layer_type == layer_type; });
}

bool toggle_compared(ContextExtensionOptions& o, const ComparedModel& m) {
  const auto same = [&](const ComparedModel& c) { return c.model->name == m.model->name && c.layer_type == m.layer_type; };
  if (std::erase_if(o.compared, same)) return true;
  if (int(o.compared.size()) >= kMaxComparedModels) return false;
  o.compared.push_back(m);
  return true;
}

extern const PageModel context_extension_page{.name = "context-extension", .title = "Context extension",
                                              .json_key = "context_extension",
                                              .update = context_extension_local::update,
                                              .advance = context_extension_local::advance,
                                              .busy = context_extension_local::busy,
                                              .export_data = context_extension_local::export_data,
                                              .caption = context_extension_local::caption,
                                              .settings = context_extension_local::kSettings,
                                              .read_extra = context_extension_local::read_extra,
                                              .write_extra = context_extension_local::write_extra, .extra_keys = context_extension_local::kExtraKeys,
                                              .check = context_extension_local::check,
                                              .take_rope_model = context_extension_local::take_model,
                                              .follows_rope_model = context_extension_local::follows_model,
                                              .parts = kContextExtensionParts};

}  // namespace peviz::app
