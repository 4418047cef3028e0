// The RoPE model loaded in the window and how the RoPE pages take its knobs (loaded_rope_model.hpp).
#include "app/model/loaded_rope_model.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/base/errors.hpp"
#include "core/models/shipped_models.hpp"

namespace peviz::app {

namespace {

int layer_index(const ModelConfig& model, const std::string& layer_type) {
  for (std::size_t i = 0; i < model.layer_types.size(); ++i)
    if (model.layer_types[i].layer_type == layer_type) return int(i);
  return 0;
}

// The model a state names: read again from its file, else shipped by that name (`path` cleared); nullptr when
// neither is there.
std::shared_ptr<const ModelConfig> find_named_model(const std::string& name, std::string& path) {
  if (!path.empty()) {
    try {
      auto m = std::make_shared<const ModelConfig>(load_model_config(path));
      if (m->name == name) return m;
    } catch (const ParamError&) {
    }
  }
  path.clear();
  return find_shipped_model(name);
}

}  // namespace

const LayerTypeRope& shown_layer(const LoadedRopeModel& m) {
  const auto& types = m.model->layer_types;
  return types[std::size_t(std::clamp(m.layer, 0, int(types.size()) - 1))];
}

std::string shown_layer_type(const LoadedRopeModel& m) {
  return m.model->layer_types.size() > 1 ? shown_layer(m).layer_type : "";
}

std::string rope_model_label(const LoadedRopeModel& m) {
  const std::string layer = shown_layer_type(m);
  return layer.empty() ? m.model->name : m.model->name + " (" + layer + ")";
}

RopeParams single_rope(const LoadedRopeModel& m) {
  const RopeParams& r = shown_layer(m).rope;
  return {rotary_dim(r), 0, r.base, r.pairing};
}

RopeModelPreset loaded_preset(const LoadedRopeModel& m) { return rope_model_preset(*m.model, shown_layer(m).layer_type); }

namespace {

// Points `m` at `model`, read from `path`, with the preset of `layer` (rope_model_preset validates the scheme and
// the layer type, and refuses an unknown one).
void set_rope_model(LoadedRopeModel& m, std::shared_ptr<const ModelConfig> model, const std::string& path,
                    const std::string& layer) {
  const RopeModelPreset p = rope_model_preset(*model, layer);
  m.layer = layer_index(*model, p.layer_type);
  m.note = p.note;
  m.path = path;
  m.model = std::move(model);
}

}  // namespace

void load_rope_model(PageStates& a, std::shared_ptr<const ModelConfig> model, const std::string& path,
                     const std::string& layer) {
  set_rope_model(a.rope_model, std::move(model), path, layer);
  for (int page = 0; page < kPageCount; ++page) take_rope_model(a, page);
}

void choose_rope_layer(PageStates& a, int layer) {
  LoadedRopeModel& m = a.rope_model;
  if (layer < 0 || layer >= int(m.model->layer_types.size())) return;
  std::array<bool, kPageCount> follows{};  // asked before the switch: afterwards no page's knobs are the model's
  for (int page = 0; page < kPageCount; ++page) {
    const PageModel& p = page_model(Page(page));
    follows[std::size_t(page)] = p.follows_rope_model && p.follows_rope_model(a);
  }
  m.layer = layer;
  m.note = loaded_preset(m).note;
  for (int page = 0; page < kPageCount; ++page)
    if (follows[std::size_t(page)]) take_rope_model(a, page);
}

void take_rope_model(PageStates& a, int page) {
  const PageModel& p = page_model(Page(page));
  if (!p.take_rope_model) return;
  p.take_rope_model(a);
  a.mark(Page(page));
}

std::string rope_model_caption(const PageStates& a, bool follows) {
  return follows ? rope_model_label(a.rope_model) + kCaptionDot : "";
}

void write_rope_model_json(nlohmann::json& j, const PageStates& a, bool follows) {
  if (!follows) return;
  j["model_name"] = a.rope_model.model->name;
  if (const std::string layer = shown_layer_type(a.rope_model); !layer.empty()) j["layer_type"] = layer;
  if (!a.rope_model.path.empty()) j["model_path"] = a.rope_model.path;
}

RopeKnobSource read_rope_model_json(const nlohmann::json& j, PageStates& a, std::span<const char* const> knobs) {
  std::string name, layer, path;
  read(j, "model_name", name);
  read(j, "layer_type", layer);
  read(j, "model_path", path);
  if (!name.empty()) {
    LoadedRopeModel& m = a.rope_model;
    // A model already loaded from the same path is not read again (every RoPE page of a state file names it).
    const bool loaded = m.model && m.model->name == name && m.path == path;
    auto model = loaded ? m.model : find_named_model(name, path);
    if (model && model->scheme == PositionScheme::rope) {
      set_rope_model(m, std::move(model), path, layer);
      return RopeKnobSource::model;
    }
  }
  for (const char* k : knobs)
    if (j.contains(k)) return RopeKnobSource::custom;
  return RopeKnobSource::unchanged;
}

bool read_model_knobs(const nlohmann::json& j, PageStates& a, std::span<const char* const> knobs,
                      void (*take)(PageStates&), bool& from_model) {
  const RopeKnobSource source = read_rope_model_json(j, a, knobs);
  if (source == RopeKnobSource::model) take(a);
  if (source == RopeKnobSource::custom) from_model = false;
  return source == RopeKnobSource::model;
}

}  // namespace peviz::app
