// The context-extension page: wavelength per RoPE pair for none / PI / NTK / YaRN / llama3 (core/context_extension).
#include <cmath>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"

namespace peviz::app {

namespace {

void update(AppState& s) {
  ContextExtensionOptions& o = s.analysis.context_extension;
  o.result = compare_context_extensions(o.params);
  for (std::size_t k = 0; k < o.result.rows.size(); ++k) {
    o.log10_wavelength[k].clear();
    for (double w : o.result.rows[k].wavelength) o.log10_wavelength[k].push_back(float(std::log10(w)));
  }
  o.ramp.assign(o.result.rows[3].scaled.yarn_ramp.begin(), o.result.rows[3].scaled.yarn_ramp.end());
}

// Columns: pair, wavelength for none, linear, dynamic, yarn, llama3, then the YaRN ramp.
NdArray export_data(const AppState& s) {
  const ContextExtensionOptions& o = s.analysis.context_extension;
  const auto& rows = o.result.rows;
  if (rows.empty()) throw ParamError("out", "nothing computed yet for the context extension");
  std::vector<std::vector<float>> cols(1);
  for (std::size_t j = 0; j < rows[0].wavelength.size(); ++j) cols[0].push_back(float(j));
  for (const ScalingWavelengths& r : rows) cols.emplace_back(r.wavelength.begin(), r.wavelength.end());
  cols.push_back(o.ramp);
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const ContextExtensionParams& c = s.analysis.context_extension.params;
  const std::string dot = kCaptionDot;
  return "RoPE scaling" + dot + "head_dim " + std::to_string(c.rope.head_dim) + dot + "base " + caption_number(c.rope.base) +
         dot + "factor " + caption_number(c.factor) + dot + "original " + std::to_string(c.original_len);
}

void read_json(const nlohmann::json& j, AnalysisState& a) {
  ContextExtensionParams& c = a.context_extension.params;
  read_rope_json(j, c.rope);
  read(j, "factor", c.factor);
  read(j, "original_len", c.original_len);
  read(j, "target_len", c.target_len);
  read(j, "beta_fast", c.beta_fast);
  read(j, "beta_slow", c.beta_slow);
  read(j, "low_freq_factor", c.low_freq_factor);
  read(j, "high_freq_factor", c.high_freq_factor);
  read(j, "preset", a.context_extension.preset);
  check_range("preset", a.context_extension.preset, -1, double(rope_model_presets().size()) - 1);
  compare_context_extensions(c);  // validates every knob together (factor, lengths, betas, llama3)
}

nlohmann::json write_json(const AnalysisState& a) {
  const ContextExtensionParams& c = a.context_extension.params;
  nlohmann::json j = rope_json(c.rope);
  j.update({{"factor", c.factor}, {"original_len", c.original_len}, {"target_len", c.target_len},
            {"beta_fast", c.beta_fast}, {"beta_slow", c.beta_slow}, {"low_freq_factor", c.low_freq_factor},
            {"high_freq_factor", c.high_freq_factor}, {"preset", a.context_extension.preset}});
  return j;
}

}  // namespace

extern const PageModel context_extension_page{.name = "context-extension", .title = "Context extension",
                                              .json_key = "context_extension", .update = update,
                                              .export_data = export_data, .caption = caption,
                                              .read_json = read_json, .write_json = write_json};

}  // namespace peviz::app
