// Tests for app/model/data_files: the search path for run-time data (PEVIZ_DATA_DIR alone when set, else beside the
// executable, the source tree and the install prefix), finding files and folders, listing .json files.
#include "app/model/data_files.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/temp_path.hpp"
#include "tests/build_paths.hpp"

using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

// Sets PEVIZ_DATA_DIR for its lifetime.
struct DataDirOverride {
  explicit DataDirOverride(const fs::path& dir) { ::setenv("PEVIZ_DATA_DIR", dir.c_str(), 1); }
  ~DataDirOverride() { ::unsetenv("PEVIZ_DATA_DIR"); }
  DataDirOverride(const DataDirOverride&) = delete;
  DataDirOverride& operator=(const DataDirOverride&) = delete;
};

}  // namespace

TEST_CASE("without PEVIZ_DATA_DIR: share/peviz and the executable's folder, then the source tree and the prefix") {
  ::unsetenv("PEVIZ_DATA_DIR");
  const std::vector<fs::path> dirs = data_dirs();
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  REQUIRE(dirs.size() == 4);
  CHECK(dirs[0] == exe.parent_path().parent_path() / "share" / "peviz");
  CHECK(dirs[1] == exe.parent_path());
  CHECK(dirs[2] == fs::path(peviz::test::source_dir));
  CHECK(find_data_file("assets/lessons/positional-encodings.json") ==
        fs::path(peviz::test::source_dir) / "assets/lessons/positional-encodings.json");
  CHECK(find_data_dir("assets/presets") == fs::path(peviz::test::source_dir) / "assets/presets");
  CHECK(find_data_file("assets/presets").empty());  // a folder is not a file
  CHECK(find_data_file("no/such/file.txt").empty());
  CHECK(describe_search("x.glsl") == "x.glsl (searched: " + dirs[0].string() + "; " + dirs[1].string() + "; " +
                                         dirs[2].string() + "; " + dirs[3].string() + ")");
}

TEST_CASE("PEVIZ_DATA_DIR is the only folder searched; json_files_in lists .json files sorted") {
  const fs::path dir = unique_temp_path("data-files");
  fs::create_directories(dir / "assets" / "presets");
  for (const char* name : {"b.json", "a.json", "notes.txt"}) std::ofstream(dir / "assets" / "presets" / name) << "{}";
  {
    const DataDirOverride only(dir);
    CHECK(data_dirs() == std::vector<fs::path>{dir});
    CHECK(find_data_dir("assets/presets") == dir / "assets" / "presets");
    CHECK(find_data_file("assets/lessons/positional-encodings.json").empty());  // the source tree is not searched
    CHECK(describe_search("s.glsl") == "s.glsl (searched: " + dir.string() + ")");
    CHECK(json_files_in(find_data_dir("assets/presets")) ==
          std::vector<fs::path>{dir / "assets/presets/a.json", dir / "assets/presets/b.json"});
  }
  CHECK(json_files_in(fs::path()).empty());
  CHECK(json_files_in(dir / "assets/presets/a.json").empty());  // not a folder
  fs::remove_all(dir);
}
