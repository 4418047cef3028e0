// Search path for shaders, fonts, presets and lessons.
#include "app/model/data_files.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace peviz::app {

namespace fs = std::filesystem;

std::vector<fs::path> data_dirs() {
  if (const char* env = std::getenv("PEVIZ_DATA_DIR"); env && *env) return {fs::path(env)};
  std::vector<fs::path> dirs;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back(exe.parent_path().parent_path() / "share" / "peviz");
    dirs.push_back(exe.parent_path());
  }
  dirs.emplace_back(PEVIZ_SOURCE_DIR);
  dirs.emplace_back(PEVIZ_INSTALL_DATADIR);
  return dirs;
}

namespace {

// The first <dir>/<relative> over data_dirs() that is a folder (want_dir) or a regular file.
fs::path find_in_data_dirs(const std::string& relative, bool want_dir) {
  for (const fs::path& dir : data_dirs()) {
    std::error_code ec;
    const fs::path candidate = dir / relative;
    if (want_dir ? fs::is_directory(candidate, ec) : fs::is_regular_file(candidate, ec)) return candidate;
  }
  return {};
}

}  // namespace

fs::path find_data_file(const std::string& relative) { return find_in_data_dirs(relative, false); }

fs::path find_data_dir(const std::string& relative) { return find_in_data_dirs(relative, true); }

std::vector<fs::path> json_files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string describe_search(const std::string& relative) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a known false positive) on "..." + string.
  std::string out = relative;
  out += " (searched:";
  for (const fs::path& dir : data_dirs()) {
    out += ' ';
    out += dir.string();
    out += ';';
  }
  out.back() = ')';
  return out;
}

}  // namespace peviz::app
