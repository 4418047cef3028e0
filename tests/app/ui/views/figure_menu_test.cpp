// The File menu's dialogs at 1280 x 720, in the window and presenting: Figure settings and Record animation lie
// inside the window (the settings dialog ran off its right edge with the long "next:" path).
#include <string>

#include "app/model/presentation.hpp"
#include "tests/app/ui/imgui_headless.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {
// The modal `name`, after a few frames; nullptr when it is not open.
const ImGuiWindow* shown_dialog(HeadlessImGui& ui, AppState& s, const char* name) {
  for (int i = 0; i < 4; ++i) ui.frame(s);
  const ImGuiWindow* w = ImGui::FindWindowByName(name);
  return w && w->Active ? w : nullptr;
}
}  // namespace

TEST_CASE("the Figure settings and Record animation dialogs lie inside a 1280 x 720 window, presenting or not") {
  for (const bool presenting : {false, true}) {
    INFO((presenting ? "presenting" : "window"));
    HeadlessImGui ui(ImVec2(1280, 720));
    AppState s;
    s.figure.folder = "/a/rather/long/folder/for/the/figures/of/a/course/on/positional/encodings/in/transformers";
    if (presenting) set_presenting(s, true);
    ui.use_zoom(s.ui_zoom, presenting ? Theme::light : Theme::dark);
    map_arrow_keys();  // and Escape, as the window's backend maps them
    ui.frame(s);
    for (const char* name : {"Figure settings", "Record animation"}) {
      INFO(name);
      if (std::string(name) == "Figure settings") s.figure.settings_dialog_requested = true;
      else s.recording.dialog_requested = true;
      const ImGuiWindow* dialog = shown_dialog(ui, s, name);
      REQUIRE(dialog != nullptr);
      CHECK(dialog->Pos.x >= 0.0f);
      CHECK(dialog->Pos.y >= 0.0f);
      CHECK(dialog->Pos.x + dialog->Size.x <= 1280.0f);
      CHECK(dialog->Pos.y + dialog->Size.y <= 720.0f);
      press_key(ui, s, kEscapeKey);  // closes it for the next
      CHECK(shown_dialog(ui, s, name) == nullptr);
    }
  }
}
