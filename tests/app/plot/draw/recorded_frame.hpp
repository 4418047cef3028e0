// Test helper: the plotting layer's drawing in a headless ImGui frame, read back from its display list.
#pragma once
#include <vector>

#include <catch2/catch.hpp>

#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/theme.hpp"

namespace peviz::plot {

// `frames` ImGui frames with the window's font, each calling `draw`; the last one's drawing as a display list.
template <class Draw>
inline DisplayList recorded(Draw draw, ImVec2 display = ImVec2(800, 600), int frames = 1) {
  ImGui::CreateContext();
  create_context();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = display;
  REQUIRE(app::load_fonts(1.0f).empty());
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  io.DeltaTime = 1.0f / 60.0f;
  DisplayList list;
  list.width = display.x, list.height = display.y;
  for (int f = 0; f < frames; ++f) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(display);
    ImGui::Begin("figure", nullptr, ImGuiWindowFlags_NoDecoration);
    if (f == frames - 1) record_into(&list);
    draw();
    record_into(nullptr);
    ImGui::End();
    ImGui::Render();
  }
  destroy_context();
  ImGui::DestroyContext();
  return list;
}

inline std::vector<Text> texts(const DisplayList& list) {
  std::vector<Text> out;
  for (const DrawItem& item : list.items)
    if (const Text* t = std::get_if<Text>(&item)) out.push_back(*t);
  return out;
}

inline std::vector<Polyline> lines(const DisplayList& list) {
  std::vector<Polyline> out;
  for (const DrawItem& item : list.items)
    if (const Polyline* p = std::get_if<Polyline>(&item)) out.push_back(*p);
  return out;
}

}  // namespace peviz::plot
