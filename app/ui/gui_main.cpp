// The interactive window: GLFW + OpenGL 3.3 core + Dear ImGui frame loop (init, loop {events,
// update, UI, GL, swap}, shutdown in reverse), plus --frames/--report/--screenshot.
#include "app/ui/gui_main.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>

#include "app/gfx/gl.hpp"  // glad before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <nlohmann/json.hpp>

#include "app/ui/app_layout.hpp"
#include "app/model/analysis_update.hpp"
#include "app/model/app_update.hpp"
#include "app/model/figure.hpp"
#include "app/ui/figure_capture.hpp"
#include "app/ui/recording.hpp"
#include "app/model/figure_io.hpp"
#include "app/model/frame_report.hpp"
#include "app/gfx/heatmap_renderer.hpp"
#include "app/gfx/screenshot.hpp"
#include "app/gfx/shader.hpp"
#include "app/model/lessons.hpp"
#include "app/model/presentation.hpp"
#include "app/model/presets.hpp"
#include "app/model/session.hpp"
#include "app/ui/theme.hpp"
#include "app/gfx/window.hpp"
#include "core/errors.hpp"

namespace peviz::app {

void add_gui_flags(CLI::App& app, GuiOptions& o) {
  app.add_option("--frames", o.frames, "Run this many frames, then exit (0 = until closed)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--report", o.report, "Sweep d_model/base/L every frame; print frame-time median and p95 at exit");
  app.add_option("--screenshot", o.screenshot, "Save a PNG of the last frame to this path");
  app.add_option("--regions", o.regions, "Write the screen rectangles of the views' key parts (JSON) here");
  app.add_flag("--reset", o.reset, "Start with default settings, ignoring the saved session");
  app.add_option("--size", o.size, "Window size WxH (e.g. 1600x900)");
  app.add_option("--encoding", o.encoding, "Initial encoding: sinusoidal, learned, binary, normalized, integer");
  app.add_option("--d-model", o.d_model, "Initial d_model (1..4096)")->check(CLI::Range(1, kGuiMaxDModel));
  app.add_option("--seq-len", o.seq_len, "Initial sequence length (1..8192)")->check(CLI::Range(1, kGuiMaxSeqLen));
  app.add_option("--base", o.base, "Initial sinusoid base (1.0001..1e7)")->check(CLI::Range(kGuiMinBase, kGuiMaxBase));
  app.add_option("--theme", o.theme, "dark or light");
  app.add_option("--view", o.view, "Initial page: basics, rope-clocks, rope-decay, context-extension, alibi, t5-shaw, "
                                   "distance, linear-shift, criteria, learned, precision");
  app.add_option("--open", o.open, "Open a figure saved by peviz (PNG, SVG or PDF; restores its parameters), or a .npy / "
                                   ".safetensors file as the learned table");
  app.add_option("--figure-dir", o.figure_dir, "Folder F12 saves figures into (default ~/Pictures/peviz)");
  app.add_option("--save-figure", o.save_figure, "After the last --frames frame, save this view as F12 does "
                                                 "(window, waves, encoding, ... or a page name)");
  app.add_option("--preset", o.preset, "Apply a preset by name or file stem (assets/presets/, your presets folder)");
  app.add_option("--lesson", o.lesson, "Start a lesson tour: a lesson file, or a name in assets/lessons/");
  app.add_option("--lesson-step", o.lesson_step, "Start the lesson at this step (1-based)")->check(CLI::PositiveNumber);
  app.add_flag("--present", o.present, "Start in presentation mode (full screen, light theme, large text)");
}

namespace {

// F12: save a figure. F11: presentation mode on/off (Esc leaves it too, in draw_app). Ctrl + / Ctrl - /
// Ctrl 0: user zoom; Ctrl O: open; Ctrl Q: quit (saving the session). ImGui's backend chains to this callback.
void key_callback(GLFWwindow* window, int key, int, int action, int mods) {
  auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(window));
  if (!s || action == GLFW_RELEASE) return;
  if (key == GLFW_KEY_F12 && action == GLFW_PRESS) {
    s->figure.save_requested = true;
    return;
  }
  if (key == GLFW_KEY_F11 && action == GLFW_PRESS) {
    set_presenting(*s, !s->teach.presenting);
    return;
  }
  if (!(mods & GLFW_MOD_CONTROL)) return;
  if (key == GLFW_KEY_O) {
    s->figure.open_dialog_requested = true;
    return;
  }
  if (key == GLFW_KEY_Q) {
    glfwSetWindowShouldClose(window, GLFW_TRUE);
    return;
  }
  float zoom = s->ui_zoom;
  if (key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD) zoom *= 1.1f;
  else if (key == GLFW_KEY_MINUS || key == GLFW_KEY_KP_SUBTRACT) zoom /= 1.1f;
  else if (key == GLFW_KEY_0 || key == GLFW_KEY_KP_0) zoom = 1.0f;
  else return;
  s->ui_zoom = std::clamp(zoom, 0.5f, 3.0f);
  s->fonts_dirty = true;
}

// A file dropped onto the window: a figure PNG restores its parameters, a .npy / .safetensors
// becomes the learned table (handle_file_requests, next frame).
void drop_callback(GLFWwindow* window, int count, const char** paths) {
  auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(window));
  if (s && count > 0) s->open_request = paths[0];
}

