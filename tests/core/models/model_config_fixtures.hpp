// Where the config.json fixtures are: the published files peviz ships (assets/models/) and test-only ones here.
#pragma once
#include <filesystem>
#include <string>

#include "core/models/model_config.hpp"
#include "tests/build_paths.hpp"

inline std::filesystem::path model_config_fixture(const std::string& name) {
  const std::filesystem::path here = std::filesystem::path(peviz::test::source_dir) / "tests" / "core" / "models";
  const std::filesystem::path test_only = here / "model_configs" / name;
  if (std::filesystem::exists(test_only)) return test_only;
  return std::filesystem::path(peviz::test::source_dir) / "assets" / "models" / name;
}

inline peviz::ModelConfig load_fixture_config(const std::string& name) {
  return peviz::load_model_config(model_config_fixture(name).string());
}
