// View > Record animation's Cancel (headless): the progress window's button, and the recorder putting
// the window's state back with no file written; a lesson recording's tour undone too.
#include <filesystem>
#include <string>

#include "app/ui/recording.hpp"
#include "tests/app/ui/imgui_headless.hpp"
#include "tests/app/ui/run_gui.hpp"

using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

// Presses and releases the mouse on the Recording window's Cancel button (its last item, bottom left).
void click_cancel(HeadlessImGui& ui, AppState& s) {
  ui.frame(s);  // an auto-sized window appears hidden for a frame, then centres at its size
  ui.frame(s);
  const ImGuiWindow* w = ImGui::FindWindowByName("Recording");
  REQUIRE(w != nullptr);
  REQUIRE(w->Active);
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  io.MousePos = ImVec2(w->Pos.x + pad.x + 8.0f, w->Pos.y + w->Size.y - pad.y - 0.5f * ImGui::GetFrameHeight());
  io.MouseDown[0] = true;
  ui.frame(s);
  CHECK(GImGui->HoveredWindow == w);
  io.MouseDown[0] = false;
  ui.frame(s);
  io.MousePos = ImVec2(-1000, -1000);
}

bool folder_is_empty(const std::string& dir) {
  std::error_code ec;
  return !fs::exists(dir, ec) || fs::is_empty(dir, ec);
}

}  // namespace

TEST_CASE("Cancel while recording a sweep: no file, and the state the window had comes back") {
  HeadlessImGui ui;
  AppState s;
  const std::string dir = temp_path("record-cancel");
  fs::remove_all(dir);
  s.figure.folder = dir;
  const double base = s.params.base;
  s.recording.spec = default_sweep(AnimatedParam::base);
  s.recording.start_requested = true;
  peviz::gfx::HeatmapRenderer renderer;  // no frame is captured before Cancel: no GL needed
  AnimationRecorder rec;
  step_recording(s, renderer, rec, {{960, 540}, 1.0f, 0.0});
  REQUIRE(s.recording.active);
  CHECK(s.recording.total == 60);
  CHECK(s.recording.done == 0);
  s.params.base = 123.0;  // as a captured frame of the sweep would have set it
  click_cancel(ui, s);
  REQUIRE(s.recording.cancel_requested);
  step_recording(s, renderer, rec, {{960, 540}, 1.0f, 1.0});
  CHECK_FALSE(s.recording.active);
  CHECK_FALSE(s.recording.cancel_requested);
  CHECK(s.params.base == base);
  CHECK(s.toast.text == "Recording cancelled");
  CHECK_FALSE(s.toast.is_error);
  CHECK(rec.path.empty());
  CHECK(folder_is_empty(dir));
  ui.frame(s);
  CHECK(ImGui::FindWindowByName("Recording")->Active == false);
}

TEST_CASE("a lesson recording starts the tour for its steps; Cancel ends it as it was") {
  HeadlessImGui ui;
  AppState s;
  const std::string dir = temp_path("record-cancel-lesson");
  s.figure.folder = dir;
  s.recording.spec = default_sweep(AnimatedParam::lesson);
  s.recording.spec.from = 2;
  s.recording.spec.to = 4;
  s.recording.lesson = "positional-encodings";
  s.recording.start_requested = true;
  peviz::gfx::HeatmapRenderer renderer;
  AnimationRecorder rec;
  REQUIRE_FALSE(s.teach.lesson_active);
  step_recording(s, renderer, rec, {{960, 540}, 1.0f, 0.0});
  REQUIRE(s.recording.active);
  CHECK(s.teach.lesson_active);
  CHECK(s.teach.step == 1);               // step 2, 0-based
  CHECK(s.recording.total == 3 + 60);     // three captures, then the frames
  click_cancel(ui, s);
  REQUIRE(s.recording.cancel_requested);
  step_recording(s, renderer, rec, {{960, 540}, 1.0f, 1.0});
  CHECK_FALSE(s.recording.active);
  CHECK_FALSE(s.teach.lesson_active);
  CHECK(folder_is_empty(dir));

  s.recording.spec.to = 99;  // past the lesson: refused in the toast, nothing started
  s.recording.start_requested = true;
  step_recording(s, renderer, rec, {{960, 540}, 1.0f, 2.0});
  CHECK_FALSE(s.recording.active);
  CHECK(s.toast.is_error);
  CHECK(s.toast.text.find("--from: --from and --to are steps 1..13 of positional-encodings.json") != std::string::npos);
  CHECK_FALSE(s.teach.lesson_active);
}
