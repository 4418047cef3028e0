// GLFW + glad + Dear ImGui set-up and tear-down, shared by the window and `peviz render`, and the window's
// per-frame platform calls (events, sizes, full screen, swap, drops). The browser build runs the same code on
// emscripten's GLFW and WebGL 2: its few differences are marked __EMSCRIPTEN__ here and in app/gfx/gl.hpp.
#include "app/gfx/window.hpp"

#include "app/gfx/platform.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>
#include <vector>

#include "app/gfx/gl.hpp"  // glad before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/html5.h>
#endif

namespace peviz::app {

namespace {
void glfw_error(int code, const char* text) { std::fprintf(stderr, "peviz: GLFW error %d: %s\n", code, text); }

constexpr int kKeys = IM_ARRAYSIZE(ImGuiIO::KeysDown);

// What the window's callbacks collect between two frames. It lives on the GLFW window (its user pointer, which
// ImGui 1.86's GLFW backend leaves alone) from open_window to close_window.
struct WindowInputs {
  std::string dropped_path;                  // the last file dropped onto the window, until take_dropped_path()
  GLFWkeyfun imgui_key_callback = nullptr;   // ImGui's own, which key_callback calls first
  GLFWscrollfun imgui_scroll_callback = nullptr;  // ImGui's own, which scroll_callback calls
  std::array<bool, kKeys> key_down{};        // each key as its last event left it
  std::vector<int> keys_pressed;             // pressed since the last frame began
  std::vector<int> keys_shown_down;          // released already, shown as down for one frame
};

WindowInputs& inputs_of(GLFWwindow* window) { return *static_cast<WindowInputs*>(glfwGetWindowUserPointer(window)); }

void drop_callback(GLFWwindow* window, int count, const char** paths) {
  if (count <= 0) return;
  std::string& dropped = inputs_of(window).dropped_path;
  dropped = paths[0];
#ifdef __EMSCRIPTEN__
  // Emscripten's GLFW puts a dropped file in /.glfw_dropped_files; it joins the picked ones in /uploaded, whose
  // folder name a config.json's model is named after ("uploaded", as web/peviz-page.js does for the picker).
  std::error_code ec;
  const std::filesystem::path to = std::filesystem::path("/uploaded") / std::filesystem::path(paths[0]).filename();
  std::filesystem::create_directories(to.parent_path(), ec);
  std::filesystem::rename(paths[0], to, ec);
  if (!ec) dropped = to.string();
#endif
  gfx::input_arrived();
}

void key_callback(GLFWwindow* window, int key, int scancode, int action, int mods) {
  WindowInputs& in = inputs_of(window);
  if (in.imgui_key_callback) in.imgui_key_callback(window, key, scancode, action, mods);
  if (key < 0 || key >= kKeys) return;
  in.key_down[std::size_t(key)] = action != GLFW_RELEASE;
  if (action == GLFW_PRESS) in.keys_pressed.push_back(key);
}

#ifdef __EMSCRIPTEN__
// The deltaMode of the wheel event being handled (web/peviz-page.js records it before the canvas sees it).
EM_JS(int, js_wheel_delta_mode, (), { return pevizPage.wheelDeltaMode; });
#endif

// The wheel, in notches positive upwards on every platform (the browser's raw DOM deltas converted).
void scroll_callback(GLFWwindow* window, double dx, double dy) {
#ifdef __EMSCRIPTEN__
  const int mode = js_wheel_delta_mode();
  dx = gfx::dom_wheel_notches(dx, mode);
  dy = gfx::dom_wheel_notches(dy, mode);
#endif
  if (GLFWscrollfun imgui = inputs_of(window).imgui_scroll_callback) imgui(window, dx, dy);
}

// A key pressed and released between two frames still counts as pressed in the next frame: ImGui 1.86 reads
// io.KeysDown as the callbacks left it when the frame starts (no event queue before 1.87), so a quick tap was
// lost, above all in the browser, where both events can reach a page idling between frames.
void hold_tapped_keys(WindowInputs& in) {
  ImGuiIO& io = ImGui::GetIO();
  for (int key : std::exchange(in.keys_shown_down, {})) io.KeysDown[key] = in.key_down[std::size_t(key)];
  for (int key : std::exchange(in.keys_pressed, {})) {
    if (io.KeysDown[key]) continue;  // still held: ImGui sees it
    io.KeysDown[key] = true;
    in.keys_shown_down.push_back(key);
  }
}
}  // namespace

#ifdef __EMSCRIPTEN__
// Called by web/peviz-page.js when the user picked a file in the browser's picker: it is at `path` in the
// page's file system, and the app opens it as a file dropped onto the canvas (emscripten's GLFW drops too).
// The page has one window, the one whose GL context is current.
extern "C" EMSCRIPTEN_KEEPALIVE void peviz_file_arrived(const char* path) {
  if (GLFWwindow* window = glfwGetCurrentContext()) inputs_of(window).dropped_path = path;
}
#endif

GLFWwindow* open_window(int width, int height, bool visible, const char* context) {
  if (!glfwInit()) {  // the line below says why; GLFW's own error text would only repeat it
    const char* display = std::getenv("DISPLAY");
    std::fprintf(stderr, "peviz: %s: cannot open a display (%s); run it on a desktop or under xvfb-run\n", context,
                 display && *display ? "GLFW failed to initialise" : "DISPLAY is not set");
    return nullptr;
  }
  glfwSetErrorCallback(glfw_error);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
#ifdef GLFW_SCALE_TO_MONITOR  // GLFW 3.3; emscripten's GLFW has no monitors to scale to
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
#endif
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(width, height, "peviz: positional encodings", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "peviz: %s: cannot create an OpenGL 3.3 core window\n", context);
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
#ifdef __EMSCRIPTEN__
  const char* glsl_version = "#version 300 es";  // WebGL 2: no loader, the functions are the page's
#else
  const char* glsl_version = "#version 330 core";
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::fprintf(stderr, "peviz: %s: cannot load the OpenGL 3.3 functions\n", context);
    glfwDestroyWindow(window);
    glfwTerminate();
    return nullptr;
  }
#endif
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout lives in the session file (session.cpp)
  WindowInputs* inputs = new WindowInputs();
  glfwSetWindowUserPointer(window, inputs);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  inputs->imgui_key_callback = glfwSetKeyCallback(window, key_callback);
  inputs->imgui_scroll_callback = glfwSetScrollCallback(window, scroll_callback);
  ImGui_ImplOpenGL3_Init(glsl_version);
  ImGui_ImplOpenGL3_CreateDeviceObjects();
  glfwSetDropCallback(window, drop_callback);
  return window;
}

