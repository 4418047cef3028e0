// The interactive window's frame loop, in the order of Dear ImGui's example: open, loop {events,
// fonts, update, draw, capture, report}, close in reverse. Each step is one named function below.
#include "app/ui/gui_main.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>

#include <imgui.h>

#include "app/gfx/heatmap_renderer.hpp"
#include "app/gfx/platform.hpp"
#include "app/ui/heatmap_pictures.hpp"
#include "app/gfx/screenshot.hpp"
#include "app/gfx/shader.hpp"
#include "app/gfx/window.hpp"
#include "app/model/app_update.hpp"
#include "app/model/page_model.hpp"
#include "app/model/figure.hpp"
#include "app/model/figure_io.hpp"
#include "app/model/frame_report.hpp"
#include "app/model/presentation.hpp"
#include "app/model/session.hpp"
#include "app/model/view_link.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/app_layout.hpp"
#include "app/ui/frame_outputs.hpp"
#include "app/ui/gui_flags.hpp"
#include "app/ui/recording.hpp"
#include "app/ui/monkey.hpp"
#include "app/ui/shortcuts.hpp"
#include "app/ui/theme.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

namespace {

// What the loop carries from frame to frame besides the AppState.
struct FrameLoop {
  int frame = 0;
  int settle = 3;              // frames still to draw after the last event before idling
  bool full_screen = false;
  gfx::WindowBox windowed;     // the window's box before full screen
  bool recomputed = false;     // this frame's update step recomputed something
  int exit_code = 0;
  FrameStats stats;
  EncodingParams sweep_centre; // --report sweeps around the starting parameters
  AnimationRecorder recorder;  // View > Record animation, between frames
  std::unique_ptr<Monkey> monkey;  // --monkey: the random input and its checks
  std::string address_seen;    // the browser: the address's fragment as the app last read or wrote it
  std::string link_written;    // the browser: the view's link as the address last showed it
  bool idle = false;           // this frame ends in a wait for input (nothing moves on its own)
  std::string held_experiment; // the browser: a shipped lab experiment asked for before its runs arrived
  bool lab_waiting = false;    // the browser: the Lab waits for the shipped runs
  ParkedPointer parked_pointer;  // no hover read-out of a slide that changed under a still pointer
  bool last(const GuiOptions& o) const { return o.frames > 0 && frame + 1 >= o.frames; }
};

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// CPU time of the whole process (every thread, so the software rasteriser's too), in ms.
double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

// Events: poll while anything moves, else sleep until an event; follow presentation mode's full screen.
void process_events(GLFWwindow* window, const GuiOptions& o, AppState& s, FrameLoop& loop) {
  // A page busy on its own gets every frame (an animation) or one per PageModel::busy_frame_s (the Lab's
  // training: its progress moves, and the cores stay with the background work between frames).
  const double page_period = page_model(s.pages.page).busy_frame_s;
  const bool page_busy = shown_page_busy(s);
  // A control asked the shown page to update in the last frame (Train): the update runs in this frame, and a wait
  // decided before it would hold back what it starts (the browser would skip its frames until the next input).
  const bool page_asked = s.pages.dirty[std::size_t(s.pages.page)];
  const bool busy = o.frames > 0 || loop.settle > 0 || ImGui::IsAnyItemActive() || s.pages.basics.dirty.any() || s.fonts_dirty ||
                    page_asked || (page_busy && page_period <= 0.0);
  if (!busy && page_busy) gfx::wait_events_timeout(page_period);
  else gfx::poll_events(!busy);
  loop.idle = !busy && !page_busy;
  loop.settle = busy ? std::max(loop.settle - 1, 0) : 2;
  gfx::follow_page_size(window);
  if (const std::string dropped = gfx::take_dropped_path(window); !dropped.empty()) s.open_request = dropped;
  if (s.teach.presenting != loop.full_screen) {
    loop.full_screen = s.teach.presenting;
    gfx::set_full_screen(window, loop.full_screen, loop.windowed);
    loop.settle = 3;
  }
}

// Fonts: rebuild the atlas when the zoom or the monitor's scale changed. False: no usable font (printed).
bool refresh_fonts(GLFWwindow* window, AppState& s, FrameLoop& loop) {
  if (const float scale = gfx::content_scale(window); scale != s.content_scale) {
    s.content_scale = scale;
    s.fonts_dirty = true;
  }
  if (!s.fonts_dirty) return true;
  const float scale = s.content_scale * s.ui_zoom;
  if (const std::string problem = load_fonts(scale); !problem.empty()) {  // never unreadable or substitute text
    std::fprintf(stderr, "peviz: %s\n", problem.c_str());
    loop.exit_code = 1;
    return false;
  }
  gfx::upload_fonts();
  apply_theme(s.theme, scale);
  s.fonts_dirty = false;
  loop.settle = 3;
  return true;
}

// A link's problems (keys not understood or refused) stay in the status line, and go to the browser's console.
void note_link_problems(AppState& s, const std::string& problems) {
  if (problems.empty()) return;
  std::fprintf(stderr, "peviz: %s\n", problems.c_str());
  s.teach.notice = problems;
  s.teach.notice_is_error = true;
}

// Opens a link (the address's fragment). A refused link stays in the address, so the user can correct it, until
// the view changes.
void open_link(AppState& s, FrameLoop& loop, std::string typed) {
  const std::string problems = apply_view_link(typed, s);
  note_link_problems(s, problems);
  loop.link_written = problems.empty() ? typed : view_link(s);
  loop.address_seen = std::move(typed);
}

// The browser's address: a link the user types or pastes opens; the view the user makes goes back into the
// address every 15 frames and before the app waits for input (replacing the history entry, not adding one).
// Nothing on the desktop.
void follow_address(AppState& s, FrameLoop& loop) {
  if (!gfx::in_browser()) return;
  if (std::string typed = gfx::location_fragment(); typed != loop.address_seen) {
    open_link(s, loop, std::move(typed));
    return;
  }
  if ((loop.frame % 15 != 0 && !loop.idle) || ImGui::IsAnyItemActive()) return;
  if (std::string link = view_link(s); link != loop.link_written) {
    gfx::replace_location_fragment(link);
    loop.address_seen = link;
    loop.link_written = std::move(link);
  }
}

// The browser fetches the shipped lab runs when the Lab first needs them (the page comes with the one table
// that the lesson and Learned tables open); until they arrive nothing opens them (a shipped experiment asked
// for waits). The desktop has them installed.
void fetch_lab_runs_when_needed(AppState& s, FrameLoop& loop) {
  static const std::string fetching = "fetching the shipped lab runs...";
  LabOptions& lab = s.pages.lab;
  const gfx::DataState data = gfx::shipped_lab_runs(s.pages.page == Page::lab || !lab.experiment.empty());
  if (data == gfx::DataState::ready && !loop.lab_waiting) return;
  if (data == gfx::DataState::ready || data == gfx::DataState::failed) {  // open what waited, or say why not
    loop.lab_waiting = false;
    lab.shipped_shown = false;
    if (data == gfx::DataState::ready) lab.experiment = std::exchange(loop.held_experiment, "");
    if (data == gfx::DataState::failed) {
      s.teach.notice = "could not fetch the shipped lab runs (lab/ beside the page)";
      s.teach.notice_is_error = true;
    } else if (s.teach.notice == fetching) {
      s.teach.notice.clear();
    }
    s.pages.mark(Page::lab);
    return;
  }
  if (!lab.experiment.empty()) loop.held_experiment = std::exchange(lab.experiment, "");
  lab.shipped_shown = true;  // not yet: the first visit opens them once they are here
  loop.lab_waiting = true;
  if (data == gfx::DataState::fetching && s.teach.notice.empty()) s.teach.notice = fetching;
}

// The Lab's training progress, as the page last refreshed it, for the platform (the browser's page reads it).
void report_lab_progress(const AppState& s) {
  const LabOptions& lab = s.pages.lab;
  if (!lab.runs) return;
  long steps = 0, planned = 0;
  int ended = 0;
  for (std::size_t i = 0; i < lab.runs->size(); ++i) {
    planned += lab.runs->settings(i).steps;
    if (i >= lab.views.size()) continue;
    steps += lab.views[i].snapshot.step;
    ended += lab.views[i].state == train::RunState::done || lab.views[i].state == train::RunState::failed;
  }
  gfx::report_training(steps, planned, ended, int(lab.runs->size()));
}

// Update: files asked for, then every dirty result recomputed through core (and, under --monkey, checked).
void update(const GuiOptions& o, AppState& s, FrameLoop& loop) {
  follow_address(s, loop);
  fetch_lab_runs_when_needed(s, loop);
  if (o.report) apply_sweep_step(s, loop.sweep_centre, loop.frame);
  handle_file_requests(s, ImGui::GetTime(), (long long)std::time(nullptr));
  loop.recomputed = update_app_state(s);
  if (loop.recomputed) loop.stats.recompute_ms.push_back(s.last_recompute_ms);
  report_lab_progress(s);
  if (!loop.monkey) return;
  if (const std::string problem = check_monkey_state(s, loop.frame); !problem.empty()) {  // ends the run
    std::fprintf(stderr, "peviz: --monkey: %s\n", problem.c_str());
    loop.exit_code = 1;
  }
}

// Draw: the ImGui frame, the heatmap textures, then the GL draw into the window.
void draw(GLFWwindow* window, const GuiOptions& o, AppState& s, gfx::HeatmapRenderer& renderer, FrameLoop& loop) {
  const auto ui_start = std::chrono::steady_clock::now();
  gfx::begin_platform_frame(window);
  if (loop.monkey) feed_monkey_input(*loop.monkey, s, loop.frame);
  park_pointer_on_new_slide(s, loop.parked_pointer);
  if (o.hide_pointer) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // ImGui's "no mouse"
  ImGui::NewFrame();
  handle_shortcuts(s);
  draw_app(s);
  ImGui::Render();
  if (loop.monkey) after_monkey_draw(*loop.monkey, s, loop.frame);
  loop.stats.ui_ms.push_back(ms_since(ui_start));
  // Coarse heatmaps while a drag (or the sweep) changes the data every frame; never in the frame a
  // screenshot is taken from.
  const bool coarse = loop.recomputed && (ImGui::IsAnyItemActive() || (o.report && !loop.last(o)));
  gfx::render_heatmaps(renderer, plot::heatmap_placements(), coarse);
  if (gfx::heatmaps_need_refining(renderer)) loop.settle = std::max(loop.settle, 1);
  loop.stats.heatmap_ms.push_back(renderer.last_upload_ms);
  ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  bg.w = 1.0f;
  const gfx::PixelSize fb = gfx::framebuffer_size(window);
  gfx::draw_imgui(fb.width, fb.height, bg);
}

// Capture: --screenshot and --regions after the last frame, F12 figures whenever asked.
void capture(GLFWwindow* window, const GuiOptions& o, AppState& s, gfx::HeatmapRenderer& renderer, FrameLoop& loop) {
  const gfx::PixelSize fb = gfx::framebuffer_size(window);
  const bool last = loop.last(o);
  if (last && !o.screenshot.empty()) {
    try {
      write_png_file(o.screenshot, gfx::capture_framebuffer(fb.width, fb.height), figure_metadata(s, FigureView{}),
                     "screenshot");
    } catch (const ParamError& e) {
      std::fprintf(stderr, "peviz: --screenshot: %s\n", e.rule.c_str());
      loop.exit_code = 1;
    }
  }
  if (last && !o.regions.empty()) write_regions(o.regions, s, fb.width, fb.height, ImGui::GetIO().DisplayFramebufferScale.x);
  if (last && !o.save_figure.empty()) s.figure.save_requested = true;
  if (!std::exchange(s.figure.save_requested, false)) return;
  save_requested_figure(s, renderer, gfx::window_size(window));
  if (last && s.toast.is_error) {
    std::fprintf(stderr, "peviz: --save-figure: %s\n", s.toast.text.c_str());
    loop.exit_code = 1;
  }
}

// Record: the next frame of View > Record animation (one per window frame, so its progress shows).
void record(GLFWwindow* window, AppState& s, gfx::HeatmapRenderer& renderer, FrameLoop& loop) {
  step_recording(s, renderer, loop.recorder, {gfx::window_size(window), s.content_scale * s.ui_zoom, ImGui::GetTime()});
  if (s.recording.active) loop.settle = std::max(loop.settle, 1);  // keep frames coming until it ends
}

// Report (--report): frame-time statistics of the sweep, printed at exit.
void print_report(GLFWwindow* window, const FrameLoop& loop) {
  const gfx::PixelSize fb = gfx::framebuffer_size(window);
  const EncodingParams& c = loop.sweep_centre;
  char setup[256];
  std::snprintf(setup, sizeof setup,
                "%dx%d, %s, d_model %d, L %d, base %g (sweep: d and L step down by up to 1/8, base over +-1 decade)",
                fb.width, fb.height, std::string(to_string(c.encoding)).c_str(), c.d_model, c.seq_len, c.base);
  const int warm_up = std::min<int>(2, int(loop.stats.frame_ms.size()) / 2);
  std::fputs(format_report(loop.stats, setup, warm_up).c_str(), stdout);
}

// On a user's exit (not a scripted run): the session keeps the user's theme, zoom and window, not
// the lecture hall's.
void save_session_on_exit(GLFWwindow* window, AppState& s, const FrameLoop& loop) {
  gfx::PixelSize size = gfx::window_size(window);
  if (s.teach.presenting) {
    set_presenting(s, false);
    size = {loop.windowed.width, loop.windowed.height};
  }
  std::string problem;
  if (!save_session(session_path(), s, {size.width, size.height}, problem)) std::fprintf(stderr, "peviz: %s\n", problem.c_str());
}

// The session (unless --reset), then the flags over it. False: a flag was refused (printed).
bool load_start_state(const GuiOptions& o, AppState& s, WindowSize& size) {
  std::string note;
  if (!o.reset && !load_session(session_path(), s, size, note)) {
    s.teach.notice = note;  // stays in the status line (update_app_state rewrites s.status)
    s.teach.notice_is_error = true;
  }
  return apply_gui_flags(o, s, size);
}

// The GL side of the heatmaps: the shader, and every heatmap of the state attached once.
bool start_renderer(AppState& s, gfx::HeatmapRenderer& renderer) {
  try {
    renderer = gfx::create_heatmap_renderer();
  } catch (const gfx::ShaderError& e) {
    std::fprintf(stderr, "peviz: %s\n", e.what());
    return false;
  }
  attach_heatmaps(s, renderer);
  return true;
}

// Everything one run of the window holds; shared by the frame loop's two callbacks (the browser's outlive run_gui).
struct GuiRun {
  GuiOptions o;
  std::unique_ptr<AppState> state = std::make_unique<AppState>();  // fixed address: the GL layer keeps pointers into it
  GLFWwindow* window = nullptr;
  FrameLoop loop;
  gfx::HeatmapRenderer renderer;
};

// One frame of the loop; false once the loop is over (an error, the window closed, the last --frames frame).
bool gui_frame(GuiRun& r) {
  AppState& s = *r.state;
  FrameLoop& loop = r.loop;
  if (loop.exit_code != 0 || gfx::should_close(r.window)) return false;
  const auto frame_start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_ms();
  process_events(r.window, r.o, s, loop);
  if (!refresh_fonts(r.window, s, loop)) return false;
  update(r.o, s, loop);
  draw(r.window, r.o, s, r.renderer, loop);
  capture(r.window, r.o, s, r.renderer, loop);
  record(r.window, s, r.renderer, loop);
  for (const std::string& path : std::exchange(s.written_files, {})) gfx::deliver_file(path);
  gfx::swap_buffers(r.window);
  if (s.quit_requested) gfx::request_close(r.window, true);
  s.last_frame_ms = ms_since(frame_start);
  loop.stats.frame_ms.push_back(s.last_frame_ms);
  loop.stats.cpu_ms.push_back(process_cpu_ms() - cpu_start);
  if (loop.last(r.o)) return false;
  ++loop.frame;
  return true;
}

// After the last frame: the report, the monkey's summary, the session; then GL and the window. The exit code.
int finish_gui(GuiRun& r) {
  AppState& s = *r.state;
  FrameLoop& loop = r.loop;
  if (r.o.report) print_report(r.window, loop);
  if (loop.monkey) {
    if (loop.exit_code == 0) finish_monkey(*loop.monkey);
    remove_monkey_sandbox(*loop.monkey);
  }
  if (r.o.frames == 0 && loop.exit_code == 0) save_session_on_exit(r.window, s, loop);  // scripted runs never do
  release_heatmaps(r.renderer);
  plot::destroy_context();
  close_window(r.window);
  return loop.exit_code;
}

}  // namespace

int run_gui(const GuiOptions& o) {
  auto run = std::make_shared<GuiRun>();
  run->o = o;
  AppState& s = *run->state;
  WindowSize size;
  if (!load_start_state(o, s, size)) return 2;
  open_link(s, run->loop, gfx::location_fragment());  // the browser: the link the page was opened with
  run->window = open_window(size.width, size.height, true, "window");
  if (!run->window) return 1;
  plot::create_context();
  gfx::set_vsync(o.frames == 0);

  FrameLoop& loop = run->loop;
  loop.sweep_centre = s.params;
  loop.windowed = {0, 0, size.width, size.height};
  if (!start_renderer(s, run->renderer)) loop.exit_code = 1;
  if (o.monkey) {  // --frames is there (checked with the flags)
    loop.monkey = std::make_unique<Monkey>();
    std::error_code ec;  // File > Open's browser stays in the working directory: no random open of /proc or /dev
    s.figure.open_browser.confined_to = std::filesystem::current_path(ec);
    if (!start_monkey(*loop.monkey, *o.monkey, o.frames, s)) loop.exit_code = 1;
  }
  return gfx::run_frame_loop([run] { return gui_frame(*run); }, [run] { return finish_gui(*run); });
}

}  // namespace peviz::app
