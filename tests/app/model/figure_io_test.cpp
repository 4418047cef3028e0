// The data behind each view, its export, opening figures and refusing files that cannot open (headless: no window).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "app/model/page_model.hpp"
#include "app/model/app_update.hpp"
#include "app/model/figure.hpp"
#include "app/model/data_files.hpp"
#include "app/model/figure_io.hpp"
#include "app/model/state_json.hpp"
#include "app/plot/svg_writer.hpp"
#include "core/base/errors.hpp"
#include "core/io/png_file.hpp"
#include "tests/core/models/model_config_fixtures.hpp"
#include "tests/temp_path.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

void compute_page(AppState& s, Page p) {
  s.pages.page = p;
  update_app_state(s);
  REQUIRE_FALSE(s.status_is_error);
}

}  // namespace

TEST_CASE("the data behind the basic views has their shapes and values") {
  AppState s;
  s.params.d_model = 16;
  s.params.seq_len = 40;
  update_app_state(s);
  const NdArray enc = view_data(s, {FigureView::encoding});
  CHECK(enc.shape == std::vector<std::size_t>{40, 16});
  CHECK(enc.f32[std::size_t(3) * 16] == Approx(std::sin(3.0)));  // pe[3, 0] = sin(3)
  const NdArray sim = view_data(s, {FigureView::similarity});
  REQUIRE(sim.shape == std::vector<std::size_t>{40, 40});
  REQUIRE(sim.f32.size() > 0);
  CHECK(sim.f32[0] == Approx(1.0));               // cosine of a position with itself
  CHECK(sim.f32[5 * 40 + 9] == Approx(sim.f32[10 * 40 + 14]).margin(1e-6));  // Toeplitz: offset 4 both
  const NdArray waves = view_data(s, {FigureView::waves});
  CHECK(waves.shape == std::vector<std::size_t>{40, s.pages.basics.wave_channels.size()});
  const NdArray bits = view_data(s, {FigureView::binary});
  CHECK(bits.shape[0] == std::size_t(s.pages.basics.binary.positions));
  CHECK(bits.f32[std::size_t(5) * bits.shape[1] + 1] == 1.0f);  // t = 5: bit 0 is 1
  CHECK(bits.f32[std::size_t(5) * bits.shape[1] + 3] == 0.0f);  // bit 1 is 0
}

TEST_CASE("every page has data to export once computed") {
  for (int i = 1; i < kPageCount; ++i) {
    INFO(page_name(Page(i)));
    AppState s;
    s.params.d_model = 32;
    s.params.seq_len = 64;
    compute_page(s, Page(i));
    const NdArray a = view_data(s, {FigureView::one_page, Page(i)});
    CHECK(a.size() > 0);
  }
  AppState s;
  compute_page(s, Page::alibi);
  const NdArray bias = view_data(s, {FigureView::one_page, Page::alibi});
  CHECK(bias.shape == std::vector<std::size_t>{8, 64, 64});
  CHECK(bias.f32[64 * 10 + 7] == Approx(-0.5 * 3));  // head 0, i = 10, j = 7: -m (i - j), m = 1/2
}

TEST_CASE("new figure paths: figure_file_name's stem with the ending asked, in the figure folder") {
  AppState s;
  const fs::path dir = fresh_temp_dir("figure-io-figure-paths") / "new";
  s.figure.folder = dir.string();
  const std::string png = figure_file_name(s, {FigureView::encoding}, 0);
  const std::string gif = new_figure_path(s, {FigureView::encoding}, 0, "-position.gif");
  CHECK(fs::is_directory(dir));
  CHECK(fs::path(gif).filename().string() == png.substr(0, png.size() - 4) + "-position.gif");
  CHECK(new_figure_path(s, {FigureView::encoding}, 0, ".png") == (dir / png).string());
  s.figure.caption = false;
  s.figure.theme_choice = 2;
  const FigureOptions o = figure_options(s.figure, {FigureView::waves}, 640, 360);
  CHECK(o.view == FigureView{FigureView::waves});
  CHECK((o.width == 640 && o.height == 360 && !o.caption && o.theme == Theme::light));
  s.figure.theme_choice = 0;
  CHECK_FALSE(figure_options(s.figure, {FigureView::waves}, 640, 360).theme);
}

