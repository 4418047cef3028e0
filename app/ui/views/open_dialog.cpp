// File > Open's file browser: the path field, the folder's entries beside the recent files, the filter and status.
#include "app/ui/views/open_dialog.hpp"

#include <algorithm>
#include <cfloat>
#include <filesystem>
#include <string>
#include <utility>

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include "app/model/file_browser.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

constexpr float kDialogWidthEm = 56.0f, kDialogHeightEm = 32.0f;  // shrunk to the window when it is smaller
constexpr float kRecentWidthEm = 15.0f, kKindWidthEm = 6.0f;

// What the user asked for this frame: a file to open, a row to act on (entries change only after the list is drawn).
struct DialogInput {
  std::string to_open;
  int activated_row = -1;
  bool typing = false;  // the path field has the keys
};

// Centred, and never larger than the window less a margin of two font heights on each side.
void place_dialog() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float em = ImGui::GetFontSize();
  const ImVec2 size(std::min(kDialogWidthEm * em, display.x - 4.0f * em), std::min(kDialogHeightEm * em, display.y - 4.0f * em));
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::max(size.x, 10.0f * em), std::max(size.y, 10.0f * em)), ImGuiCond_Always);
}

// Up, and the path field: Enter enters a typed folder or opens a typed file. Typing over the list goes on in the
// field (take_typing), its cursor at the end of what was typed.
void path_row(FileBrowser& b, DialogInput& in) {
  if (ImGui::Button("Up")) go_up(b);
  hint("The folder above this one (Backspace).");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (b.path_takes_keys) ImGui::SetKeyboardFocusHere();  // taken a frame or two later
  const bool enter = ImGui::InputText("##path", &b.path_text, ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGuiInputTextState* field = b.path_takes_keys && ImGui::IsItemActive() ? ImGui::GetInputTextState(ImGui::GetItemID()) : nullptr) {
    field->ClearSelection();  // focusing selects the whole text: the next key would replace what was typed
    field->Stb.cursor = field->CurLenW;
    b.path_takes_keys = false;
  }
  in.typing = ImGui::IsItemActive() || enter;
  hint("The folder shown. Type a folder or a file (~ is your home folder) and press Enter.");
  if (enter) in.to_open = activate_path_text(b);
}

// Characters typed while the list has the keys start a path in the field: a name goes after the folder shown, a
// path from / or ~ stands alone; what comes until the field has the keys (a frame or two) is added to it.
void take_typing(FileBrowser& b) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.InputQueueCharacters.Size == 0 || io.KeyCtrl || io.KeySuper) return;
  std::string typed;
  char utf8[5];
  for (const ImWchar c : io.InputQueueCharacters)
    if (c >= 0x20 && c != 0x7f) typed += ImTextCharToUtf8(utf8, c);  // printable, as UTF-8 (a name like "größe.png")
  if (typed.empty()) return;
  const bool absolute = typed.front() == '/' || typed.front() == '~';
  if (b.path_takes_keys) b.path_text += typed;  // typed on while the field was being focused
  else b.path_text = absolute ? typed : (b.folder / typed).string();
  b.path_takes_keys = true;
}

// Scrolls the list to the selected row after a key or a new listing moved it (rows of equal height).
void scroll_to_selection(FileBrowser& b, float row_height) {
  if (!std::exchange(b.follow_selection, false) || b.selected < 0) return;
  const float y = float(b.selected) * row_height, top = ImGui::GetScrollY();
  const float visible = ImGui::GetWindowHeight() - 2.0f * ImGui::GetStyle().WindowPadding.y;
  if (y < top) ImGui::SetScrollY(y);
  else if (y + row_height > top + visible) ImGui::SetScrollY(y + row_height - visible);
}

// One row: a selectable as wide as the list, the name ("name/" for a folder) and its kind at the right.
void entry_row(const FileBrowser& b, int row, float kind_x, DialogInput& in, int& clicked) {
  const FileEntry& e = b.entries[std::size_t(b.shown[std::size_t(row)])];
  ImGui::PushID(row);
  const float x = ImGui::GetCursorPosX();
  const ImGuiSelectableFlags flags = ImGuiSelectableFlags_AllowDoubleClick | ImGuiSelectableFlags_DontClosePopups;
  if (ImGui::Selectable("##entry", b.selected == row, flags)) {
    clicked = row;
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) in.activated_row = row;
  }
  ImGui::SameLine(x);
  const bool folder = e.kind == EntryKind::folder;
  ImGui::TextUnformatted(folder ? (e.name + "/").c_str() : e.name.c_str());
  if (const char* kind = entry_kind_label(e.kind); *kind) {
    ImGui::SameLine(kind_x);
    ImGui::TextDisabled("%s", kind);
  }
  ImGui::PopID();
}

