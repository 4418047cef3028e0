// Tests for app/ui/frame_outputs: the --regions JSON holds every key region and every plot laid out this frame, in
// pixels (screen units times the scale); and the window's F12 figure (save_figure) is the picture peviz render
// draws, named after its parameters (the real window under Xvfb).
#include "app/ui/frame_outputs.hpp"

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "app/plot/draw/drawn_plots.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/png_file.hpp"
#include "tests/app/plot/draw/plot_context_scope.hpp"
#include "tests/app/ui/run_gui.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

RgbaImage load(const std::string& path) { return decode_png(read_file_bytes(path, "test")); }

}  // namespace

TEST_CASE("write_regions: each region and plot in pixels, scaled") {
  plot::PlotContextScope plotting;
  AppState s;
  s.regions.controls = {0, 0, 300, 900};
  s.regions.encoding_heatmap = {310, 20, 700, 400};
  s.pages.plot_region[0] = 1;
  s.pages.plot_region[1] = 2;
  s.pages.plot_region[2] = 3;
  s.pages.plot_region[3] = 4;
  plot::clear_drawn_plots();
  plot::note_drawn_plot({.id = "waves", .frame = {ImVec2(10, 20), ImVec2(110, 220)}});
  plot::note_drawn_plot({.id = "bar", .frame = {ImVec2(120, 20), ImVec2(130, 220)}, .colorbar = true});
  const std::string path = temp_path("regions.json");
  write_regions(path, s, 3200, 1800, 2.0f);
  plot::clear_drawn_plots();
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(path));
  CHECK(j["width"] == 3200);
  CHECK(j["height"] == 1800);
  CHECK(j["controls"] == nlohmann::json({0.0, 0.0, 600.0, 1800.0}));
  CHECK(j["encoding_heatmap"] == nlohmann::json({620.0, 40.0, 1400.0, 800.0}));
  CHECK(j["binary_table"] == nlohmann::json({0.0, 0.0, 0.0, 0.0}));  // not drawn
  CHECK(j["page"] == nlohmann::json({2.0, 4.0, 6.0, 8.0}));
  REQUIRE(j["plots"].size() == 2);
  CHECK(j["plots"][0]["id"] == "waves");
  CHECK(j["plots"][0]["rect"] == nlohmann::json({20.0, 40.0, 220.0, 440.0}));
  CHECK(j["plots"][1]["colorbar"] == true);
  fs::remove(path);
}

TEST_CASE("the window's F12 figure is the same picture as peviz render") {
  const std::string dir = temp_path("f12");
  fs::remove_all(dir);
  const std::string out = temp_path("render-enc.png");
  REQUIRE(run_gui("--reset --frames 4 --size 900x600 --figure-dir " + dir + " --save-figure encoding").code == 0);
  REQUIRE(run_gui("render --view encoding --width 900 --height 600 --caption --out " + out).code == 0);
  std::string saved;
  for (const auto& e : fs::directory_iterator(dir)) saved = e.path().string();
  REQUIRE(fs::path(saved).filename().string().rfind("peviz-encoding-d128-b10000-L128-", 0) == 0);
  const RgbaImage gui = load(saved), cli = load(out);
  REQUIRE(gui.width == cli.width);
  REQUIRE(gui.height == cli.height);
  std::size_t differing = 0;
  for (std::size_t i = 0; i < gui.pixels.size(); ++i) differing += gui.pixels[i] != cli.pixels[i];
  CHECK(differing == 0);
  fs::remove_all(dir);
  std::remove(out.c_str());
}