void close_window(GLFWwindow* window) {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  delete &inputs_of(window);
  glfwDestroyWindow(window);
  glfwTerminate();
}

}  // namespace peviz::app

namespace peviz::gfx {

void poll_events(bool wait) { wait ? wait_for_input(-1.0) : glfwPollEvents(); }
void wait_events_timeout(double seconds) { wait_for_input(seconds); }
bool should_close(GLFWwindow* window) { return glfwWindowShouldClose(window); }
void request_close(GLFWwindow* window, bool close) { glfwSetWindowShouldClose(window, close ? GLFW_TRUE : GLFW_FALSE); }
void set_vsync(bool on) { glfwSwapInterval(on ? 1 : 0); }
void swap_buffers(GLFWwindow* window) { glfwSwapBuffers(window); }

PixelSize framebuffer_size(GLFWwindow* window) {
  PixelSize p;
  glfwGetFramebufferSize(window, &p.width, &p.height);
  return p;
}

PixelSize window_size(GLFWwindow* window) {
  PixelSize p;
  glfwGetWindowSize(window, &p.width, &p.height);
  return p;
}

float content_scale(GLFWwindow* window) {
#ifdef __EMSCRIPTEN__
  (void)window;  // the canvas has devicePixelRatio pixels per CSS pixel (platform_web.cpp sizes it)
  return float(emscripten_get_device_pixel_ratio());
#else
  float x = 1.0f, y = 1.0f;
  glfwGetWindowContentScale(window, &x, &y);
  return x;
#endif
}

void set_full_screen(GLFWwindow* window, bool on, WindowBox& windowed) {
#ifdef __EMSCRIPTEN__
  // A page may go full screen only from a click (the browser's rule): the page's own button does it.
  (void)window, (void)on, (void)windowed;
  return;
#endif
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (on && mode) {
    glfwGetWindowPos(window, &windowed.x, &windowed.y);
    glfwGetWindowSize(window, &windowed.width, &windowed.height);
    glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (!on) {
    glfwSetWindowMonitor(window, nullptr, windowed.x, windowed.y, windowed.width, windowed.height, GLFW_DONT_CARE);
  }
}

void follow_page_size(GLFWwindow* window) {
  const PixelSize page = page_pixel_size();
  if (page.width <= 0 || page.height <= 0) return;  // the desktop: the user sizes the window
  const PixelSize now = window_size(window);
  if (now.width != page.width || now.height != page.height) glfwSetWindowSize(window, page.width, page.height);
}

void begin_platform_frame(GLFWwindow* window) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  app::hold_tapped_keys(app::inputs_of(window));
}

std::string take_dropped_path(GLFWwindow* window) {
  return std::exchange(app::inputs_of(window).dropped_path, std::string());
}

double dom_wheel_notches(double delta, int delta_mode) {
  switch (delta_mode) {
    case 1: return -delta / 3.0;   // lines
    case 2: return -delta * 80.0;  // pages
    default: return -delta / 100.0;  // pixels
  }
}

int key_code(Key k) {
  switch (k) {
    case Key::f11: return GLFW_KEY_F11;
    case Key::f12: return GLFW_KEY_F12;
    case Key::o: return GLFW_KEY_O;
    case Key::q: return GLFW_KEY_Q;
    case Key::equal: return GLFW_KEY_EQUAL;
    case Key::minus: return GLFW_KEY_MINUS;
    case Key::zero: return GLFW_KEY_0;
    case Key::keypad_add: return GLFW_KEY_KP_ADD;
    case Key::keypad_subtract: return GLFW_KEY_KP_SUBTRACT;
    case Key::keypad_0: return GLFW_KEY_KP_0;
  }
  return -1;
}

}  // namespace peviz::gfx
