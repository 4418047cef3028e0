// Every page drawn headless (several option sets, mouse over the key plot) and in
// the real window under Xvfb (one screenshot per page, its key region checked for non-blank content); the parts a
// presented lesson step can show (PageModel::parts): each part left out changes what its page draws; a model's own
// scaling drawn on Context extension.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <stb_image.h>

#include "app/model/figure.hpp"
#include "app/model/lessons.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/model/app_update.hpp"
#include "app/model/state_check.hpp"
#include "app/ui/views/views.hpp"
#include "core/models/shipped_models.hpp"
#include "tests/app/ui/imgui_headless.hpp"
#include "tests/app/ui/run_gui.hpp"
#include "tests/temp_path.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

// Hover, wheel, drag and click over the page's key region, one frame each.
void poke(HeadlessImGui& ui, AppState& s) {
  const float* r = s.pages.plot_region;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(0.5f * (r[0] + r[2]), 0.5f * (r[1] + r[3]));
  ui.frame(s);
  io.MouseWheel = 1.0f;
  ui.frame(s);
  io.MouseWheel = 0.0f;
  io.MouseDown[0] = true;
  ui.frame(s);
  io.MousePos.x += 25;
  ui.frame(s);
  io.MouseDown[0] = false;
  ui.frame(s);
  io.MousePos = ImVec2(-1000, -1000);
  ui.frame(s);
}

std::string write_table(const std::string& file) {
  std::string data;
  for (int r = 0; r < 200; ++r)
    for (int c = 0; c < 48; ++c) {
      const float v = float(0.02 * std::sin(r * std::pow(100.0, -c / 48.0) + c));
      data.append(reinterpret_cast<const char*>(&v), 4);  // little-endian host (x86-64, aarch64)
    }
  const nlohmann::json h = {{"wpe.weight", {{"dtype", "F32"}, {"shape", {200, 48}}, {"data_offsets", {0, data.size()}}}}};
  const std::string path = unique_temp_path(file);
  const std::uint64_t n = h.dump().size();
  std::ofstream os(path, std::ios::binary);
  os.write(reinterpret_cast<const char*>(&n), 8);  // little-endian host (x86-64, aarch64)
  os << h.dump() << data;
  return path;
}

}  // namespace

TEST_CASE("every page draws headless, with interaction, for several option sets") {
  HeadlessImGui ui;
  const std::string table = write_table("peviz-views-test.safetensors");
  for (int i = 1; i < kPageCount; ++i) {
    const Page page = Page(i);
    INFO(page_name(page));
    AppState s;
    s.pages.page = page;
    if (page == Page::learned) open_learned_file(s, table);
    ui.frame(s);
    ui.frame(s);
    CHECK_FALSE(s.status_is_error);
    CHECK(s.pages.plot_region[2] > s.pages.plot_region[0]);  // the key plot was laid out
    poke(ui, s);
    // Second option set: other pairing/bases/heads/lengths, causal forms, sinusoid halves, small L.
    s.pages.rope_clocks.rope.pairing = RopePairing::interleaved;
    s.pages.rope_clocks.animate = true;
    s.pages.rope_decay.head_dim = 2;
    s.pages.context_extension.params = rope_model_presets()[2].params;
    s.pages.context_extension.compare = true;  // the models compared, the usual three
    s.pages.alibi.heads = 12;
    s.pages.alibi.bidirectional = true;
    s.pages.t5_shaw.causal = true;
    s.pages.t5_shaw.seq_len = 2;
    s.pages.distance_chart.params.causal = true;
    s.pages.distance_chart.params.seq_len = 2;
    s.pages.criteria.length_a = 2;
    s.pages.precision.use_rope = false;
    s.params.layout = Layout::halves;
    s.params.d_model = 33;
    s.params.seq_len = 5;
    mark_params_changed(s);
    s.pages.dirty.fill(true);
    ui.frame(s);
    ui.frame(s);
    CHECK_FALSE(s.status_is_error);
    poke(ui, s);
  }
  fs::remove(table);
}

