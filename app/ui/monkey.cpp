// The monkey: plans random gestures (clicks, drags, wheel, keys, typing) at the windows ImGui laid out
// last frame, writes them into ImGui's IO, and checks the state after every frame.
#include "app/ui/monkey.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <sys/stat.h>
#include <unistd.h>  // sysconf
#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

#include <imgui_internal.h>  // last frame's windows and open popups: where the widgets are

#include "app/gfx/window.hpp"
#include "app/model/app_update.hpp"
#include "app/model/figure.hpp"
#include "app/model/lessons.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/model/state_check.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

namespace {

namespace fs = std::filesystem;

// Frames at each end of a run spent visiting every page with no input, so that the memory at the start
// and at the end is measured with the same caches filled (the end restores the starting state first).
// Two frames a page: a page chosen during a frame is computed by the next frame's update step and drawn
// then, so with one frame a page the start was measured before any page's data or picture existed.
// The second frame of each page also saves a figure of it (saved after the frame, like F12), so the
// start is measured after the figure path has run too: the first capture fills caches that stay for the
// life of the process (the GL driver's shader variants for the offscreen target, cairo's and fontconfig's).
constexpr int kTourFramesPerPage = 2;
constexpr int kTourFrames = kTourFramesPerPage * kPageCount + 4;

bool touring(const Monkey& m, int frame) {
  if (m.frames < 4 * kTourFrames) return false;
  return frame < kTourFrames || frame >= m.frames - kTourFrames;
}

// ---- where to aim: last frame's windows -------------------------------------------------------

struct Targets {
  ImRect root, menu_bar, tabs, sliders;  // sliders: the sidebar's slider column (or the presentation strip)
  std::vector<ImRect> views;             // the page, the four basic views, the lesson panel
  ImGuiWindow* popup = nullptr;          // the top open popup, menu or modal dialog
};

bool named(const ImGuiWindow* w, const char* id) { return std::strstr(w->Name, id) != nullptr; }

// The part of a child window that holds its items (not the empty space below them).
ImRect content_rect(const ImGuiWindow* w) {
  const float bottom = w->Pos.y + std::min(w->Size.y, w->ContentSize.y + 2.0f * w->WindowPadding.y);
  return ImRect(w->Pos, ImVec2(w->Pos.x + w->Size.x, std::max(bottom, w->Pos.y + 1.0f)));
}

Targets find_targets() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  Targets t;
  for (ImGuiWindow* w : g.Windows) {
    if (!w->Active || w->Hidden) continue;
    if (std::strcmp(w->Name, "peviz") == 0) {
      t.root = w->Rect();
      t.menu_bar = w->MenuBarRect();
    } else if (named(w, "##controls") || named(w, "##present_strip")) {
      const ImRect c = content_rect(w);
      t.sliders = ImRect(c.Min.x + w->WindowPadding.x, c.Min.y,
                         std::max(c.Min.x + w->WindowPadding.x + 1.0f, c.Max.x - 7.5f * g.FontSize), c.Max.y);
      const float row = g.FontSize + 2.0f * g.Style.FramePadding.y;  // the page tabs sit just above
      const float tabs_bottom = w->Pos.y - g.Style.ItemSpacing.y;
      t.tabs = ImRect(t.root.Min.x, tabs_bottom - row, t.root.Max.x, tabs_bottom);
    } else if (named(w, "##page") || named(w, "##waves") || named(w, "##encoding") || named(w, "##similarity") ||
               named(w, "##binary") || named(w, "##lesson")) {
      t.views.push_back(content_rect(w));
    }
  }
  for (int i = g.OpenPopupStack.Size - 1; i >= 0 && !t.popup; --i) {
    ImGuiWindow* w = g.OpenPopupStack[i].Window;
    if (w && w->Active) t.popup = w;
  }
  return t;
}

// ---- random choices ----------------------------------------------------------------------------

float uniform(Monkey& m, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, std::max(lo, hi))(m.rng);
}
int pick(Monkey& m, int n) { return std::uniform_int_distribution<int>(0, n - 1)(m.rng); }
bool chance(Monkey& m, double p) { return std::bernoulli_distribution(p)(m.rng); }

ImVec2 point_in(Monkey& m, const ImRect& r) { return {uniform(m, r.Min.x, r.Max.x), uniform(m, r.Min.y, r.Max.y)}; }

// The left of the menu bar, where File, Presets, Lesson and View are.
ImRect menu_titles(const Targets& t) {
  return ImRect(t.menu_bar.Min, ImVec2(t.menu_bar.Min.x + 16.0f * ImGui::GetFontSize(), t.menu_bar.Max.y));
}

