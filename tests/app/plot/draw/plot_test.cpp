// The plotting layer read back from its display list: the legend never covers the drawn data or a note.
#include <cmath>
#include <optional>
#include <vector>

#include <catch2/catch.hpp>

#include "recorded_frame.hpp"

using namespace peviz;
using namespace peviz::plot;

namespace {

constexpr int kSamples = 200;

// The legend's frame (the only rounded outline a plot draws) and the plot area's (the square one drawn last).
std::optional<StrokedRect> legend_frame(const DisplayList& list) {
  for (const DrawItem& item : list.items)
    if (const StrokedRect* r = std::get_if<StrokedRect>(&item); r && r->rounding > 0) return *r;
  return std::nullopt;
}
StrokedRect area_frame(const DisplayList& list) {
  for (const DrawItem& item : list.items)
    if (const StrokedRect* r = std::get_if<StrokedRect>(&item); r && r->rounding == 0) return *r;
  FAIL("no plot area outline");
  return {};
}

// Points of the data lines (the legend's own swatches are 2-point lines and are skipped).
int data_points_inside(const DisplayList& list, const StrokedRect& box) {
  int inside = 0;
  for (const Polyline& l : lines(list)) {
    if (l.points.size() < 3) continue;
    for (const Point& p : l.points) inside += p.x > box.min.x && p.x < box.max.x && p.y > box.min.y && p.y < box.max.y;
  }
  return inside;
}

// `curves` lines over x in [0, 1]; curve k is f(x, k). Three frames, as a figure is captured.
template <class F>
DisplayList plot_of(int curves, F f, const char* note = nullptr) {
  static std::vector<std::vector<float>> values;
  values.assign(std::size_t(curves), std::vector<float>(kSamples));
  for (int k = 0; k < curves; ++k)
    for (int i = 0; i < kSamples; ++i) values[std::size_t(k)][std::size_t(i)] = f(double(i) / (kSamples - 1), k);
  static const char* kNames[] = {"first curve", "second curve", "third", "fourth", "fifth", "sixth"};
  return recorded(
      [&] {
        if (begin_plot("##p", ImVec2(600, 300))) {
          setup_axes("x", "y", {0, 1}, {-1, 1});
          for (int k = 0; k < curves; ++k)
            plot_line(kNames[k], values[std::size_t(k)].data(), kSamples, 0.0, 1.0 / (kSamples - 1));
          if (note) plot_text(0.8, 0.95, note, IM_COL32(255, 255, 255, 255));
          end_plot();
        }
      },
      ImVec2(700, 400), 3);
}

}  // namespace

TEST_CASE("the legend takes a corner free of data: a rising line leaves the top-left") {
  const DisplayList list = plot_of(1, [](double x, int) { return float(2 * x - 1); });
  const auto legend = legend_frame(list);
  REQUIRE(legend);
  const StrokedRect area = area_frame(list);
  CHECK(data_points_inside(list, *legend) == 0);
  CHECK(legend->min.x < area.min.x + 0.5f * (area.max.x - area.min.x));  // the left half: top-right has the line
  CHECK(legend->max.y < area.min.y + 0.5f * (area.max.y - area.min.y));
}

TEST_CASE("a note inside the plot counts as data for the legend") {
  const DisplayList list = plot_of(1, [](double x, int) { return float(2 * x - 1) * 0.3f - 0.6f; }, "a note up here");
  const auto legend = legend_frame(list);
  REQUIRE(legend);
  const StrokedRect area = area_frame(list);
  CHECK(data_points_inside(list, *legend) == 0);
  for (const Text& t : texts(list))
    if (t.text == "a note up here") CHECK((t.position.x > legend->max.x || legend->min.x > t.position.x + 100));
  CHECK(legend->max.y < area.min.y + 0.5f * (area.max.y - area.min.y));  // a top corner: the line is low
}

TEST_CASE("when curves fill the area the legend goes outside it, and the area makes room") {
  const DisplayList list = plot_of(6, [](double x, int k) { return float(std::sin(40.0 * x + k)); });
  const auto legend = legend_frame(list);
  REQUIRE(legend);
  const StrokedRect area = area_frame(list);
  CHECK(legend->min.x > area.max.x);
  CHECK(legend->max.x <= 600.0f + 8.0f);  // inside the plot's frame (window padding 8)
  CHECK(data_points_inside(list, *legend) == 0);
}

TEST_CASE("a legend beside the data never takes the frame under the readable width: it goes above instead") {
  static std::vector<std::vector<float>> values(6, std::vector<float>(kSamples));
  for (int k = 0; k < 6; ++k)
    for (int i = 0; i < kSamples; ++i)
      values[std::size_t(k)][std::size_t(i)] = float(std::sin(40.0 * i / kSamples + k));
  static const char* kNames[] = {"a", "b", "c", "d", "e", "f"};
  float frame_width = 0.0f, min_width = 0.0f;
  const DisplayList list = recorded(
      [&] {
        // Wide enough that a third of it holds the legend, too narrow to give that third away.
        min_width = kMinPlotWidthEm * ImGui::GetFontSize();
        frame_width = 17.0f * ImGui::GetFontSize();
        if (begin_plot("##narrow", ImVec2(frame_width, 300))) {
          setup_axes("x", "y", {0, 1}, {-1, 1});
          for (int k = 0; k < 6; ++k)
            plot_line(kNames[k], values[std::size_t(k)].data(), kSamples, 0.0, 1.0 / (kSamples - 1));
          end_plot();
        }
      },
      ImVec2(700, 400), 3);
  const auto legend = legend_frame(list);
  REQUIRE(legend);
  const StrokedRect area = area_frame(list);
  CHECK(legend->max.y <= area.min.y);  // above the data
  CHECK(legend->min.x < area.max.x);   // not beside it
  CHECK(data_points_inside(list, *legend) == 0);
  CHECK(frame_width > min_width);
}

