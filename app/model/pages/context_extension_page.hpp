// The context extension page's options and cached results (its update, export, caption and state JSON: context_extension_page.cpp).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/context_extension.hpp"
#include "core/matrix.hpp"
#include "core/model_comparison.hpp"
#include "core/shipped_models.hpp"

namespace peviz::app {

// A model on the comparison: its config and the layer type compared.
struct ComparedModel {
  std::shared_ptr<const ModelConfig> model;
  std::string layer_type;  // "" = the default one
  std::string path;        // the config.json it was opened from; "" for a shipped model (found by name)
};

struct ContextExtensionOptions {
  // The knobs are a model's while `model_name` is set: a shipped model (core/shipped_models.hpp, the preset box)
  // or a config.json opened (File > Open, drop, --open). Its name stays with the knobs (state JSON, captions);
  // the config lets the layer type switch. Moving a knob makes them custom (model_name cleared).
  ContextExtensionParams params = default_rope_model_preset().params;
  std::array<bool, 5> shown{true, true, true, true, true};  // none, linear, dynamic, yarn, llama3
  std::string model_name{default_rope_model_preset().name};  // "" = custom knobs
  std::string model_note{default_rope_model_preset().note};  // rope_model_preset's note for the layer type shown
  std::shared_ptr<const ModelConfig> model = default_rope_model_preset().model;
  std::string model_path;                  // the config.json opened; "" for a shipped model
  int model_layer = 0;                     // index into model->layer_types
  bool model_layer_changed = false;        // the view picked another layer type: the update applies it
  // Models side by side (up to kMaxComparedModels): wavelengths per pair and a table of bounds.
  bool compare = false;                    // the page shows the comparison instead of one model's scalings
  std::vector<ComparedModel> compared;
  std::vector<ComparedModel> opened;       // configs opened this session: offered for comparison
  std::vector<RopeModelSummary> summaries; // cache: one per compared model, in order
  std::vector<std::vector<float>> compared_log10;           // log10 scaled wavelength per pair, per model
  std::vector<std::vector<float>> compared_log10_unscaled;  // log10 unscaled wavelength per pair, per model
  // cache
  ContextExtension result;
  std::array<std::vector<float>, 5> log10_wavelength;
  std::vector<float> ramp;        // YaRN ramp per pair
};

struct AppState;
// True for a .json file that is not a lab experiment (those are train::is_lab_file's): a model's config.json.
bool is_model_config_file_name(const std::string& path);
// Opens a Hugging Face config.json (core/model_config.hpp) on the page of its positions: RoPE on this page
// (the model's knobs, name and layer types), T5 buckets on T5 & Shaw, ALiBi heads on ALiBi. Returns what was
// opened, for the toast. ParamError naming what is wrong (a learned table: its weights are in the model's
// .safetensors, which the Learned tables page opens); the state is unchanged then.
std::string open_model_config(AppState& s, const std::string& path);
// Shows `model` (layer type `layer`, "" = default) on the page: its knobs, name, note and layer types.
void show_rope_model(ContextExtensionOptions& o, std::shared_ptr<const ModelConfig> model, const std::string& path,
                     const std::string& layer = "");
// Adds a model to the comparison, or removes it when it is there; false when the comparison is full.
bool toggle_compared(ContextExtensionOptions& o, const ComparedModel& m);
// Nothing compared yet: the usual three (kDefaultComparedModels) and the page's model when it is another.
void ensure_comparison(ContextExtensionOptions& o);
// "name" or "name (layer type)", as RopeModelSummary::name.
std::string compared_name(const ComparedModel& c);
bool is_compared(const ContextExtensionOptions& o, const ModelConfig& model, const std::string& layer_type);

}  // namespace peviz::app
