// The GLFW window with its OpenGL 3.3 core context and Dear ImGui on top: opened visible for the
// interactive window, hidden for `peviz render`. Shut down in reverse order.
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