// The folder's entries that pass the filter, drawn through a clipper (only the visible rows cost anything).
void entry_list(FileBrowser& b, ImVec2 size, DialogInput& in) {
  ImGui::BeginChild("entries", size, true);
  const float row_height = ImGui::GetTextLineHeightWithSpacing();
  scroll_to_selection(b, row_height);
  const float kind_x = std::max(ImGui::GetWindowContentRegionMax().x - kKindWidthEm * ImGui::GetFontSize(), 0.0f);
  int clicked = -1;
  ImGuiListClipper clipper;
  clipper.Begin(int(b.shown.size()), row_height);
  while (clipper.Step())
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) entry_row(b, row, kind_x, in, clicked);
  if (clicked >= 0) b.selected = clicked;
  ImGui::EndChild();
}

// The files opened last, newest first: a click opens one again.
void recent_list(const AppState& s, ImVec2 size, DialogInput& in) {
  ImGui::BeginChild("recent", size, true);
  ImGui::TextDisabled("recent files");
  if (s.recent_files.empty()) ImGui::TextDisabled("(none yet)");
  for (std::size_t i = 0; i < s.recent_files.size(); ++i) {
    const std::string& path = s.recent_files[i];
    ImGui::PushID(int(i));
    const std::string name = std::filesystem::path(path).filename().string();
    if (ImGui::Selectable(name.c_str(), false, ImGuiSelectableFlags_DontClosePopups)) in.to_open = path;
    hint(path.c_str());
    ImGui::PopID();
  }
  ImGui::EndChild();
}

// One line: why a folder or a path could not be used, else what the list holds.
void status_line(const FileBrowser& b) {
  if (!b.problem.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(235, 80, 70, 255));
    ImGui::TextUnformatted(b.problem.c_str());
    ImGui::PopStyleColor();
    return;
  }
  int folders = 0, files = 0;
  for (const int i : b.shown) {
    const EntryKind k = b.entries[std::size_t(i)].kind;
    folders += k == EntryKind::folder;
    files += k != EntryKind::folder && k != EntryKind::parent;
  }
  ImGui::TextDisabled("%d folders, %d files. Up / Down select, Enter opens, Backspace goes up, typing starts a path, Escape cancels.", folders,
                      files);
}

// The filter, Open (the selected row) and Cancel. True when Cancel is pressed.
bool footer(FileBrowser& b, DialogInput& in) {
  const char* current = kFileFilters[0].label;
  for (const FileFilterInfo& f : kFileFilters)
    if (f.filter == b.filter) current = f.label;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18.0f);
  if (ImGui::BeginCombo("show", current)) {
    for (const FileFilterInfo& f : kFileFilters)
      if (ImGui::Selectable(f.label, f.filter == b.filter)) set_filter(b, f.filter);
    ImGui::EndCombo();
  }
  hint("Which files the list shows; folders are always listed.");
  ImGui::SameLine();
  if (ImGui::Button("Open")) in.activated_row = b.selected;
  ImGui::SameLine();
  return ImGui::Button("Cancel");
}

// Up / Down, Enter, Backspace over the list, and typing into the path field (not while the field is edited).
void list_keys(FileBrowser& b, DialogInput& in) {
  take_typing(b);
  const auto pressed = [](ImGuiKey_ k, bool repeat) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k), repeat); };
  if (pressed(ImGuiKey_UpArrow, true)) move_selection(b, -1);
  if (pressed(ImGuiKey_DownArrow, true)) move_selection(b, 1);
  if (pressed(ImGuiKey_Enter, false) || pressed(ImGuiKey_KeyPadEnter, false)) in.activated_row = b.selected;
  if (pressed(ImGuiKey_Backspace, true)) go_up(b);
}

}  // namespace

void draw_open_dialog(AppState& s) {
  place_dialog();
  ImVec4 opaque = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);  // no plot lines showing through the list
  opaque.w = 1.0f;
  ImGui::PushStyleColor(ImGuiCol_PopupBg, opaque);
  const bool open = ImGui::BeginPopupModal("Open", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
  ImGui::PopStyleColor();
  if (!open) return;
  FileBrowser& b = s.figure.open_browser;
  DialogInput in;
  ImGui::TextWrapped("A figure saved by peviz (PNG, SVG, PDF), a lab experiment, a model's config.json, or a .npy / "
                     ".safetensors table. Dropping a file onto the window opens it too.");
  path_row(b, in);
  const float em = ImGui::GetFontSize();
  const float footer_height = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetFrameHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float list_height = std::max(avail.y - footer_height, 4.0f * em);
  const float recent_width = std::min(kRecentWidthEm * em, avail.x * 0.35f);
  const float list_width = avail.x - recent_width - ImGui::GetStyle().ItemSpacing.x;
  entry_list(b, ImVec2(list_width, list_height), in);
  ImGui::SameLine();
  recent_list(s, ImVec2(recent_width, list_height), in);
  status_line(b);
  const bool cancel = footer(b, in);
  if (!in.typing) list_keys(b, in);
  if (in.activated_row >= 0 && in.to_open.empty()) in.to_open = activate(b, in.activated_row);
  if (!in.to_open.empty()) {
    s.open_request = in.to_open;
    ImGui::CloseCurrentPopup();
  } else if (cancel || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace peviz::app
