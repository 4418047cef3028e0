// Tests for app/model/pages/learned_page: learned tables from .safetensors and .npy, rows past the table as NaN, the
// row norms, and refused files reaching the status line with the previous table kept.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "tests/temp_path.hpp"

#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

namespace fs = std::filesystem;

namespace {

std::string le(std::uint64_t v, int n) {
  std::string s(std::size_t(n), '\0');
  for (int i = 0; i < n; ++i) s[std::size_t(i)] = char((v >> (8 * i)) & 0xff);
  return s;
}

// rows x cols F32 table named `name` (value r + c/100), plus a 1-D tensor before it.
std::string write_safetensors(const std::string& file, const std::string& name, int rows, int cols) {
  std::string data = le(0, 4);  // "bias" [1] F32
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) data += le(std::bit_cast<std::uint32_t>(float(r) + float(c) / 100.0f), 4);
  const nlohmann::json h = {{"bias", {{"dtype", "F32"}, {"shape", {1}}, {"data_offsets", {0, 4}}}},
                            {name, {{"dtype", "F32"}, {"shape", {rows, cols}}, {"data_offsets", {4, data.size()}}}}};
  const std::string path = unique_temp_path(file);
  std::ofstream(path, std::ios::binary) << le(h.dump().size(), 8) << h.dump() << data;
  return path;
}

}  // namespace

TEST_CASE("learned tables: safetensors and npy load, past-the-table rows are NaN, bad files reach the status") {
  AppState s;
  const std::string good = write_safetensors("peviz-app-good.safetensors", "transformer.wpe.weight", 40, 6);
  open_learned_file(s, good);
  s.params.seq_len = 50;
  update_app_state(s);
  CHECK(s.pages.page == Page::learned);
  CHECK(s.params.learned_source == "safetensors:transformer.wpe.weight");
  REQUIRE(s.pages.basics.has_results);
  CHECK(s.pages.basics.encoding.cols == 6);
  CHECK(s.pages.basics.encoding.at(39, 5) == 39.05f);
  CHECK(std::isnan(s.pages.basics.encoding.at(40, 0)));
  REQUIRE(s.pages.learned.row_norm.size() == 50);
  CHECK(std::isnan(s.pages.learned.row_norm[45]));
  CHECK_FALSE(s.status_is_error);

  // Truncated: refused with the reason, the previous table, its options and the page stay.
  fs::resize_file(good, fs::file_size(good) - 8);
  s.pages.page = Page::alibi;
  CHECK_THROWS_WITH(open_learned_file(s, good), Catch::Contains("from-safetensors"));
  update_app_state(s);
  CHECK(s.pages.page == Page::alibi);
  CHECK(s.pages.learned.path == good);
  CHECK(s.pages.learned.tensor == 1);
  s.pages.page = Page::learned;
  update_app_state(s);
  CHECK(s.pages.basics.encoding.at(39, 5) == 39.05f);
  fs::remove(good);

  CHECK_THROWS_WITH(open_learned_file(s, "/nonexistent/table.npy"), Catch::Contains("from-npy: cannot open"));
  CHECK(s.params.learned_source == "safetensors:transformer.wpe.weight");
}

TEST_CASE("a refused file on a fresh start leaves the page and the sidebar's encoding, and no shipped table "
          "replaces it") {
  AppState s;
  s.pages.page = Page::alibi;
  const Encoding before = s.params.encoding;
  CHECK_THROWS(open_learned_file(s, "/nonexistent/run.safetensors"));
  for (int frame = 0; frame < 3; ++frame) update_app_state(s);
  CHECK(s.pages.page == Page::alibi);
  CHECK(s.params.encoding == before);
}