ImRect any_view(Monkey& m, const Targets& t) {
  if (t.views.empty()) return t.root;
  return t.views[std::size_t(pick(m, int(t.views.size())))];
}

// ---- gestures: each appends the frames it takes to the plan ------------------------------------

MonkeyInput at(ImVec2 p) {
  MonkeyInput in;
  in.mouse = p;
  return in;
}

void click(Monkey& m, ImVec2 p, int button = 0, bool ctrl = false, bool shift = false) {
  m.plan.push_back(at(p));  // move there first: ImGui sees the hover, then the press
  MonkeyInput down = at(p);
  down.buttons[std::size_t(button)] = true;
  down.ctrl = ctrl;
  down.shift = shift;
  m.plan.push_back(down);
  m.plan.push_back(at(p));
}

void double_click(Monkey& m, ImVec2 p) {
  click(m, p);
  MonkeyInput down = at(p);
  down.buttons[0] = true;
  m.plan.push_back(down);
  m.plan.push_back(at(p));
}

// Press at `from`, move to `to` over several frames, release there.
void drag(Monkey& m, ImVec2 from, ImVec2 to, int button = 0) {
  m.plan.push_back(at(from));
  const int steps = 2 + pick(m, 9);
  for (int i = 0; i <= steps; ++i) {
    const float f = float(i) / float(steps);
    MonkeyInput in = at(ImVec2(from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f));
    in.buttons[std::size_t(button)] = true;
    m.plan.push_back(in);
  }
  m.plan.push_back(at(to));
}

void wheel(Monkey& m, ImVec2 p) {
  MonkeyInput in = at(p);
  const float turns = float(1 + pick(m, 3)) * (chance(m, 0.5) ? 1.0f : -1.0f);
  (chance(m, 0.2) ? in.wheel_h : in.wheel) = turns;
  in.ctrl = chance(m, 0.1);
  m.plan.push_back(at(p));
  m.plan.push_back(in);
}

// Key codes as io.KeysDown[] indexes them: ImGui's own keys through its key map, the window's shortcut
// keys (F11, F12, O, Q, =, -, 0) through the platform layer.
int imgui_key(ImGuiKey_ k) { return ImGui::GetKeyIndex(k); }

// Presses `code` for one frame (with Ctrl or Shift held), then releases everything.
void key(Monkey& m, int code, bool ctrl = false, bool shift = false) {
  MonkeyInput in;
  in.key = code;
  in.ctrl = ctrl;
  in.shift = shift;
  m.plan.push_back(in);
  m.plan.push_back(MonkeyInput{});
}

void type(Monkey& m) {
  static const char kChars[] = "0123456789012345678901234567890123456789.-eabcdxyz";
  const int n = 1 + pick(m, 6);
  for (int i = 0; i < n; ++i) {
    MonkeyInput in;
    in.text = std::string(1, kChars[pick(m, int(sizeof kChars) - 1)]);
    m.plan.push_back(in);
  }
}

// Ctrl+click a slider (it becomes a text field), type a number, then Enter (or Esc).
void type_into_slider(Monkey& m, const Targets& t) {
  click(m, point_in(m, t.sliders), 0, true);
  if (chance(m, 0.5)) key(m, imgui_key(ImGuiKey_A), true);  // select all, so the typed value replaces it
  type(m);
  key(m, imgui_key(chance(m, 0.85) ? ImGuiKey_Enter : ImGuiKey_Escape));
}

void press_some_key(Monkey& m) {
  static const ImGuiKey_ kKeys[] = {ImGuiKey_LeftArrow, ImGuiKey_RightArrow, ImGuiKey_UpArrow,  ImGuiKey_DownArrow,
                                    ImGuiKey_Escape,    ImGuiKey_Enter,      ImGuiKey_Tab,      ImGuiKey_Backspace,
                                    ImGuiKey_Delete,    ImGuiKey_Home,       ImGuiKey_End,      ImGuiKey_PageDown,
                                    ImGuiKey_Space,     ImGuiKey_LeftArrow,  ImGuiKey_RightArrow};
  key(m, imgui_key(kKeys[pick(m, int(std::size(kKeys)))]), false, chance(m, 0.1));
}

// F11, F12, and Ctrl with O, Q, +, -, 0 (the window's shortcuts) or A, Z, C, V, X (text editing).
void press_shortcut(Monkey& m) {
  using gfx::Key;
  static const Key kWindowKeys[] = {Key::o, Key::q, Key::equal, Key::minus, Key::zero};
  static const ImGuiKey_ kEditKeys[] = {ImGuiKey_A, ImGuiKey_Z, ImGuiKey_C, ImGuiKey_V, ImGuiKey_X};
  switch (pick(m, 5)) {
    case 0: key(m, gfx::key_code(Key::f11)); break;
    case 1: key(m, gfx::key_code(Key::f12)); break;
    case 2: key(m, imgui_key(kEditKeys[pick(m, int(std::size(kEditKeys)))]), true); break;
    default: key(m, gfx::key_code(kWindowKeys[pick(m, int(std::size(kWindowKeys)))]), true); break;
  }
}

