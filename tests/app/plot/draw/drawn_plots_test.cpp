// Tests for app/plot/draw/drawn_plots: the frame's list of plots and colour bars, in order, the area and legend
// going to the last plot noted (never to a colour bar after it), the heatmaps placed, cleared each frame.
#include "app/plot/draw/drawn_plots.hpp"

#include <catch2/catch.hpp>

#include "tests/app/plot/draw/plot_context_scope.hpp"

using namespace peviz::plot;

namespace {

ScreenBox box(float x0, float y0, float x1, float y1) { return {ImVec2(x0, y0), ImVec2(x1, y1)}; }

}  // namespace

TEST_CASE("plots and colour bars are listed in order; area and legend go to the last plot, not a colour bar") {
  PlotContextScope scope;
  note_drawn_plot({.id = "waves", .frame = box(0, 0, 100, 50)});
  note_drawn_plot({.id = "heatmap", .frame = box(0, 60, 100, 160)});
  note_drawn_plot({.id = "heatmap-bar", .frame = box(105, 60, 120, 160), .colorbar = true});
  note_plot_area_and_legend(box(10, 70, 90, 150), box(60, 70, 90, 90));
  const std::vector<DrawnPlot>& p = drawn_plots();
  REQUIRE(p.size() == 3);
  CHECK(p[0].id == "waves");
  CHECK(p[2].colorbar);
  CHECK(p[1].area.min.x == 10.0f);
  CHECK(p[1].area.max.y == 150.0f);
  CHECK(p[1].legend.min.x == 60.0f);
  CHECK(p[2].area.max.x == 0.0f);  // the colour bar keeps no area
  CHECK(p[0].area.max.x == 0.0f);  // an earlier plot is untouched
  clear_drawn_plots();
  CHECK(drawn_plots().empty());
  note_plot_area_and_legend(box(0, 0, 1, 1), box(0, 0, 0, 0));  // nothing to note into: no effect
  CHECK(drawn_plots().empty());
}

TEST_CASE("heatmap placements: listed in order, the last one of an image found, cleared with the frame") {
  PlotContextScope scope;
  HeatmapImage a, b;
  HeatmapWindow w;
  w.width = 40;
  note_heatmap_placement({&a, w, {0, 0}, {40, 30}});
  w.width = 80;
  note_heatmap_placement({&a, w, {50, 0}, {130, 30}});  // drawn twice: the second wins, as the GL layer renders it
  CHECK(heatmap_placements().size() == 2);
  REQUIRE(placement_of(a));
  CHECK(placement_of(a)->window.width == 80);
  CHECK(placement_of(a)->screen_min[0] == 50.0f);
  CHECK(placement_of(b) == nullptr);  // not drawn this frame
  clear_drawn_plots();
  CHECK(heatmap_placements().empty());
  CHECK(placement_of(a) == nullptr);
}
