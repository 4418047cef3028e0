// File > Open's file browser headless at 1280 x 720: keys and clicks move through folders and set open_request;
// Escape cancels; a typed missing path says so in the dialog; the dialog fits the window.
#include <filesystem>
#include <fstream>
#include <string>

#include "app/model/app_state.hpp"
#include "tests/app/ui/imgui_headless.hpp"
#include "tests/temp_path.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

constexpr int kUpKey = 265, kDownKey = 264, kEnterKey = 257, kBackspaceKey = 259, kEndKey = 269;  // GLFW's codes

void map_dialog_keys() {
  map_arrow_keys();
  ImGuiIO& io = ImGui::GetIO();
  io.KeyMap[ImGuiKey_UpArrow] = kUpKey;
  io.KeyMap[ImGuiKey_DownArrow] = kDownKey;
  io.KeyMap[ImGuiKey_Enter] = kEnterKey;
  io.KeyMap[ImGuiKey_Backspace] = kBackspaceKey;
  io.KeyMap[ImGuiKey_End] = kEndKey;
}

// top/: sub/ (fig.png, notes.txt), top.png.
fs::path dialog_folder() {
  const fs::path d = fs::absolute(fresh_temp_dir("open-dialog")).lexically_normal();
  fs::create_directories(d / "sub");
  std::ofstream(d / "sub" / "fig.png") << "x";
  std::ofstream(d / "sub" / "notes.txt") << "x";
  std::ofstream(d / "top.png") << "x";
  return d;
}

bool dialog_open() { return GImGui->OpenPopupStack.Size == 1; }

// File > Open in `folder` (as peviz --open FOLDER asks for it), drawn once.
void open_dialog_in(HeadlessImGui& ui, AppState& s, const fs::path& folder) {
  s.figure.open_browser.start_folder = folder;
  s.figure.open_dialog_requested = true;
  ui.frame(s);
  ui.frame(s);
  REQUIRE(dialog_open());
}

std::string selected_name(const FileBrowser& b) {
  return b.selected < 0 ? "" : b.entries[std::size_t(b.shown[std::size_t(b.selected)])].name;
}

// The list's child window of the Open dialog, from last frame.
ImGuiWindow* entry_list_window() {
  for (ImGuiWindow* w : GImGui->Windows)
    if (std::string(w->Name).rfind("Open/entries_", 0) == 0) return w;
  return nullptr;
}

// The middle of shown row `row` of the list, on screen.
ImVec2 row_centre(int row) {
  ImGuiWindow* w = entry_list_window();
  REQUIRE(w != nullptr);
  const float h = ImGui::GetTextLineHeightWithSpacing();
  return ImVec2(w->Pos.x + 40.0f, w->Pos.y + ImGui::GetStyle().WindowPadding.y + (float(row) + 0.5f) * h - w->Scroll.y);
}

// A headless window at 1280 x 720 with File > Open shown in a fresh dialog_folder(), removed afterwards.
struct DialogShown {
  HeadlessImGui ui{ImVec2(1280, 720)};
  fs::path d = dialog_folder();
  AppState s;
  FileBrowser& b = s.figure.open_browser;
  DialogShown() {
    map_dialog_keys();
    ui.frame(s);
    open_dialog_in(ui, s, d);
  }
  ~DialogShown() { fs::remove_all(d); }
};

}  // namespace

TEST_CASE_METHOD(DialogShown, "the Open dialog: keys enter a folder and open a file; Backspace goes up; Escape cancels") {
  CHECK(b.folder == d);
  CHECK(selected_name(b) == "sub");
  press_key(ui, s, kDownKey);
  CHECK(selected_name(b) == "top.png");
  press_key(ui, s, kUpKey);
  CHECK(selected_name(b) == "sub");
  press_key(ui, s, kEnterKey);  // enters sub/: nothing opens
  CHECK(b.folder == d / "sub");
  CHECK(s.open_request.empty());
  CHECK(selected_name(b) == "fig.png");  // notes.txt is not a peviz file
  CHECK(b.shown.size() == 2);
  press_key(ui, s, kEnterKey);
  CHECK(s.open_request == (d / "sub" / "fig.png").string());
  CHECK_FALSE(dialog_open());

  s.open_request.clear();
  open_dialog_in(ui, s, d / "sub");
  press_key(ui, s, kBackspaceKey);
  CHECK(b.folder == d);
  CHECK(selected_name(b) == "sub");  // the folder just left
  press_key(ui, s, kEscapeKey);
  CHECK_FALSE(dialog_open());
  CHECK(s.open_request.empty());
}