// Saves the figure the File menu's settings describe into the figure folder; the toast says where.
void save_figure(AppState& s, gfx::HeatmapRenderer& renderer, GLFWwindow* window) {
  const FigureSettings& f = s.figure;
  FigureOptions o;
  const auto views = single_figure_views();
  if (f.view_choice >= 1 && f.view_choice <= int(views.size())) o.view = views[std::size_t(f.view_choice - 1)];
  glfwGetWindowSize(window, &o.width, &o.height);
  o.scale = f.scale;
  o.transparent = f.transparent;
  o.caption = f.caption;
  if (f.theme_choice == 1) o.theme = Theme::dark;
  if (f.theme_choice == 2) o.theme = Theme::light;
  const double now = ImGui::GetTime();
  try {
    // Fit a big window into the 8K limit at this scale rather than refuse it.
    o.width = std::min(o.width, kMaxFigureWidth / o.scale);
    o.height = std::min(o.height, kMaxFigureHeight / o.scale);
    // The whole window is PNG only: vector figures leave the widgets out.
    const FigureFormat format = o.view.kind == FigureView::window ? FigureFormat::png : FigureFormat(std::clamp(f.format_choice, 0, 2));
    const std::filesystem::path folder = figure_folder(s);
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    const std::string path = (folder / figure_file_name(s, o.view, (long long)std::time(nullptr)))
                                 .replace_extension(kFigureFormatNames[int(format)]).string();
    save_figure(s, renderer, o, s.content_scale * s.ui_zoom, format, path);
    show_toast(s, "Figure saved: " + path + " (" + std::to_string(o.width * o.scale) + " x " + std::to_string(o.height * o.scale) + ")",
               false, now);
  } catch (const ParamError& e) {
    show_toast(s, "Figure not saved: " + e.rule, true, now);
  }
}