TEST_CASE("an x/y line is one series through unevenly spaced samples: one polyline, one legend entry") {
  static const float xs[] = {5, 10, 15, 20, 25, 30, 35, 42};  // the last step is not 5
  static const float ys[] = {1, 1, 1, 1, 0.6f, 0.2f, 0.0f, 0.0f};
  const DisplayList list = recorded(
      [&] {
        if (begin_plot("##xy", ImVec2(600, 300))) {
          setup_axes("n", "match", {0, 50}, {-0.05, 1.1});
          plot_line("only curve", xs, ys, 8);
          end_plot();
        }
      },
      ImVec2(700, 400), 3);
  std::vector<Polyline> data;
  for (const Polyline& l : lines(list))
    if (l.points.size() >= 3) data.push_back(l);
  REQUIRE(data.size() == 1);
  REQUIRE(data[0].points.size() == 8);
  const float step = data[0].points[1].x - data[0].points[0].x;  // 5 in x
  CHECK(data[0].points[7].x - data[0].points[6].x == Approx(1.4 * step).epsilon(1e-3));
  int entries = 0;
  for (const Text& t : texts(list)) entries += t.text == "only curve";
  CHECK(entries == 1);
}

TEST_CASE("extreme, NaN, infinite and empty values and ranges draw in bounded work, with the legend placed") {
  // Huge values once made a decimated column step 4 pixels at a time through 1e32 pixels (a float that no
  // longer moves), and a long segment sampled every 4 pixels: bad_alloc under random input.
  const float inf = INFINITY, nan = NAN;
  struct Case { const char* name; float value; AxisRange x, y; int count; };
  const Case cases[] = {
      {"huge values, decimated", 1e30f, {0, 1}, {-1, 1}, 100000},
      {"huge values, every sample", 1e30f, {0, 1}, {-1, 1}, 50},
      {"infinite values", inf, {0, 1}, {-1, 1}, 100000},
      {"NaN values", nan, {0, 1}, {-1, 1}, 100000},
      {"a tiny y range", 0.5f, {0, 1}, {0.5, 0.5 + 1e-300}, 100000},
      {"an x range far past the samples", 0.5f, {1e300, 2e300}, {-1, 1}, 100000},
      {"an x range of NaN", 0.5f, {nan, nan}, {-1, 1}, 100000},
      {"an infinite y range", 0.5f, {0, 1}, {-inf, inf}, 50},
      {"no samples", 0.5f, {0, 1}, {-1, 1}, 0},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      std::vector<float> values(std::size_t(std::max(c.count, 1)));
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = (i % 2 ? -1.0f : 1.0f) * c.value;
      const DisplayList list = recorded(
          [&] {
            if (begin_plot("##hostile", ImVec2(600, 300))) {
              setup_axes("x", "y", c.x, c.y);
              plot_line("a named curve", values.data(), c.count, 0.0, 1.0 / std::max(c.count - 1, 1));
              plot_hline(double(c.value), IM_COL32(200, 200, 200, 255));
              end_plot();
            }
          },
          ImVec2(700, 400), 3);
      std::size_t points = 0;
      for (const Polyline& l : lines(list)) points += l.points.size();
      CHECK(points <= 2 * std::size_t(c.count) + 64);  // each sample at most twice (a spike restarts the line), the frame
      CHECK(legend_frame(list));
    }
  }
}

TEST_CASE("plot_heatmap places the image it draws: the frame's placement is where the picture went") {
  const Matrix m(4, 6, 0.5f);
  HeatmapImage img, unused;
  img.values = &m;
  std::optional<HeatmapPlacement> placed;
  std::size_t placements = 0;
  bool unused_placed = true;
  const DisplayList list = recorded(
      [&] {
        clear_drawn_plots();  // as the window does before each frame
        if (begin_plot("##heat", ImVec2(600, 300))) {
          setup_axes("column", "row", {0, 6}, {0, 4}, axis_cells, axis_cells | axis_inverted);
          plot_heatmap(img, "value");
          end_plot();
        }
        placed.reset();  // the last frame's, read before the context goes
        if (const HeatmapPlacement* p = placement_of(img)) placed = *p;
        placements = heatmap_placements().size();
        unused_placed = placement_of(unused) != nullptr;
      },
      ImVec2(700, 400), 2);
  const HeatmapRect* drawn = nullptr;
  for (const DrawItem& item : list.items)
    if (const HeatmapRect* h = std::get_if<HeatmapRect>(&item)) drawn = h;
  REQUIRE(drawn);
  REQUIRE(placed);
  CHECK(placements == 1);
  CHECK_FALSE(unused_placed);
  CHECK(placed->screen_min[0] == drawn->min.x);
  CHECK(placed->screen_max[1] == drawn->max.y);
  CHECK(placed->window.width == int(drawn->max.x - drawn->min.x));  // one texel a pixel
  const double pixel = 6.0 / placed->window.width;  // the image snaps to whole pixels
  CHECK(placed->window.x_left == Approx(0.0).margin(pixel));
  CHECK(placed->window.x_right == Approx(6.0).margin(pixel));  // every column shown
}
