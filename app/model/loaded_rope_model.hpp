// The RoPE model loaded in the window: the one source that every RoPE page's knobs and name can come from.
//
// A model is loaded by File > Open, a drop or --open of its config.json, by the Context extension page's model
// box, or by a state that names it. Loading it puts its knobs on every RoPE page (PageModel::take_rope_model):
// Context extension takes its whole scaling (rope_model_preset), the clocks, decay, precision and distance pages
// its rotary channels and base of the layer type shown (unscaled). Each of those pages keeps a flag saying
// whether its knobs are still the model's: its update clears it when a knob moves away from them, and while it
// is set the page names the model on screen, in its caption and in its state JSON.
#pragma once
#include <initializer_list>
#include <memory>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "core/models/context_extension.hpp"
#include "core/models/model_config.hpp"

namespace peviz::app {

struct PageStates;

struct LoadedRopeModel {
  std::shared_ptr<const ModelConfig> model = default_rope_model_preset().model;  // never null
  std::string path;  // the config.json opened; "" for a shipped model (found by name)
  int layer = 0;     // index into model->layer_types: the layer type the pages show
  std::string note = default_rope_model_preset().note;  // rope_model_preset's note for that layer type
};

// The layer type shown, and its name ("" when the model has a single layer type).
const LayerTypeRope& shown_layer(const LoadedRopeModel& m);
std::string shown_layer_type(const LoadedRopeModel& m);
// "name", or "name (layer type)" when the model has several.
std::string rope_model_label(const LoadedRopeModel& m);
// The rotating channels of the layer type shown as one head: head_dim = its rotary dim R, its base and pairing
// (the single-RoPE pages draw base^(-2j/R), R/2 pairs).
RopeParams single_rope(const LoadedRopeModel& m);
// The Context extension page's knobs for the layer type shown (its scaling included).
RopeModelPreset loaded_preset(const LoadedRopeModel& m);

// Loads `model` (layer type `layer`, "" = its default) and puts its knobs on every RoPE page, which then follow
// it. ParamError("layer-type") for an unknown layer type, ParamError("config") for a model without RoPE; the
// state is unchanged then.
void load_rope_model(PageStates& a, std::shared_ptr<const ModelConfig> model, const std::string& path,
                     const std::string& layer = "");
// Shows layer type `layer` (an index into model->layer_types): the pages that follow the model take its knobs.
void choose_rope_layer(PageStates& a, int layer);
// Puts the loaded model's knobs on one page (a "use the model" button); nothing for a page without RoPE.
void take_rope_model(PageStates& a, int page);

// "label · " while a page follows the model, else "": the caption's model part (kCaptionDot).
std::string rope_model_caption(const PageStates& a, bool follows);
// The keys of a RoPE page's object that name its model (read_model_knobs reads them; PageModel::extra_keys).
inline constexpr const char* kRopeModelKeys[] = {"model_name", "layer_type", "model_path"};
// State JSON of a RoPE page: "model_name", "layer_type" (several layer types) and "model_path" (an opened file)
// while the page follows the model.
void write_rope_model_json(nlohmann::json& j, const PageStates& a, bool follows);
// What a RoPE page's section says: `model` when it names a model that is found (shipped by name, or read again
// from model_path), now loaded; `custom` when it names none (or one that is gone) and gives at least one of
// `knobs`; `unchanged` when it gives neither (a partial state, a lesson step). Throws ParamError for an
// unknown layer type.
enum class RopeKnobSource { model, custom, unchanged };
RopeKnobSource read_rope_model_json(const nlohmann::json& j, PageStates& a, std::span<const char* const> knobs);
// A RoPE page's read_extra: a model named gives the knobs (`take` puts them on the page; true), a knob given
// without one makes the page custom (`from_model` cleared).
bool read_model_knobs(const nlohmann::json& j, PageStates& a, std::span<const char* const> knobs,
                      void (*take)(PageStates&), bool& from_model);

}  // namespace peviz::app