TEST_CASE("exported CSV and NPY files land in the folder, atomically") {
  AppState s;
  s.params.d_model = 8;
  s.params.seq_len = 5;
  update_app_state(s);
  const fs::path dir = fresh_temp_dir("figure-io-export") / "made";  // created when missing
  s.figure.folder = dir.string();
  const std::string csv = export_view_data(s, {FigureView::encoding}, false, 0);
  CHECK(fs::path(csv).parent_path() == dir);
  CHECK(fs::path(csv).filename().string().rfind("peviz-encoding-d8-b10000-L5-", 0) == 0);
  std::ifstream in(csv);
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line == "dim_0,dim_1,dim_2,dim_3,dim_4,dim_5,dim_6,dim_7");  // its column names, then a row per position
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  CHECK(lines == 5);
  const std::string npy = export_view_data(s, {FigureView::encoding}, true, 0);
  CHECK(fs::path(npy).extension() == ".npy");
  CHECK(fs::path(npy).stem() == fs::path(csv).stem());
  s.figure.folder = "/proc/peviz-no-such";
  CHECK_THROWS_AS(export_view_data(s, {FigureView::encoding}, true, 0), ParamError);

  s.figure.export_requested = true;
  handle_file_requests(s, 0.0, 0);
  CHECK(s.toast.is_error);
  CHECK(s.toast.text.find("Data not saved") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("opening a figure PNG restores its parameters; a foreign or broken PNG is refused") {
  const fs::path dir = fresh_temp_dir("figure-io-open");
  AppState made;
  made.params.encoding = Encoding::binary;
  made.params.d_model = 12;
  made.pages.alibi.heads = 16;
  RgbaImage img{2, 2, std::vector<std::uint8_t>(16, 200)};
  write_png_file((dir / "fig.png").string(), img, figure_metadata(made, {FigureView::one_page, Page::alibi}));
  write_png_file((dir / "plain.png").string(), img, {});

  AppState s;
  s.open_request = (dir / "fig.png").string();
  handle_file_requests(s, 1.0, 0);
  CHECK_FALSE(s.toast.is_error);
  CHECK(s.params.encoding == Encoding::binary);
  CHECK(s.params.d_model == 12);
  CHECK(s.pages.alibi.heads == 16);
  CHECK(s.pages.page == Page::alibi);

  AppState t;
  t.open_request = (dir / "plain.png").string();
  handle_file_requests(t, 1.0, 0);
  CHECK(t.toast.is_error);
  CHECK(t.toast.text.find("no peviz parameters") != std::string::npos);
  CHECK(t.params.d_model == 128);
  std::ofstream(dir / "cut.png", std::ios::binary) << std::string("\x89PNG\r\n\x1a\n\0\0", 10);
  CHECK_THROWS_AS(open_figure(t, (dir / "cut.png").string()), ParamError);
  fs::remove_all(dir);
}

TEST_CASE("an SVG figure reopens to the state and view that made it; a corrupt one is refused") {
  const fs::path dir = fresh_temp_dir("figure-io-vector");
  AppState made;
  made.params.d_model = 24;
  made.params.base = 500.0;
  made.pages.rope_clocks.position = 17.0;
  made.pages.page = Page::rope_clocks;
  const FigureView view{FigureView::one_page, Page::rope_clocks};
  plot::DisplayList list;
  list.width = 200;
  list.height = 100;
  list.text({10, 10}, 16, plot::rgba(0, 0, 0), "position");
  plot::write_svg_file((dir / "fig.svg").string(), list, figure_metadata(made, view));
  {
    AppState s;
    s.open_request = (dir / "fig.svg").string();
    handle_file_requests(s, 1.0, 0);
    CHECK_FALSE(s.toast.is_error);
    CHECK(s.params.d_model == 24);
    CHECK(s.params.base == 500.0);
    CHECK(s.pages.rope_clocks.position == 17.0);
    CHECK(s.pages.page == Page::rope_clocks);
    CHECK(state_to_json(s) == state_to_json(made));
  }
  std::ofstream(dir / "cut.svg", std::ios::binary) << "<svg><peviz:entry key=\"peviz\">{";
  AppState t;
  CHECK_THROWS_AS(open_figure(t, (dir / "cut.svg").string()), ParamError);
  CHECK(t.params.d_model == 128);
  fs::remove_all(dir);
}

TEST_CASE("File > Export lab runs: with no finished run the toast says so and nothing is written") {
  AppState s;
  const fs::path dir = fresh_temp_dir("figure-io-lab");
  s.figure.folder = dir.string();
  s.pages.lab.save_requested = true;
  handle_file_requests(s, 10.0, 1234);
  CHECK_FALSE(s.pages.lab.save_requested);
  CHECK(s.toast.is_error);
  CHECK(s.toast.text == "Lab runs not saved: no finished lab run to save: press Train and wait for a run to end");
  CHECK((!fs::exists(dir) || fs::is_empty(dir)));
  fs::remove_all(dir);
}

TEST_CASE("opening a file that is missing, truncated or not what its name says changes nothing and says why") {
  const fs::path dir = fresh_temp_dir("figure-io-bad-open");
  const fs::path shipped = find_data_file("assets/lab/default-copy-learned-seed0.safetensors");
  REQUIRE_FALSE(shipped.empty());
  std::string head(1000, '\0');
  std::ifstream(shipped, std::ios::binary).read(head.data(), 1000);
  std::ofstream(dir / "truncated.safetensors", std::ios::binary) << head;
  std::ofstream(dir / "junk.safetensors") << "not a safetensors file";
  std::ofstream(dir / "junk.npy") << "not an npy file";
  std::ofstream(dir / "junk.png") << "not a png";
  std::ofstream(dir / "config.json") << "{ not json";
  std::ofstream(dir / "README.md") << "# a text file";
  // Each says what the file is not, in peviz's words (not the reader's alone); the caller names the file.
  const struct { fs::path path; const char* why; } cases[] = {
      {dir / "run.safetensors", "no such file"},
      {dir, "not a file"},
      {dir / "truncated.safetensors", "not a safetensors file peviz reads as a learned table"},
      {dir / "junk.safetensors", "not a safetensors file peviz reads as a learned table"},
      {dir / "junk.npy", "not a NumPy array peviz reads as a learned table"},
      {dir / "junk.png", ""},
      {dir / "config.json", ""},
      {dir / "README.md", "peviz opens figures (.png, .svg, .pdf), lab experiments and runs, models' config.json and "
                          "learned tables (.npy, .safetensors), not .md files"},
  };
  for (const auto& c : cases) {
    INFO(c.path.string());
    AppState s;
    compute_page(s, Page::alibi);
    const nlohmann::json before = state_to_json(s);
    CHECK_THROWS_WITH(open_file(s, c.path.string()), Catch::Contains(c.why));
    s.open_request = c.path.string();  // the File menu's and the drop's way: the toast and the status line
    handle_file_requests(s, 1.0, 1234);
    CHECK(s.toast.is_error);
    CHECK(s.status_is_error);
    CHECK(s.status.find(c.path.string()) != std::string::npos);
    for (int frame = 0; frame < 3; ++frame) update_app_state(s);
    CHECK(state_to_json(s) == before);
    CHECK(s.status_is_error);  // nothing was applied, so nothing recomputed says "up to date"
  }
  fs::remove_all(dir);
}

TEST_CASE("opening a RoPE model on a RoPE page it does not apply to says so, and the page keeps its model") {
  AppState s;
  s.pages.page = Page::mrope;
  update_app_state(s);
  const auto shown = s.pages.mrope.model;
  REQUIRE(shown);
  CHECK_FALSE(mrope_keeps_own_model(s.pages));  // the default model, loaded at start, is not the user's: unsaid
  const std::string phi = model_config_fixture("phi-3.5-mini-instruct.json").string();
  const std::string said = open_file(s, phi);
  CHECK(said == "Multimodal RoPE does not apply to microsoft/Phi-3.5-mini-instruct and keeps its model; the other RoPE "
                "pages show microsoft/Phi-3.5-mini-instruct (" + phi + ")");
  CHECK(s.pages.page == Page::mrope);
  CHECK(s.pages.mrope.model == shown);
  CHECK(s.pages.rope_model.model->name == "microsoft/Phi-3.5-mini-instruct");  // Context extension, clocks, ... take it
  CHECK(mrope_keeps_own_model(s.pages));  // the page says so while it shows
  // A multimodal model applies: opened on the page.
  const std::string vl = model_config_fixture("qwen2.5-vl-7b-instruct.json").string();
  CHECK(open_file(s, vl).starts_with("Opened the positions of "));
  CHECK(s.pages.mrope.model == s.pages.rope_model.model);
  CHECK_FALSE(mrope_keeps_own_model(s.pages));
}

TEST_CASE("a file opened goes first in the recent files, made absolute; a refused one does not") {
  const fs::path dir = fresh_temp_dir("figure-io-recent");
  std::ofstream(dir / "junk.npy") << "not an npy file";
  const fs::path config = find_data_file("assets/models/llama-2-7b-hf.json");
  REQUIRE_FALSE(config.empty());
  AppState s;
  s.recent_files = {"/earlier/fig.png"};
  CHECK_THROWS(open_file(s, (dir / "junk.npy").string()));
  CHECK(s.recent_files == std::vector<std::string>{"/earlier/fig.png"});
  s.open_request = config.string();  // File > Open's, a drop's way
  handle_file_requests(s, 1.0, 1234);
  REQUIRE_FALSE(s.toast.is_error);
  CHECK(s.recent_files == std::vector<std::string>{fs::absolute(config).lexically_normal().string(), "/earlier/fig.png"});
  fs::remove_all(dir);
}
