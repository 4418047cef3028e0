// The config inspector drawn headless: its table keeps no empty scrollbar band under its rows.
#include <string>

#include "app/model/presets.hpp"
#include "tests/app/ui/imgui_headless.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

// The inspector table's scrolling window of the last frame (ImGui names it after its parent and the table's id).
const ImGuiWindow* inspector_table_window() {
  for (const ImGuiWindow* w : GImGui->Windows)
    if (w->Active && std::string(w->Name).find("##inspected") != std::string::npos) return w;
  return nullptr;
}

}  // namespace

TEST_CASE("the config inspector's table is as tall as its rows, a scrollbar band only when it scrolls") {
  AppState s;
  const auto presets = list_presets();
  const PresetEntry* inspector = find_preset(presets, "config-inspector");
  REQUIRE(inspector);
  REQUIRE(apply_preset(*inspector, s));
  const float rows = 3.0f;  // Llama 4 Scout: the header, chunked RoPE layers, full-attention NoPE layers
  for (const float width : {1920.0f, 900.0f}) {
    INFO("window width " << width);
    HeadlessImGui ui(ImVec2(width, 1080));
    for (int i = 0; i < 4; ++i) ui.frame(s);  // the window's settle frames
    const ImGuiWindow* table = inspector_table_window();
    REQUIRE(table);
    const float row_height = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    const float band = table->ScrollbarX ? ImGui::GetStyle().ScrollbarSize : 0.0f;
    INFO("table " << table->Size.y << " tall, rows " << rows * row_height << ", scrollbar " << table->ScrollbarX);
    // 1920 wide: every column fits, no scrollbar and no band; 900: it scrolls and keeps the band for its bar.
    CHECK(table->ScrollbarX == (width < 1000.0f));
    CHECK(table->Size.y == Approx(rows * row_height + band + 4.0f).margin(2.0f));
  }
}
