// Test helper: a path in the temp folder unique to this test process, so that parallel test runs (ctest -j,
// a Release and an ASan build at once) never write each other's files.
#pragma once
#include <filesystem>
#include <string>

#include <unistd.h>

inline std::string unique_temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("peviz-test-" + std::to_string(::getpid()) + "-" + name)).string();
}

// A new empty folder at unique_temp_path(name) (whatever was there is removed first).
inline std::filesystem::path fresh_temp_dir(const std::string& name) {
  const std::filesystem::path d = unique_temp_path(name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}