TEST_CASE_METHOD(DialogShown, "the Open dialog: a click selects, a double click enters a folder and opens a file; it fits 1280 x 720") {
  const ImGuiWindow* dialog = ImGui::FindWindowByName("Open");
  REQUIRE(dialog != nullptr);
  CHECK(dialog->Pos.x >= 0.0f);
  CHECK(dialog->Pos.y >= 0.0f);
  CHECK(dialog->Pos.x + dialog->Size.x <= 1280.0f);
  CHECK(dialog->Pos.y + dialog->Size.y <= 720.0f);
  CHECK(dialog->ContentSize.y <= dialog->ContentRegionRect.GetHeight() + 1.0f);  // nothing runs past its bottom

  click_at(ui, s, row_centre(2));  // "..", "sub", "top.png"
  CHECK(selected_name(b) == "top.png");
  click_at(ui, s, row_centre(1));
  click_at(ui, s, row_centre(1));  // the second click within the double-click time
  CHECK(b.folder == d / "sub");
  ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < 20; ++i) ui.frame(s);  // past the double-click time
  click_at(ui, s, row_centre(1));          // "..", "fig.png"
  io.MouseDown[0] = true;                  // the second press: the file opens in this frame
  ui.frame(s);
  io.MouseDown[0] = false;
  CHECK(s.open_request == (d / "sub" / "fig.png").string());
  ui.frame(s);
  CHECK_FALSE(dialog_open());
}

TEST_CASE_METHOD(DialogShown, "the Open dialog: a typed missing path says so in the dialog, which stays open") {
  b.path_text = (d / "missing").string();
  const ImGuiWindow* list = entry_list_window();  // the path field is the row above the list
  REQUIRE(list != nullptr);
  const ImGuiStyle& style = ImGui::GetStyle();
  click_at(ui, s, ImVec2(list->Pos.x + list->Size.x * 0.5f, list->Pos.y - style.ItemSpacing.y - ImGui::GetFrameHeight() * 0.5f));
  REQUIRE(ImGui::GetIO().WantTextInput);
  press_key(ui, s, kEndKey);
  press_key(ui, s, kBackspaceKey);  // edits the field: the folder stays
  CHECK(b.folder == d);
  CHECK(b.path_text == (d / "missin").string());
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[kEnterKey] = true;
  ui.frame(s);
  io.KeysDown[kEnterKey] = false;
  ui.frame(s);
  CHECK(b.problem == "No such file or folder: " + (d / "missin").string());
  CHECK(b.folder == d);
  CHECK(dialog_open());
  CHECK(s.open_request.empty());
}

TEST_CASE_METHOD(DialogShown, "the Open dialog: typing over the list starts a path in the field, then Enter opens it") {
  ImGuiIO& io = ImGui::GetIO();
  REQUIRE(selected_name(b) == "sub");  // Enter over the list would enter sub/
  io.AddInputCharactersUTF8("to");     // a name: after the folder shown
  ui.frame(s);
  CHECK(b.path_text == (d / "to").string());
  io.AddInputCharactersUTF8("p.png");  // typed while the field takes the keys (ImGui focuses it two frames on)
  ui.frame(s);
  ui.frame(s);
  CHECK(GImGui->ActiveId != 0);  // the field has the keys, its cursor at the end
  io.AddInputCharactersUTF8("x");
  ui.frame(s);
  CHECK(b.path_text == (d / "top.pngx").string());
  press_key(ui, s, kBackspaceKey);  // edits the field: the folder stays
  CHECK(b.folder == d);
  press_key(ui, s, kEnterKey);
  CHECK(s.open_request == (d / "top.png").string());
  CHECK_FALSE(dialog_open());

  s.open_request.clear();
  open_dialog_in(ui, s, d);
  io.AddInputCharactersUTF8((d / "sub" / "fig.png").string().c_str());  // a path from /: as typed
  ui.frame(s);
  ui.frame(s);
  ui.frame(s);
  CHECK(b.path_text == (d / "sub" / "fig.png").string());
  press_key(ui, s, kEnterKey);
  CHECK(s.open_request == (d / "sub" / "fig.png").string());

  // A name that is not ASCII starts the path whole (it was dropped to its ASCII letters: "grenpng").
  std::ofstream(d / "größe-π.png") << "x";
  s.open_request.clear();
  open_dialog_in(ui, s, d);
  io.AddInputCharactersUTF8("größe-π.png");
  ui.frame(s);
  CHECK(b.path_text == (d / "größe-π.png").string());
}

TEST_CASE_METHOD(DialogShown, "the Open dialog: a folder of 3000 files is listed once and drawn a screenful at a time") {
  const fs::path big = d / "big";
  fs::create_directories(big);
  for (int i = 0; i < 3000; ++i) std::ofstream(big / ("t" + std::to_string(10000 + i) + ".npy")) << "x";
  b.path_text = big.string();
  CHECK(activate_path_text(b).empty());
  ui.frame(s);
  REQUIRE(b.shown.size() == 3001);  // "..", then the files
  const ImGuiWindow* list = entry_list_window();
  REQUIRE(list != nullptr);
  CHECK(list->DrawList->VtxBuffer.Size < 20000);  // about 30 rows drawn; 3000 rows of text would be over 200000
  std::ofstream(big / "t00000.npy") << "x";  // a file made after the listing is not seen until the folder is listed again
  ui.frame(s);
  CHECK(b.shown.size() == 3001);
  move_selection(b, 5000);  // the last row, as End or many Down presses would leave it
  ui.frame(s);
  ui.frame(s);
  CHECK(list->Scroll.y > 0.0f);
  const float y = row_centre(3000).y;
  CHECK(y > list->Pos.y);
  CHECK(y < list->Pos.y + list->Size.y);  // scrolled to the selection
  press_key(ui, s, kBackspaceKey);
  press_key(ui, s, kEnterKey);  // back into big/: listed again
  CHECK(b.shown.size() == 3002);
}
