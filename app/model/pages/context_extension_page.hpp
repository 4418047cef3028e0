// The context extension page's options and cached results (its update, export, caption and state JSON: context_extension_page.cpp).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/models/context_extension.hpp"
#include "core/models/rope_test_vectors.hpp"
#include "core/base/matrix.hpp"
#include "core/models/model_comparison.hpp"
#include "core/models/shipped_models.hpp"

namespace peviz::app {

// The parts a presented lesson step can name in its "show" list (PageModel::parts), in drawing order: wavelengths:
// the wavelength per pair of every scaling; ramp: YaRN's ramp (and Llama 4's query scale).
inline constexpr const char *kContextExtensionWavelengths = "wavelengths", *kContextExtensionRamp = "ramp";
inline constexpr std::array<const char*, 2> kContextExtensionParts = {
    kContextExtensionWavelengths,
    kContextExtensionRamp};

// A model on the comparison: its config and the layer type compared.
struct ComparedModel {
  std::shared_ptr<const ModelConfig> model;
  std::string layer_type;  // "" = the default one
  std::string path;        // the config.json it was opened from; "" for a shipped model (found by name)
};

struct ModelScalingCurve {
  std::string label;                 // "the model's own (longrope x32)"
  std::vector<float> log10_wavelength;
  double attention_factor = 1.0;
  int pairs_beyond_target = 0;
};

struct ContextExtensionOptions {
  // The knobs are the loaded model's (PageStates::rope_model: a shipped one from the model box, or a
  // config.json opened) while `from_model` is set: its name shows with them (state JSON, captions) and its layer
  // types switch. Moving a knob makes them custom (the update clears the flag).
  ContextExtensionParams params = default_rope_model_preset().params;
  std::vector<bool> shown = std::vector<bool>(compared_scalings().size(), true);  // per compared scaling, in order
  bool from_model = true;
  // Models side by side (up to kMaxComparedModels): wavelengths per pair and a table of bounds.
  bool compare = false;                    // the page shows the comparison instead of one model's scalings
  bool inspect = false;                    // the page shows the loaded model's config inspected (not with compare)
  RopeTestVectors inspected;               // cache while inspecting: the loaded model's layer groups
  std::vector<ComparedModel> compared;
  std::vector<ComparedModel> opened;       // configs opened this session: offered for comparison
  std::vector<RopeModelSummary> summaries; // cache: one per compared model, in order
  // Per summary, in the same order: the bases that hold over its span (holding_base_scan), a few milliseconds of
  // each frame while the page is shown (its advance step) until done.
  std::vector<HoldingBaseScan> holding_scans;
  std::vector<std::vector<float>> compared_log10;           // log10 scaled wavelength per pair, per model
  std::vector<std::vector<float>> compared_log10_unscaled;  // log10 unscaled wavelength per pair, per model
  // The legend's name per model: its name, and "(same curve as <other>)" when its scaled wavelengths are exactly
  // another compared model's, so that one curve hides the other (Llama 4 Scout and Llama 3.1 share their RoPE).
  std::vector<std::string> compared_labels;
  // cache
  ContextExtension result;
  std::vector<std::vector<float>> log10_wavelength;  // per row of result
  std::vector<float> ramp;        // the ramp per pair of the row that has one (YaRN's)
  // While the page follows a model whose NoPE layers scale their queries (Llama 4's attn_temperature_tuning): the
  // scale at kQueryScaleSamples positions spread evenly over [0, target context], and its formula (the legend).
  std::vector<float> query_scale;
  std::string query_scale_label;
  // While the page follows a model that ships a scaling: that scaling as the model runs it at its extended context
  // (core's model_rope: LongRoPE's long factors, dynamic NTK at the target, YaRN's own attention factor), drawn as a
  // curve of its own whatever its kind. Empty label: none.
  ModelScalingCurve own;
};
inline constexpr int kQueryScaleSamples = 1024;
// The inspector shows settings, not numbers per position: its groups are computed at position 0 only.
inline constexpr long long kInspectedPositions[] = {0};

struct AppState;
struct PageStates;
// True for a .json file that is not a lab experiment (those are train::is_lab_file's): a model's config.json.
bool is_model_config_file_name(const std::string& path);
// Opens a Hugging Face config.json (core/models/model_config.hpp) on the page of its positions: a RoPE model is loaded
// onto every RoPE page (load_rope_model) and shown on this one unless a RoPE page is shown already; T5 buckets on
// T5 & Shaw, ALiBi heads on ALiBi. Returns what was opened, for the toast. ParamError naming what is wrong (a
// learned table: its weights are in the model's .safetensors, which the Learned tables page opens); the state is
// unchanged then.
std::string open_model_config(AppState& s, const std::string& path);
// Adds a model to the comparison, or removes it when it is there; false when the comparison is full.
bool toggle_compared(ContextExtensionOptions& o, const ComparedModel& m);
// Nothing compared yet: the usual three (kDefaultComparedModels) and the page's model when it is another.
void ensure_comparison(PageStates& a);
// The models-compared table's hover on "Men base": the bases that hold as ranges (the scan so far) and where the
// model's own base lies among them.
std::string holding_bases_text(const RopeModelSummary& m, const HoldingBaseScan& scan);
// "name" or "name (layer type)", as RopeModelSummary::name.
std::string compared_name(const ComparedModel& c);
bool is_compared(const ContextExtensionOptions& o, const ModelConfig& model, const std::string& layer_type);

}  // namespace peviz::app
