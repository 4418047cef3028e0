// Test helper: an ImGui context with the plotting layer's state on it, for tests that call the layer outside a frame.
#pragma once
#include <imgui.h>

#include "app/plot/draw/plot.hpp"

namespace peviz::plot {

// A fresh ImGui context, made current (ImGui::CreateContext makes only the first one current), with plotting state.
struct PlotContextScope {
  ImGuiContext* imgui = ImGui::CreateContext();
  PlotContextScope() {
    ImGui::SetCurrentContext(imgui);
    create_context();
  }
  ~PlotContextScope() {
    ImGui::SetCurrentContext(imgui);
    destroy_context();
    ImGui::DestroyContext(imgui);
  }
  PlotContextScope(const PlotContextScope&) = delete;
  PlotContextScope& operator=(const PlotContextScope&) = delete;
};

}  // namespace peviz::plot
