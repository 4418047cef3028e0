// The shipped model configs read once (core/models/shipped_models.hpp).
#include "core/models/shipped_models.hpp"

namespace peviz {

const std::vector<std::shared_ptr<const ModelConfig>>& shipped_models() {
  static const std::vector<std::shared_ptr<const ModelConfig>> models = [] {
    std::vector<std::shared_ptr<const ModelConfig>> out;
    for (const ShippedModelFile& f : shipped_model_files())
      out.push_back(std::make_shared<const ModelConfig>(read_model_config(f.json, f.stem)));
    return out;
  }();
  return models;
}

std::shared_ptr<const ModelConfig> find_shipped_model(std::string_view name) {
  for (const auto& m : shipped_models())
    if (m->name == name) return m;
  return nullptr;
}

}  // namespace peviz