// Applies --encoding/--d-model/... over the session. Returns false (message printed) on a bad name.
bool apply_flag_overrides(const GuiOptions& o, AppState& s, WindowSize& size) {
  if (!o.encoding.empty()) {
    const auto e = parse_encoding(o.encoding);
    if (!e) {
      std::fprintf(stderr, "peviz: --encoding: must be sinusoidal, learned, binary, normalized or integer, got %s\n",
                   o.encoding.c_str());
      return false;
    }
    s.params.encoding = *e;
  }
  if (o.d_model != 0) s.params.d_model = o.d_model;
  if (o.seq_len != 0) s.params.seq_len = o.seq_len;
  if (o.base != 0.0) s.params.base = o.base;
  if (!o.view.empty()) {
    const auto page = parse_page(o.view);
    if (!page) {
      std::fprintf(stderr, "peviz: --view: must be one of %s, got %s\n", page_names().c_str(), o.view.c_str());
      return false;
    }
    s.analysis.page = *page;
  }
  if (!o.open.empty()) s.open_request = o.open;
  if (!o.figure_dir.empty()) s.figure.folder = o.figure_dir;
  if (!o.save_figure.empty()) {
    const auto v = parse_figure_view(o.save_figure);
    if (!v) {
      std::fprintf(stderr, "peviz: --save-figure: must be one of %s, got %s\n", figure_view_names().c_str(), o.save_figure.c_str());
      return false;
    }
    s.figure.view_choice = 0;
    const auto views = single_figure_views();
    for (std::size_t i = 0; i < views.size(); ++i)
      if (views[i] == *v) s.figure.view_choice = int(i) + 1;
  }
  if (!o.theme.empty()) {
    if (o.theme != "dark" && o.theme != "light") {
      std::fprintf(stderr, "peviz: --theme: must be dark or light, got %s\n", o.theme.c_str());
      return false;
    }
    s.theme = o.theme == "light" ? Theme::light : Theme::dark;
  }
  if (!o.size.empty()) {
    int w = 0, h = 0;
    if (std::sscanf(o.size.c_str(), "%dx%d", &w, &h) != 2 || w < 320 || h < 240 || w > 16384 || h > 16384) {
      std::fprintf(stderr, "peviz: --size: must be WxH with W >= 320 and H >= 240, got %s\n", o.size.c_str());
      return false;
    }
    size = {w, h};
  }
  return true;
}

// --preset, --lesson [--lesson-step], --present, in that order (after the other flags). Returns false
// (message printed) for an unknown or refused preset or lesson.
bool apply_teach_flags(const GuiOptions& o, AppState& s) {
  if (!o.preset.empty()) {
    const std::vector<PresetEntry> presets = list_presets();
    const PresetEntry* p = find_preset(presets, o.preset);
    if (!p) {
      std::string names;
      for (const PresetEntry& e : presets)
        if (e.error.empty()) names += (names.empty() ? "" : ", ") + std::filesystem::path(e.path).stem().string();
      std::fprintf(stderr, "peviz: --preset: no usable preset named %s (have: %s)\n", o.preset.c_str(), names.c_str());
      return false;
    }
    if (!apply_preset(*p, s)) {
      std::fprintf(stderr, "peviz: --preset: %s\n", s.teach.notice.c_str());
      return false;
    }
  }
  if (!o.lesson.empty()) {
    const std::filesystem::path path = resolve_lesson(o.lesson);
    if (path.empty()) {
      std::fprintf(stderr, "peviz: --lesson: no lesson file or name %s\n", o.lesson.c_str());
      return false;
    }
    try {
      start_lesson(s, load_lesson_file(path), o.lesson_step - 1);
    } catch (const ParamError& e) {
      std::fprintf(stderr, "peviz: --lesson: %s\n", e.rule.c_str());
      return false;
    }
  }
  if (o.present) set_presenting(s, true);
  return true;
}

void write_regions(const std::string& path, const AppState& s, int width, int height, float scale) {
  auto rect = [scale](const ScreenRect& r) {
    return nlohmann::json::array({r.x0 * scale, r.y0 * scale, r.x1 * scale, r.y1 * scale});
  };
  const ScreenRegions& g = s.regions;
  const nlohmann::json j = {{"width", width},
                            {"height", height},
                            {"controls", rect(g.controls)},
                            {"waves_plot", rect(g.waves_plot)},
                            {"encoding_heatmap", rect(g.encoding_heatmap)},
                            {"encoding_colorbar", rect(g.encoding_colorbar)},
                            {"similarity_heatmap", rect(g.similarity_heatmap)},
                            {"similarity_colorbar", rect(g.similarity_colorbar)},
                            {"binary_table", rect(g.binary_table)},
                            {"page", {s.analysis.plot_region[0] * scale, s.analysis.plot_region[1] * scale,
                                      s.analysis.plot_region[2] * scale, s.analysis.plot_region[3] * scale}}};
  std::ofstream(path) << j.dump(2) << "\n";
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// CPU time of the whole process (every thread, so the software rasteriser's too), in ms.
double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

}  // namespace

