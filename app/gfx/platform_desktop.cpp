// The desktop side of app/gfx/platform.hpp: a plain frame loop, files that stay where they were written.
#include "app/gfx/platform.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace peviz::gfx {

bool in_browser() { return false; }

int run_frame_loop(std::function<bool()> frame, std::function<int()> done) {
  while (frame()) {
  }
  return done();
}

void wait_for_input(double timeout_s) { timeout_s < 0.0 ? glfwWaitEvents() : glfwWaitEventsTimeout(timeout_s); }
void input_arrived() {}

PixelSize page_pixel_size() { return {}; }

std::string location_fragment() { return {}; }
void replace_location_fragment(const std::string&) {}
std::string location_href() { return {}; }

void deliver_file(const std::string&) {}
bool files_are_downloads() { return false; }
bool ask_for_file() { return false; }

DataState shipped_lab_runs(bool) { return DataState::ready; }

void report_training(long, long, int, int) {}

void copy_text(const std::string& text) { ImGui::SetClipboardText(text.c_str()); }

std::string cannot_write(const std::string&) { return {}; }

}  // namespace peviz::gfx
