// Test helper: a path in the temp folder unique to this test process, so that parallel test runs (ctest -j,
// a Release and an ASan build at once) never write each other's files.
#pragma once
#include <filesystem>
#include <string>

#include <unistd.h>

inline std::string unique_temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("peviz-test-" + std::to_string(::getpid()) + "-" + name)).string();
}
