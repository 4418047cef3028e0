// The context-extension page: wavelength per RoPE pair for none / PI / NTK / YaRN / llama3 (core/context_extension).
#include <cmath>
#include <utility>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/model_config.hpp"
#include "core/train/experiment.hpp"

namespace peviz::app {

namespace {

void update(AppState& s) {
  ContextExtensionOptions& o = s.analysis.context_extension;
  if (std::exchange(o.model_layer_changed, false) && o.model &&
      o.model_layer >= 0 && o.model_layer < int(o.model->layer_types.size())) {
    const RopeModelPreset m = rope_model_preset(*o.model, o.model->layer_types[std::size_t(o.model_layer)].layer_type);
    o.params = m.params;
    o.model_note = m.note;
  }
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
  const std::string& model = s.analysis.context_extension.model_name;
  return "RoPE scaling" + dot + (model.empty() ? "" : model + dot) + "head_dim " + std::to_string(c.rope.head_dim) + dot + "base " + caption_number(c.rope.base) +
         dot + "factor " + caption_number(c.factor) + dot + "original " + std::to_string(c.original_len);
}

void read_json(const nlohmann::json& j, AnalysisState& a) {
  ContextExtensionParams& c = a.context_extension.params;
  a.context_extension.model_name.clear();  // a state without a model name describes no opened model
  a.context_extension.model_note.clear();
  a.context_extension.model.reset();
  read_rope_json(j, c.rope);
  read(j, "factor", c.factor);
  read(j, "original_len", c.original_len);
  read(j, "target_len", c.target_len);
  read(j, "beta_fast", c.beta_fast);
  read(j, "beta_slow", c.beta_slow);
  read(j, "low_freq_factor", c.low_freq_factor);
  read(j, "high_freq_factor", c.high_freq_factor);
  read(j, "preset", a.context_extension.preset);
  read(j, "model_name", a.context_extension.model_name);
  read(j, "model_note", a.context_extension.model_note);
  check_range("preset", a.context_extension.preset, -1, double(rope_model_presets().size()) - 1);
  compare_context_extensions(c);  // validates every knob together (factor, lengths, betas, llama3)
}

nlohmann::json write_json(const AnalysisState& a) {
  const ContextExtensionParams& c = a.context_extension.params;
  nlohmann::json j = rope_json(c.rope);
  j.update({{"factor", c.factor}, {"original_len", c.original_len}, {"target_len", c.target_len},
            {"beta_fast", c.beta_fast}, {"beta_slow", c.beta_slow}, {"low_freq_factor", c.low_freq_factor},
            {"high_freq_factor", c.high_freq_factor}, {"preset", a.context_extension.preset}});
  if (!a.context_extension.model_name.empty())
    j.update({{"model_name", a.context_extension.model_name}, {"model_note", a.context_extension.model_note}});
  return j;
}

}  // namespace

bool is_model_config_file_name(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0 && !train::is_lab_file(path);
}

std::string open_model_config(AppState& s, const std::string& path) {
  auto model = std::make_shared<const ModelConfig>(load_model_config(path));
  const std::string name = model->name;
  AnalysisState& a = s.analysis;
  switch (model->scheme) {
    case PositionScheme::rope: {
      const RopeModelPreset m = rope_model_preset(*model);
      ContextExtensionOptions& o = a.context_extension;
      o.params = m.params;
      o.preset = -1;
      o.model_name = model->name;
      o.model_note = m.note;
      o.model_layer = 0;
      for (std::size_t i = 0; i < model->layer_types.size(); ++i)
        if (model->layer_types[i].layer_type == layer_type_rope(*model, "").layer_type) o.model_layer = int(i);
      o.model = std::move(model);
      a.page = Page::context_extension;
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

extern const PageModel context_extension_page{.name = "context-extension", .title = "Context extension",
                                              .json_key = "context_extension", .update = update,
                                              .export_data = export_data, .caption = caption,
                                              .read_json = read_json, .write_json = write_json};

}  // namespace peviz::app
