// Where the config.json fixtures are: the published files peviz ships (assets/models/) and test-only ones here.
#pragma once
#include <filesystem>
#include <string>

inline std::filesystem::path model_config_fixture(const std::string& name) {
  const std::filesystem::path here = std::filesystem::path(__FILE__).lexically_normal().parent_path();
  const std::filesystem::path test_only = here / "model_configs" / name;
  if (std::filesystem::exists(test_only)) return test_only;
  return here.parent_path().parent_path() / "assets" / "models" / name;
}