TEST_CASE("bad page options reach the status line and the page keeps its last results") {
  HeadlessImGui ui;
  AppState s;
  s.pages.page = Page::alibi;
  ui.frame(s);
  REQUIRE(s.pages.alibi.slopes.size() == 8);
  s.pages.alibi.heads = 0;
  s.pages.mark(Page::alibi);
  ui.frame(s);
  CHECK(s.status_is_error);
  CHECK(s.status.find("heads") != std::string::npos);
  CHECK(s.pages.alibi.slopes.size() == 8);
  s.pages.alibi.heads = 4;
  s.pages.mark(Page::alibi);
  ui.frame(s);
  CHECK_FALSE(s.status_is_error);

  s.pages.page = Page::context_extension;
  s.pages.context_extension.params.factor = 0.5;
  s.pages.mark(Page::context_extension);
  ui.frame(s);
  CHECK(s.status.find("factor") != std::string::npos);
}

TEST_CASE("each page renders in the real window (Xvfb) with non-blank content") {
  const std::string table = write_table("peviz-shot-test.safetensors");
  for (int i = 1; i < kPageCount; ++i) {
    const std::string name = page_name(Page(i));
    INFO(name);
    const std::string png = unique_temp_path("page-" + name + ".png"), json = unique_temp_path("page-" + name + ".json");
    std::remove(png.c_str());
    const RunResult r = run_gui("--frames 5 --reset --size 1600x900 --view " + name + " --screenshot " + png +
                                " --regions " + json + (name == "learned" ? " --open " + table : ""));
    INFO(r.err);
    REQUIRE(r.code == 0);
    int w = 0, h = 0, n = 0;
    unsigned char* rgb = stbi_load(png.c_str(), &w, &h, &n, 3);
    REQUIRE(rgb != nullptr);
    const auto region = nlohmann::json::parse(std::ifstream(json)).at("page");
    const int x0 = int(region[0].get<double>()) + 2, y0 = int(region[1].get<double>()) + 2;
    const int x1 = std::min(int(region[2].get<double>()) - 2, w), y1 = std::min(int(region[3].get<double>()) - 2, h);
    REQUIRE(x1 - x0 > 100);
    REQUIRE(y1 - y0 > 100);
    std::set<unsigned> colours;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        const unsigned char* p = rgb + (std::size_t(y) * w + x) * 3;
        colours.insert(unsigned(p[0]) << 16 | unsigned(p[1]) << 8 | p[2]);
      }
    stbi_image_free(rgb);
    CHECK(colours.size() > 20);  // lines, dials or a colormapped image: not a blank panel
    std::remove(png.c_str());
    std::remove(json.c_str());
  }
  fs::remove(table);
}

// --- the parts a presented lesson step can show ---------------------------------------------------------------

namespace {

// What one presented frame drew: its plots' ids, its vertex count, and whether the strip was there.
struct Drawn {
  std::set<std::string> plots;
  int vertices = 0;
  bool strip = false;
};

// Presents a one-step lesson on `page` whose "show" is `parts` (empty: no list), the page's controls shown so that
// parts that are controls draw too; a few frames, then what the last one drew.
Drawn present(Page page, const std::vector<std::string>& parts) {
  HeadlessImGui ui(ImVec2(1920, 1080));
  AppState s;
  set_presenting(s, true);
  ui.use_zoom(s.ui_zoom, Theme::light);
  nlohmann::json step = {{"title", "t"}, {"text", "x"}, {"controls", true}, {"state", {{"page", page_name(page)}}}};
  if (!parts.empty()) step["show"] = parts;
  start_lesson(s, parse_lesson({{"title", "T"}, {"steps", {step}}}, "parts.json"));
  for (int i = 0; i < 3; ++i) ui.frame(s);
  Drawn d;
  for (const plot::DrawnPlot& p : plot::drawn_plots()) d.plots.insert(p.id);
  d.vertices = ImGui::GetDrawData()->TotalVtxCount;
  for (const ImGuiWindow* w : GImGui->Windows)
    if (w->Active && std::string(w->Name).find("##present_strip") != std::string::npos) d.strip = true;
  return d;
}

}  // namespace