// With a popup, menu or dialog open: mostly act inside it (items, fields, buttons, sub-menus).
void plan_in_popup(Monkey& m, const Targets& t) {
  const ImRect r = t.popup->Rect();
  const int roll = pick(m, 100);
  if (roll < 55) click(m, point_in(m, r));
  else if (roll < 70) m.plan.push_back(at(point_in(m, r)));  // hover: opens a sub-menu
  else if (roll < 78) key(m, imgui_key(ImGuiKey_Escape));
  else if (roll < 86 && (t.popup->Flags & ImGuiWindowFlags_Modal)) key(m, imgui_key(ImGuiKey_Escape));  // a modal
  else if (roll < 86) click(m, point_in(m, t.root));          // outside: closes a menu (a modal ignores it)
  else if (roll < 94) type(m);
  else key(m, imgui_key(ImGuiKey_Enter));
}

void plan_gesture(Monkey& m) {
  const Targets t = find_targets();
  if (t.root.GetWidth() <= 0.0f) {  // nothing laid out yet
    m.plan.push_back(MonkeyInput{});
    return;
  }
  if (t.popup && chance(m, 0.9)) return plan_in_popup(m, t);
  const ImRect sliders = t.sliders.GetWidth() > 0.0f ? t.sliders : t.root;
  const int roll = pick(m, 100);
  if (roll < 20) click(m, point_in(m, sliders), chance(m, 0.05) ? 1 : 0);
  else if (roll < 32) {
    const ImVec2 from = point_in(m, sliders);
    drag(m, from, ImVec2(uniform(m, sliders.Min.x, sliders.Max.x), from.y + uniform(m, -4.0f, 4.0f)));
  } else if (roll < 42) click(m, point_in(m, t.tabs));
  else if (roll < 47) click(m, point_in(m, menu_titles(t)));
  else if (roll < 58) click(m, point_in(m, any_view(m, t)), chance(m, 0.1) ? 1 : 0, false, chance(m, 0.1));
  else if (roll < 65) {
    const ImRect v = any_view(m, t);
    drag(m, point_in(m, v), point_in(m, v), chance(m, 0.2) ? 1 : 0);
  } else if (roll < 73) wheel(m, point_in(m, any_view(m, t)));
  else if (roll < 77) double_click(m, point_in(m, chance(m, 0.5) ? any_view(m, t) : sliders));
  else if (roll < 84) press_some_key(m);
  else if (roll < 87) press_shortcut(m);
  else if (roll < 92) type(m);
  else if (roll < 96) type_into_slider(m, t);
  else m.plan.push_back(at(point_in(m, t.root)));  // hover: tooltips
}

// ---- writing into ImGui's IO --------------------------------------------------------------------

void count_events(Monkey& m, const MonkeyInput& in) {
  const MonkeyInput& was = m.last;
  if (in.mouse.x >= 0.0f && (in.mouse.x != m.mouse.x || in.mouse.y != m.mouse.y)) ++m.events;
  for (std::size_t b = 0; b < in.buttons.size(); ++b) m.events += in.buttons[b] != was.buttons[b];
  m.events += (in.wheel != 0.0f) + (in.wheel_h != 0.0f) + long(in.text.size());
  m.events += in.key >= 0 && in.key != was.key;
}

void write_io(Monkey& m, const MonkeyInput& in) {
  ImGuiIO& io = ImGui::GetIO();
  count_events(m, in);
  if (in.mouse.x >= 0.0f) m.mouse = in.mouse;
  io.MousePos = m.mouse;
  for (std::size_t b = 0; b < in.buttons.size(); ++b) io.MouseDown[b] = in.buttons[b];
  io.MouseWheel = in.wheel;
  io.MouseWheelH = in.wheel_h;
  std::fill(std::begin(io.KeysDown), std::end(io.KeysDown), false);
  if (in.key >= 0 && in.key < int(std::size(io.KeysDown))) io.KeysDown[in.key] = true;
  io.KeyCtrl = in.ctrl;
  io.KeyShift = in.shift;
  io.KeyAlt = io.KeySuper = false;
  io.InputQueueCharacters.resize(0);  // real typing does not reach the run
  for (char c : in.text) io.AddInputCharacter(static_cast<unsigned char>(c));
  m.last = in;
}

