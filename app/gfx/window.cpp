// GLFW + glad + Dear ImGui set-up and tear-down, shared by the window and `peviz render`.
#include "app/gfx/window.hpp"

#include <cstdio>
#include <cstdlib>

#include "app/gfx/gl.hpp"  // glad before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

namespace peviz::app {

namespace {
void glfw_error(int code, const char* text) { std::fprintf(stderr, "peviz: GLFW error %d: %s\n", code, text); }
}  // namespace

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
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(width, height, "peviz: positional encodings", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "peviz: %s: cannot create an OpenGL 3.3 core window\n", context);
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::fprintf(stderr, "peviz: %s: cannot load the OpenGL 3.3 functions\n", context);
    glfwDestroyWindow(window);
    glfwTerminate();
    return nullptr;
  }
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout lives in the session file (session.cpp)
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  ImGui_ImplOpenGL3_CreateDeviceObjects();
  return window;
}

void close_window(GLFWwindow* window) {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
}

}  // namespace peviz::app