TEST_CASE("every part of a page, left out of a step's \"show\", is left out of what the page draws") {
  for (const PageModel* model : page_models()) {
    if (model->parts.empty()) continue;
    const Page page = *parse_page(model->name);
    INFO("page " << model->name);
    const Drawn whole = present(page, {});
    for (const char* part : model->parts) {
      INFO("without " << part);
      std::vector<std::string> others;
      for (const char* other : model->parts)
        if (std::string(other) != part) others.push_back(other);
      const Drawn without = present(page, others);
      // A plot part takes its plot away; a part of text or controls takes its vertices (its plots grow instead).
      const bool fewer_plots = without.plots.size() < whole.plots.size();
      CHECK((fewer_plots || without.vertices < whole.vertices));
      for (const std::string& id : without.plots) CHECK(whole.plots.count(id) == 1);
    }
  }
}

TEST_CASE("a figure or animation of a presented slide leaves presenting's slider strip out") {
  HeadlessImGui ui(ImVec2(1280, 720));
  AppState s;
  set_presenting(s, true);
  ui.use_zoom(s.ui_zoom, Theme::light);
  s.pages.page = Page::criteria;  // a page that follows the sidebar's encoding: the window shows the strip
  for (int i = 0; i < 3; ++i) ui.frame(s);
  const auto strip_shown = [] {
    for (const ImGuiWindow* w : GImGui->Windows)
      if (w->Active && std::string(w->Name).find("##present_strip") != std::string::npos) return true;
    return false;
  };
  REQUIRE(strip_shown());
  for (int i = 0; i < 2; ++i) {  // the window figure F12 saves, as figure_capture draws it
    update_app_state(s);
    ImGui::NewFrame();
    draw_figure(s, FigureView{}, "caption");
    ImGui::Render();
  }
  CHECK_FALSE(strip_shown());
}

TEST_CASE("the strip of the sidebar's encoding shows on a presented step that lists it or lists nothing") {
  CHECK(present(Page::criteria, {}).strip);
  CHECK(present(Page::criteria, {"strip", "table"}).strip);
  CHECK_FALSE(present(Page::criteria, {"table"}).strip);
  CHECK_FALSE(present(Page::alibi, {}).strip);  // ALiBi has its own controls
}

TEST_CASE("Context extension draws each shipped model's own scaling, named in its legend, in the window and figures") {
  HeadlessImGui ui(ImVec2(1280, 720));
  int drawn = 0;
  for (const auto& model : shipped_models()) {
    if (model->scheme != PositionScheme::rope || layer_type_rope(*model, "").scaling.kind == RopeScaling::none) continue;
    INFO(model->name);
    AppState s;
    load_rope_model(s.pages, model, "");
    s.pages.page = Page::context_extension;
    plot::DisplayList list{1280, 720, 0, {}};
    ui.frame(s);
    ui.frame(s);
    plot::record_into(&list);
    ui.frame(s);
    plot::record_into(nullptr);
    const std::string& label = s.pages.context_extension.own.label;
    REQUIRE_FALSE(label.empty());
    bool named = false, curve = false;
    for (const plot::DrawItem& item : list.items) {
      if (const auto* t = std::get_if<plot::Text>(&item)) named |= t->text == label;
      if (const auto* l = std::get_if<plot::Polyline>(&item))  // the wide curve, one point per pair
        curve |= l->thickness == 6.0f && l->points.size() == s.pages.context_extension.own.log10_wavelength.size();
    }
    CHECK(named);
    CHECK(curve);
    drawn += named && curve;
    CHECK(figure_caption(s, FigureView{FigureView::one_page, Page::context_extension}).find(model->name) != std::string::npos);
  }
  CHECK(drawn >= 5);
}

namespace {
// The binary table's rows (a child window under its header lines) at lesson 1's step `step`, presented at 1280 x 720.
const ImGuiWindow* binary_rows_at_step(HeadlessImGui& ui, AppState& s, int step) {
  go_to_step(s, step);
  for (int i = 0; i < 4; ++i) ui.frame(s);
  const ImGuiWindow* table = nullptr;
  for (const ImGuiWindow* w : GImGui->Windows)
    if (w->Active && std::string(w->Name).find("##binary_table") != std::string::npos) table = w;
  return table;
}
}  // namespace