// Back to the state the run started in: no popup, no lesson, not presenting, the starting parameters.
void restore_start(Monkey& m, AppState& s) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (g.OpenPopupStack.Size > 0) ImGui::ClosePopupToLevel(0, false);
  ImGui::ClearActiveID();
  if (s.teach.lesson_active) stop_lesson(s);
  set_presenting(s, false);
  apply_state_json(m.start_state, s);
  s.figure = m.start_figure;
}

// The tour's figure of `page`: the whole window for the first page, else the page's own view; PNG, SVG
// and PDF in turn, so each format's writer has run once.
void request_tour_figure(AppState& s, Page page) {
  const std::vector<FigureView> views = single_figure_views();
  const auto it = std::find(views.begin(), views.end(), FigureView{FigureView::one_page, page});
  s.figure.view_choice = it == views.end() ? 0 : int(it - views.begin()) + 1;
  s.figure.format_choice = int(page) % 3;
  s.figure.save_requested = true;
}

}  // namespace

double resident_mib() {
#ifdef __GLIBC__
  malloc_trim(0);  // free memory glibc still holds (big buffers of earlier sizes) is not a leak: give it back
#endif
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

bool start_monkey(Monkey& m, std::uint64_t seed, int frames, AppState& s) {
  m.rng.seed(seed);
  m.frames = frames;
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);  // $TMPDIR, else /tmp
  // Named by process and seed, not randomly: the folder's path shows in dialogs (Record animation, figure
  // settings), and a path of another width would move their widgets and so the aimed input.
  const std::string dir = ((ec ? fs::path("/tmp") : tmp) /
                           ("peviz-monkey-" + std::to_string(::getpid()) + "-" + std::to_string(seed))).string();
  if (::mkdir(dir.c_str(), 0700) != 0) {
    std::fprintf(stderr, "peviz: --monkey: cannot make a temp folder like %s\n", dir.c_str());
    return false;
  }
  m.sandbox = dir;
  // Presets saved from the menu and anything else under the config folder land in the sandbox.
  setenv("XDG_CONFIG_HOME", (fs::path(dir) / "config").c_str(), 1);
  s.figure.folder = (fs::path(dir) / "figures").string();
  m.start_state = state_to_json(s);
  m.start_figure = s.figure;
  return true;
}

void feed_monkey_input(Monkey& m, AppState& s, int frame) {
  if (frame == m.frames - kTourFrames && touring(m, frame)) restore_start(m, s);
  if (frame == kTourFrames && touring(m, 0)) s.figure = m.start_figure;  // the tour's figure choices go
  if (touring(m, frame)) {
    const int step = frame < kTourFrames ? frame : frame - (m.frames - kTourFrames);
    s.pages.page = Page(step / kTourFramesPerPage % kPageCount);
    // Not in the last frames of a tour: the memory is measured before that frame's figure would be saved.
    if (step % kTourFramesPerPage == 1 && step < kTourFramesPerPage * kPageCount)
      request_tour_figure(s, s.pages.page);
    write_io(m, at(ImVec2(0.0f, 0.0f)));
    return;
  }
  if (m.plan.empty()) plan_gesture(m);
  write_io(m, m.plan.front());
  m.plan.pop_front();
}

void after_monkey_draw(Monkey& m, AppState& s, int frame) {
  s.figure.folder = (fs::path(m.sandbox) / "figures").string();  // a typed folder never leaves the sandbox
  s.quit_requested = false;                                      // File > Quit, Ctrl+Q: the run goes on
  // Lab > Train: background runs would make later frames depend on the machine's speed (the trace test
  // replays input aimed at last frame's layout) and hold tens of MiB each (the memory check). The monkey
  // still presses everything else on the page (Stop, the table button, File > Export lab runs: refused).
  s.pages.lab.train_requested = false;
  if (!touring(m, frame)) m.visited[std::size_t(s.pages.page)] = true;
  if (frame == (touring(m, 0) ? kTourFrames - 1 : 0)) m.rss_start_mib = resident_mib();
  if (frame == m.frames - 1) m.rss_end_mib = resident_mib();
}

std::string check_monkey_state(const AppState& s, int frame) {
  const std::string problem = check_state(s);
  if (problem.empty()) return "";
  return "frame " + std::to_string(frame) + ", page " + page_name(s.pages.page) + ": " + problem;
}

void finish_monkey(Monkey& m) {
  int pages = 0;
  for (bool v : m.visited) pages += v;
  std::printf("monkey: %lld events, %d pages, rss %.0f -> %.0f MiB\n", m.events, pages, m.rss_start_mib, m.rss_end_mib);
  std::fflush(stdout);
}

void remove_monkey_sandbox(Monkey& m) {
  std::error_code ec;
  if (!m.sandbox.empty()) fs::remove_all(m.sandbox, ec);
  m.sandbox.clear();
}

}  // namespace peviz::app
