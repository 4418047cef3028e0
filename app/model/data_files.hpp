// Finding run-time data (shaders/, assets/) relative to the executable, the source tree or the
// install prefix.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace peviz::app {

// Folders searched for data, in order. When PEVIZ_DATA_DIR is set it is the only one (tests use
// it to inject a broken shader). Otherwise: <exe dir>/../share/peviz, <exe dir>, PEVIZ_SOURCE_DIR,
// PEVIZ_INSTALL_DATADIR.
std::vector<std::filesystem::path> data_dirs();

// The first existing <dir>/<relative> over data_dirs(); empty path when none has it.
std::filesystem::path find_data_file(const std::string& relative);

// The first existing folder <dir>/<relative> over data_dirs() (e.g. "assets/presets"); empty when none.
std::filesystem::path find_data_dir(const std::string& relative);

// The .json files directly in `dir`, sorted by path (presets and lessons); none when `dir` is empty
// or not a folder.
std::vector<std::filesystem::path> json_files_in(const std::filesystem::path& dir);

// "<relative> (searched: a, b, c)" for error messages.
std::string describe_search(const std::string& relative);

}  // namespace peviz::app
