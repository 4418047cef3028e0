// Tests for app/plot/draw/canvas: while recording, each canvas call lands in the display list as its vector item with
// the same geometry and colour, inside one clip group per clip rectangle; multi-line text is one item per line;
// without a list nothing is recorded.
#include "app/plot/draw/canvas.hpp"

#include <variant>

#include <catch2/catch.hpp>

#include "recorded_frame.hpp"

using namespace peviz::plot;

namespace {

template <class T>
const T& item(const DisplayList& l, std::size_t i) {
  REQUIRE(i < l.items.size());
  REQUIRE(std::holds_alternative<T>(l.items[i]));
  return std::get<T>(l.items[i]);
}

}  // namespace

TEST_CASE("each shape is recorded with its geometry and colour, in a clip group of the window") {
  ImVec2 clip_min, clip_max;
  const DisplayList l = recorded([&] {
    clip_min = ImGui::GetWindowDrawList()->GetClipRectMin();
    clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
    canvas_line(ImVec2(1, 2), ImVec2(3, 4), 0xFF0000FFu, 2.0f);
    canvas_rect_filled(ImVec2(10, 10), ImVec2(20, 30), 0xFF00FF00u, 3.0f);
    canvas_rect(ImVec2(5, 6), ImVec2(7, 8), 0xFFFF0000u, 0.0f, 1.5f);
    canvas_circle_filled(ImVec2(50, 60), 4.0f, 0xFF123456u);
    canvas_circle(ImVec2(70, 80), 5.0f, 0xFF654321u, 0, 2.0f);
    const ImVec2 tri[3] = {ImVec2(0, 0), ImVec2(10, 0), ImVec2(0, 10)};
    canvas_convex_filled(tri, 3, 0xFFABCDEFu);
    canvas_convex_filled(tri, 2, 0xFFABCDEFu);  // fewer than 3 points: nothing
    canvas_rect_gradient(ImVec2(0, 0), ImVec2(1, 1), 1u, 2u, 3u, 4u);
  });
  REQUIRE(l.items.size() == 9);  // the window's clip group: PushClip, seven shapes, PopClip when recording stops
  const PushClip& clip = item<PushClip>(l, 0);
  CHECK(clip.min == Point{clip_min.x, clip_min.y});
  CHECK(clip.max == Point{clip_max.x, clip_max.y});
  CHECK(std::holds_alternative<PopClip>(l.items[8]));
  const Polyline& line = item<Polyline>(l, 1);
  CHECK(line.points == std::vector<Point>{{1, 2}, {3, 4}});
  CHECK(line.color == 0xFF0000FFu);
  CHECK(line.thickness == 2.0f);
  const FilledRect& fill = item<FilledRect>(l, 2);
  CHECK(fill.max == Point{20, 30});
  CHECK(fill.rounding == 3.0f);
  CHECK(item<StrokedRect>(l, 3).thickness == 1.5f);
  const Circle& disc = item<Circle>(l, 4);
  CHECK(disc.filled);
  CHECK(disc.radius == 4.0f);
  CHECK_FALSE(item<Circle>(l, 5).filled);
  CHECK(item<FilledPolygon>(l, 6).points.size() == 3);
  CHECK(item<GradientRect>(l, 7).bottom_left == 4u);
}

TEST_CASE("a new clip rectangle opens a new clip group; text is one item per line at the font's line height") {
  float font = 0;
  ImVec2 window_clip_max;
  const DisplayList l = recorded([&] {
    font = ImGui::GetFontSize();
    window_clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
    canvas_push_clip(ImVec2(100, 100), ImVec2(200, 200));
    canvas_text(ImVec2(110, 120), 0xFFFFFFFFu, "first\nsecond");
    canvas_pop_clip();
    canvas_text_at(ImVec2(300, 300), HAlign::center, VAlign::middle, 0xFF00FFFFu, "centred");
  });
  REQUIRE(l.items.size() == 7);  // PushClip, two lines, PopClip, PushClip (the window's), one text, PopClip
  CHECK(item<PushClip>(l, 0).min == Point{100, 100});
  const Text& first = item<Text>(l, 1);
  const Text& second = item<Text>(l, 2);
  CHECK(first.text == "first");
  CHECK(second.text == "second");
  CHECK(first.position == Point{110, 120});
  CHECK(second.position.y == 120 + font);
  CHECK(first.size == font);
  CHECK(std::holds_alternative<PopClip>(l.items[3]));
  CHECK(item<PushClip>(l, 4).max == Point{window_clip_max.x, window_clip_max.y});
  const Text& centred = item<Text>(l, 5);
  CHECK(centred.position == Point{300, 300});  // the anchor, with its alignment: the writers place it
  CHECK(centred.h == HAlign::center);
  CHECK(centred.v == VAlign::middle);
}

TEST_CASE("nothing is recorded without a display list") {
  const DisplayList l = recorded([] {
    record_into(nullptr);
    CHECK_FALSE(recording());
    canvas_line(ImVec2(0, 0), ImVec2(1, 1), 0xFFFFFFFFu);
  });
  CHECK(l.items.empty());
}
