// The context extension page's options and cached results (its update, export, caption and state JSON: context_extension_page.cpp).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/context_extension.hpp"
#include "core/matrix.hpp"

namespace peviz::app {

struct ContextExtensionOptions {
  ContextExtensionParams params = rope_model_presets()[1].params;  // Llama-3.1 8B
  int preset = 1;                 // index into rope_model_presets(), -1 = custom
  std::array<bool, 5> shown{true, true, true, true, true};  // none, linear, dynamic, yarn, llama3
  // A model opened from its config.json (File > Open, drop, --open): its name stays with the knobs (state JSON,
  // captions); the config itself, while the session lasts, lets the layer type switch.
  std::string model_name;                  // "" = none opened (or a built-in preset chosen since)
  std::string model_note;                  // rope_model_preset's note for the layer type shown
  std::shared_ptr<const ModelConfig> model;
  int model_layer = 0;                     // index into model->layer_types
  bool model_layer_changed = false;        // the view picked another layer type: the update applies it
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

}  // namespace peviz::app
