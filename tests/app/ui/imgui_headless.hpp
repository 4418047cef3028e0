// Test helper: an ImGui context without GL (font atlas built on the CPU) that draws the whole
// window for a few frames, with scripted mouse input over the views.
#pragma once
#include <imgui.h>
#include <imgui_internal.h>

#include <catch2/catch.hpp>

#include "app/plot/draw/plot.hpp"
#include "app/ui/app_layout.hpp"
#include "app/model/app_update.hpp"
#include "app/ui/theme.hpp"

struct HeadlessImGui {
  explicit HeadlessImGui(ImVec2 display = ImVec2(1600, 900)) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    peviz::plot::create_context();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = display;
    io.DeltaTime = 1.0f / 60.0f;
    REQUIRE(peviz::app::load_fonts(1.0f).empty());  // the real TTF is found
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    REQUIRE(w > 0);
    peviz::app::apply_theme(peviz::app::Theme::dark, 1.0f);
  }
  ~HeadlessImGui() {
    peviz::plot::destroy_context();
    ImGui::DestroyContext();
  }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;

  // The fonts and theme at `zoom`, as the window builds them when the zoom changes.
  void use_zoom(float zoom, peviz::app::Theme theme) {
    REQUIRE(peviz::app::load_fonts(zoom).empty());
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    peviz::app::apply_theme(theme, zoom);
  }

  // One frame: update step, then the UI. Checks ImGui's stacks are balanced afterwards.
  void frame(peviz::app::AppState& s) {
    peviz::app::update_app_state(s);
    ImGui::NewFrame();
    peviz::app::draw_app(s);
    ImGui::Render();
    const ImGuiContext& g = *GImGui;
    CHECK(g.CurrentWindowStack.Size == 0);
    CHECK(g.ColorStack.Size == 0);
    CHECK(g.StyleVarStack.Size == 0);
    CHECK(ImGui::GetDrawData()->Valid);
  }
};

constexpr int kLeftKey = 263, kRightKey = 262, kEscapeKey = 256, kCKey = 67;  // GLFW's key codes, as its backend maps them

// Maps ImGui's arrow, Escape and C keys to GLFW's codes, as the window's backend does.
inline void map_arrow_keys() {
  ImGuiIO& io = ImGui::GetIO();
  io.KeyMap[ImGuiKey_LeftArrow] = kLeftKey;
  io.KeyMap[ImGuiKey_RightArrow] = kRightKey;
  io.KeyMap[ImGuiKey_Escape] = kEscapeKey;
  io.KeyMap[ImGuiKey_C] = kCKey;
}

// Presses `key` for one frame, then releases it for one.
inline void press_key(HeadlessImGui& ui, peviz::app::AppState& s, int key) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[key] = true;
  ui.frame(s);
  io.KeysDown[key] = false;
  ui.frame(s);
}

// A click at `where`: pressed for one frame, released for one.
inline void click_at(HeadlessImGui& ui, peviz::app::AppState& s, ImVec2 where) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = where;
  io.MouseDown[0] = true;
  ui.frame(s);
  io.MouseDown[0] = false;
  ui.frame(s);
}
