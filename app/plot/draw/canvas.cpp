// Canvas calls: ImDrawList on screen, plus a display-list record while a vector figure is captured.
#include "app/plot/draw/canvas.hpp"

#include <cstring>
#include <string_view>

#include "app/plot/draw/plot_context.hpp"

namespace peviz::plot {

namespace {

Recorder& recorder() { return context().recorder; }

Point pt(ImVec2 p) { return {p.x, p.y}; }
ImVec2 dl_clip_min() { return ImGui::GetWindowDrawList()->GetClipRectMin(); }
ImVec2 dl_clip_max() { return ImGui::GetWindowDrawList()->GetClipRectMax(); }

// Appends `item` inside a clip group matching the draw list's current clip rectangle (window
// bounds, child windows and plot areas all end up there), opening a new group when it changed.
template <class T>
void record(T item) {
  Recorder& rec = recorder();
  if (!rec.list) return;
  const ImVec2 lo = dl_clip_min(), hi = dl_clip_max();
  const ImVec4 c(lo.x, lo.y, hi.x, hi.y);
  if (!rec.clip_open || c.x != rec.clip.x || c.y != rec.clip.y || c.z != rec.clip.z || c.w != rec.clip.w) {
    if (rec.clip_open) rec.list->add(PopClip{});
    rec.list->add(PushClip{{c.x, c.y}, {c.z, c.w}});
    rec.clip_open = true;
    rec.clip = c;
  }
  rec.list->add(std::move(item));
}

ImDrawList* dl() { return ImGui::GetWindowDrawList(); }

}  // namespace

void record_into(DisplayList* list) {
  Recorder& rec = recorder();
  if (rec.list && rec.clip_open) rec.list->add(PopClip{});
  rec = Recorder{list, false, {}};
}

bool recording() { return recorder().list != nullptr; }

void canvas_line(ImVec2 a, ImVec2 b, ImU32 color, float thickness) {
  dl()->AddLine(a, b, color, thickness);
  if (recording()) record(Polyline{{pt(a), pt(b)}, color, thickness, false});
}

void canvas_polyline(const ImVec2* points, int count, ImU32 color, float thickness, bool closed) {
  dl()->AddPolyline(points, count, color, closed ? ImDrawFlags_Closed : ImDrawFlags_None, thickness);
  if (!recording() || count < 2) return;
  Polyline l{{}, color, thickness, closed};
  l.points.reserve(std::size_t(count));
  for (int i = 0; i < count; ++i) l.points.push_back(pt(points[i]));
  record(std::move(l));
}

void canvas_rect_filled(ImVec2 min, ImVec2 max, ImU32 color, float rounding) {
  dl()->AddRectFilled(min, max, color, rounding);
  if (recording()) record(FilledRect{pt(min), pt(max), color, rounding});
}

void canvas_rect(ImVec2 min, ImVec2 max, ImU32 color, float rounding, float thickness) {
  dl()->AddRect(min, max, color, rounding, 0, thickness);
  if (recording()) record(StrokedRect{pt(min), pt(max), color, thickness, rounding});
}

void canvas_rect_gradient(ImVec2 min, ImVec2 max, ImU32 top_left, ImU32 top_right, ImU32 bottom_right, ImU32 bottom_left) {
  dl()->AddRectFilledMultiColor(min, max, top_left, top_right, bottom_right, bottom_left);
  if (recording()) record(GradientRect{pt(min), pt(max), top_left, top_right, bottom_right, bottom_left});
}

void canvas_circle_filled(ImVec2 center, float radius, ImU32 color) {
  dl()->AddCircleFilled(center, radius, color);
  if (recording()) record(Circle{pt(center), radius, color, true, 1.0f});
}

void canvas_convex_filled(const ImVec2* points, int count, ImU32 color) {
  if (count < 3) return;
  dl()->AddConvexPolyFilled(points, count, color);
  if (!recording()) return;
  FilledPolygon p{{}, color};
  for (int i = 0; i < count; ++i) p.points.push_back(pt(points[i]));
  record(std::move(p));
}

void canvas_circle(ImVec2 center, float radius, ImU32 color, int segments, float thickness) {
  dl()->AddCircle(center, radius, color, segments, thickness);
  if (recording()) record(Circle{pt(center), radius, color, false, thickness});
}

void canvas_text(ImVec2 top_left, ImU32 color, const char* text, const char* end) {
  if (!end) end = text + std::strlen(text);
  dl()->AddText(top_left, color, text, end);
  if (!recording()) return;
  const float size = ImGui::GetFontSize();
  float y = top_left.y;
  for (const char* line = text; line <= end; y += size) {
    const char* stop = static_cast<const char*>(std::memchr(line, '\n', std::size_t(end - line)));
    if (!stop) stop = end;
    if (stop > line) record(Text{{top_left.x, y}, size, HAlign::left, VAlign::top, color, std::string(line, stop)});
    line = stop + 1;
  }
}

void canvas_text_at(ImVec2 anchor, HAlign h, VAlign v, ImU32 color, const char* text) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  const float x = anchor.x - (h == HAlign::center ? 0.5f * size.x : h == HAlign::right ? size.x : 0.0f);
  const float y = anchor.y - (v == VAlign::middle ? 0.5f * size.y : v == VAlign::bottom ? size.y : 0.0f);
  dl()->AddText(ImVec2(x, y), color, text);
  if (recording()) record(Text{pt(anchor), ImGui::GetFontSize(), h, v, color, text});
}

void canvas_heatmap(const HeatmapRect& h) {
  if (h.texture) dl()->AddImage(h.texture, ImVec2(h.min.x, h.min.y), ImVec2(h.max.x, h.max.y), ImVec2(0, 0), ImVec2(h.uv_max.x, h.uv_max.y));
  if (recording()) record(h);
}

void canvas_push_clip(ImVec2 min, ImVec2 max) { dl()->PushClipRect(min, max, true); }
void canvas_pop_clip() { dl()->PopClipRect(); }

std::vector<std::string> wrap_text(const char* text, float width) {
  std::vector<std::string> lines;
  std::string line, word;
  std::string_view rest(text);
  while (!rest.empty()) {
    const std::size_t space = rest.find(' ');
    word = std::string(rest.substr(0, space));
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    const std::string joined = line.empty() ? word : line + " " + word;
    if (!line.empty() && ImGui::CalcTextSize(joined.c_str()).x > width) {
      lines.push_back(line);
      line = word;
    } else {
      line = joined;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace peviz::plot