TEST_CASE("presented at 1280 x 720, step 3's binary table shows every row; step 4's scrolls to the highlighted row") {
  HeadlessImGui ui(ImVec2(1280, 720));
  AppState s;
  set_presenting(s, true);
  ui.use_zoom(s.ui_zoom, Theme::light);
  start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
  const ImGuiWindow* table = binary_rows_at_step(ui, s, 2);
  REQUIRE(table);
  REQUIRE(s.highlight_position == 7);
  const ScreenRect& r = s.regions.binary_table;  // the rows, the header lines above them
  CHECK(table->ScrollMax.y == 0.0f);  // 16 rows: "7 -> 8 flips four" and the rest, none scrolled away
  CHECK(r.y1 <= table->InnerRect.Max.y + 0.5f);
  CHECK(r.y0 >= table->InnerRect.Min.y - 0.5f);

  table = binary_rows_at_step(ui, s, 3);  // 32 rows under the morph slider: they scroll
  REQUIRE(table);
  REQUIRE(table->ScrollMax.y > 0.0f);
  const int rows = s.pages.basics.binary.positions, row = s.highlight_position;
  const float cell = (r.y1 - r.y0) / float(rows);
  CHECK(r.y0 + float(row) * cell >= table->InnerRect.Min.y - 0.5f);      // the highlighted row's top
  CHECK(r.y0 + float(row + 2) * cell <= table->InnerRect.Max.y + 0.5f);  // the next row's bottom
}

TEST_CASE("the Lab's attention tiles are on screen at 1280 x 720 with the shipped experiment, all its runs in one line") {
  HeadlessImGui ui(ImVec2(1280, 720));
  AppState s;
  s.pages.page = Page::lab;
  s.pages.mark(Page::lab);
  for (int i = 0; i < 4; ++i) ui.frame(s);
  REQUIRE(s.pages.lab.views.size() == 18);  // the shipped default experiment, every run finished
  const plot::DrawnPlot* tiles = nullptr;
  for (const plot::DrawnPlot& p : plot::drawn_plots())
    if (p.id == "##lab_attention_maps") tiles = &p;
  REQUIRE(tiles != nullptr);
  // Within the window, above the status line: 16 tiles of 4 layers x 4 heads, at least 180 x 100 px together
  // (each tile about 45 x 25 px: the pattern of a head, diagonal or column, reads at that size).
  CHECK(tiles->area.max.y <= 720.0f - ImGui::GetFrameHeightWithSpacing());
  CHECK(tiles->area.max.x - tiles->area.min.x >= 180.0f);
  CHECK(tiles->area.max.y - tiles->area.min.y >= 100.0f);
}

TEST_CASE("ALiBi tiles its heads in the column count that makes them largest in the room the page gives the grid") {
  for (const bool presenting : {false, true}) {
    INFO((presenting ? "presenting" : "window"));
    HeadlessImGui ui(ImVec2(1280, 720));
    AppState s;
    if (presenting) set_presenting(s, true);
    ui.use_zoom(s.ui_zoom, presenting ? Theme::light : Theme::dark);
    start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
    go_to_step(s, 11);  // "ALiBi: a bias per distance": the slopes over every head
    for (int i = 0; i < 5; ++i) ui.frame(s);
    const AlibiOptions& o = s.pages.alibi;
    const plot::DrawnPlot* grid = nullptr;
    for (const plot::DrawnPlot& p : plot::drawn_plots())
      if (p.id == "##alibi_grid") grid = &p;
    REQUIRE(grid != nullptr);
    const float w = grid->area.max.x - grid->area.min.x, h = grid->area.max.y - grid->area.min.y;
    const auto side = [&](int cols) { return std::min(w / float(cols), h / float((o.heads + cols - 1) / cols)); };
    CHECK(o.grid_cols == o.grid_cols_wanted);
    for (int cols = 1; cols <= o.heads; ++cols) CHECK(side(cols) <= side(o.grid_cols) * 1.1f);
  }
}
