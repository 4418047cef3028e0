// The model config.json files peviz ships (assets/models/, compiled in) and the models read from them.
//
// The files are the published ones (assets/models/README.md says where each comes from); CMake compiles
// their text into core (cmake/shipped_model_files.cpp.in), so the model presets need no data folder and an
// installed binary has them too. Each is read by read_model_config exactly as a file the user opens.
#pragma once
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/models/model_config.hpp"

namespace peviz {

struct ShippedModelFile {
  std::string_view stem;  // the file name without .json: "llama-3.1-8b-instruct"
  std::string_view json;  // the file's text
};
// Every shipped file, sorted by file name (generated at configure time).
std::span<const ShippedModelFile> shipped_model_files();

// Every shipped file read (the stem names a file without _name_or_path), in file order; read once.
const std::vector<std::shared_ptr<const ModelConfig>>& shipped_models();
// The shipped model whose name (ModelConfig::name) is `name`, or nullptr.
std::shared_ptr<const ModelConfig> find_shipped_model(std::string_view name);

// The model the context-extension page opens with, and the models it compares first.
inline constexpr std::string_view kDefaultRopeModel = "llama-3.1-8b-instruct";
// The model the multimodal RoPE page opens with (interleaved t, h, w pairs).
inline constexpr std::string_view kDefaultMropeModel = "qwen3-vl-8b-instruct";
inline constexpr std::string_view kDefaultComparedModels[] = {"meta-llama/Llama-2-7b-hf", "llama-3.1-8b-instruct",
                                                             "qwen2.5-7b-instruct-yarn"};

}  // namespace peviz
