// The GLFW window with its OpenGL 3.3 core context and Dear ImGui on top: opened visible for the
// interactive window, hidden for `peviz render`. Every GLFW call of the program is behind this header.
#pragma once
#include <string>

struct GLFWwindow;

namespace peviz::app {

// Opens the window, loads GL through glad and starts ImGui (no imgui.ini). On failure prints one
// line naming what failed ("peviz: <context>: ...") and returns nullptr; nothing stays initialised.
GLFWwindow* open_window(int width, int height, bool visible, const char* context);
// ImGui, the window and GLFW, in reverse order of open_window.
void close_window(GLFWwindow* window);

}  // namespace peviz::app

namespace peviz::gfx {

struct PixelSize {
  int width = 0, height = 0;
};
// A window's place and size on the desktop (screen units), kept while it is full screen.
struct WindowBox {
  int x = 0, y = 0, width = 0, height = 0;
};

// Waits for the next event (idle) or only takes the pending ones (busy).
void poll_events(bool wait);
// Waits for the next event or `seconds`, whichever comes first (a page that changes slowly on its own).
void wait_events_timeout(double seconds);
bool should_close(GLFWwindow* window);
void request_close(GLFWwindow* window, bool close);
void set_vsync(bool on);
void swap_buffers(GLFWwindow* window);
PixelSize framebuffer_size(GLFWwindow* window);
PixelSize window_size(GLFWwindow* window);
float content_scale(GLFWwindow* window);  // the monitor's content scale (x)
// Full screen on the primary monitor (remembering the windowed box in `windowed`), or back to it.
void set_full_screen(GLFWwindow* window, bool on, WindowBox& windowed);
// In the browser: the canvas follows the page's size in device pixels (nothing on the desktop).
void follow_page_size(GLFWwindow* window);
// The platform and renderer halves of ImGui's NewFrame (input, display size, GL objects).
void begin_platform_frame(GLFWwindow* window);
// The path of a file dropped onto the window since the last call ("" = none).
std::string take_dropped_path(GLFWwindow* window);

// A DOM wheel event's delta (deltaX or deltaY) in the wheel notches GLFW and ImGui count, positive away from the
// user (up, or left): the browser gives pixels, lines or pages (delta_mode 0, 1, 2) positive downwards, and
// emscripten 3.1.6's GLFW 3 passes them on raw. A notch is 100 pixels, 3 lines or 1/80 page, as emscripten's own
// Browser.getMouseWheelDelta counts them (src/library_browser.js).
double dom_wheel_notches(double delta, int delta_mode);

// Key codes as ImGui 1.86's io.KeysDown[] indexes them for this platform (GLFW's codes).
enum class Key { f11, f12, o, q, equal, minus, zero, keypad_add, keypad_subtract, keypad_0 };
int key_code(Key k);

}  // namespace peviz::gfx