int run_gui(const GuiOptions& o) {
  auto state = std::make_unique<AppState>();  // fixed address: the GL layer keeps pointers into it
  AppState& s = *state;
  WindowSize size;
  std::string session_note;
  if (!o.reset && !load_session(session_path(), s, size, session_note)) {
    s.teach.notice = session_note;  // stays in the status line (update_app_state rewrites s.status)
    s.teach.notice_is_error = true;
  }
  if (!apply_flag_overrides(o, s, size) || !apply_teach_flags(o, s)) return 2;
  const EncodingParams sweep_centre = s.params;

  GLFWwindow* window = open_window(size.width, size.height, true, "window");
  if (!window) return 1;
  glfwSwapInterval(o.frames > 0 ? 0 : 1);
  glfwSetWindowUserPointer(window, &s);
  glfwSetKeyCallback(window, key_callback);
  glfwSetDropCallback(window, drop_callback);

  int exit_code = 0;
  gfx::HeatmapRenderer renderer;
  try {
    renderer = gfx::create_heatmap_renderer();
  } catch (const gfx::ShaderError& e) {
    std::fprintf(stderr, "peviz: %s\n", e.what());
    exit_code = 1;
  }

  FrameStats stats;
  AnimationRecorder recorder;  // View > Record animation, between frames
  bool full_screen = false;
  int windowed[4] = {0, 0, size.width, size.height};  // x, y, width, height before full screen
  if (exit_code == 0) {
    gfx::attach(renderer, s.encoding_image);
    gfx::attach(renderer, s.similarity_image);
    for (plot::HeatmapImage* img : analysis_images(s.analysis)) gfx::attach(renderer, *img);
    int frame = 0;
    int settle = 3;  // frames still to draw after the last event before idling
    while (!glfwWindowShouldClose(window)) {
      const bool busy = o.frames > 0 || settle > 0 || ImGui::IsAnyItemActive() || s.dirty.any() || s.fonts_dirty ||
                        analysis_busy(s.analysis);
      if (busy) {
        glfwPollEvents();
      } else {
        glfwWaitEvents();  // idle: nothing changes until an event arrives
        settle = 3;
      }
      settle = std::max(settle - 1, 0);
      if (s.teach.presenting != full_screen) {  // presentation mode: the primary monitor, and back
        full_screen = s.teach.presenting;
        GLFWmonitor* monitor = glfwGetPrimaryMonitor();
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (full_screen && mode) {
          glfwGetWindowPos(window, &windowed[0], &windowed[1]);
          glfwGetWindowSize(window, &windowed[2], &windowed[3]);
          glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
        } else if (!full_screen) {
          glfwSetWindowMonitor(window, nullptr, windowed[0], windowed[1], windowed[2], windowed[3], GLFW_DONT_CARE);
        }
        settle = 3;
      }
      const auto frame_start = std::chrono::steady_clock::now();
      const double cpu_start = process_cpu_ms();
      if (o.report) apply_sweep_step(s, sweep_centre, frame);

      float xscale = 1.0f, yscale = 1.0f;
      glfwGetWindowContentScale(window, &xscale, &yscale);
      if (xscale != s.content_scale) {
        s.content_scale = xscale;
        s.fonts_dirty = true;
      }
      if (s.fonts_dirty) {
        const float scale = s.content_scale * s.ui_zoom;
        const std::string problem = load_fonts(scale);
        if (!problem.empty()) {  // never a window of unreadable or substitute text
          std::fprintf(stderr, "peviz: %s\n", problem.c_str());
          exit_code = 1;
          break;
        }
        gfx::upload_fonts();
        apply_theme(s.theme, scale);
        s.fonts_dirty = false;
        settle = 3;
      }

      handle_file_requests(s, ImGui::GetTime(), (long long)std::time(nullptr));
      const bool recomputed = update_app_state(s);
      if (recomputed) stats.recompute_ms.push_back(s.last_recompute_ms);

      const auto ui_start = std::chrono::steady_clock::now();
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      draw_app(s);
      ImGui::Render();
      stats.ui_ms.push_back(ms_since(ui_start));

      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window, &fb_w, &fb_h);
      const bool last = o.frames > 0 && frame + 1 >= o.frames;
      // Coarse heatmaps while a drag (or the sweep) changes the data every frame; never in the
      // frame a screenshot is taken from.
      gfx::render_heatmaps(renderer, recomputed && (ImGui::IsAnyItemActive() || (o.report && !last)));
      if (gfx::heatmaps_need_refining(renderer)) settle = std::max(settle, 1);
      stats.heatmap_ms.push_back(renderer.last_upload_ms);
      const auto draw_start = std::chrono::steady_clock::now();
      ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
      bg.w = 1.0f;
      gfx::draw_imgui(fb_w, fb_h, bg);

      if (last && !o.screenshot.empty()) {
        try {
          write_png_file(o.screenshot, gfx::capture_framebuffer(fb_w, fb_h), figure_metadata(s, FigureView{}), "screenshot");
        } catch (const ParamError& e) {
          std::fprintf(stderr, "peviz: --screenshot: %s\n", e.rule.c_str());
          exit_code = 1;
        }
      }
      if (last && !o.regions.empty())
        write_regions(o.regions, s, fb_w, fb_h, ImGui::GetIO().DisplayFramebufferScale.x);
      glfwSwapBuffers(window);
      stats.draw_ms.push_back(ms_since(draw_start));
      if (last && !o.save_figure.empty()) s.figure.save_requested = true;
      if (std::exchange(s.figure.save_requested, false)) {
        save_figure(s, renderer, window);
        if (last && s.toast.is_error) {
          std::fprintf(stderr, "peviz: --save-figure: %s\n", s.toast.text.c_str());
          exit_code = 1;
        }
      }
      step_recording(s, renderer, recorder, s.content_scale * s.ui_zoom, ImGui::GetTime());
      if (s.recording.active) settle = std::max(settle, 1);  // keep frames coming while recording
      if (s.quit_requested) glfwSetWindowShouldClose(window, GLFW_TRUE);
      s.last_frame_ms = ms_since(frame_start);
      stats.frame_ms.push_back(s.last_frame_ms);
      stats.cpu_ms.push_back(process_cpu_ms() - cpu_start);
      if (last) break;
      ++frame;
    }
  }

  if (o.report) {
    char setup[256];
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    std::snprintf(setup, sizeof setup, "%dx%d, %s, d_model %d, L %d, base %g (sweep: d and L step down by up to 1/8, base over +-1 decade)",
                  fb_w, fb_h, std::string(to_string(sweep_centre.encoding)).c_str(), sweep_centre.d_model,
                  sweep_centre.seq_len, sweep_centre.base);
    std::fputs(format_report(stats, setup, std::min<int>(2, int(stats.frame_ms.size()) / 2)).c_str(), stdout);
  }
  if (o.frames == 0 && exit_code == 0) {  // scripted runs never touch the user's session
    int w = size.width, h = size.height;
    glfwGetWindowSize(window, &w, &h);
    if (s.teach.presenting) {  // the session keeps the user's theme, zoom and window, not the lecture hall's
      set_presenting(s, false);
      w = windowed[2];
      h = windowed[3];
    }
    std::string problem;
    if (!save_session(session_path(), s, {w, h}, problem)) std::fprintf(stderr, "peviz: %s\n", problem.c_str());
  }

  if (renderer.program) gfx::destroy(renderer);
  close_window(window);
  return exit_code;
}

}  // namespace peviz::app
