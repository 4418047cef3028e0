// Tests for app/plot/draw/plot_context: the plotting state belongs to the ImGui context it was created on.
#include "app/plot/draw/plot_context.hpp"

#include <catch2/catch.hpp>

#include "app/plot/draw/canvas.hpp"
#include "tests/app/plot/draw/plot_context_scope.hpp"

using namespace peviz::plot;

TEST_CASE("each ImGui context has its own plotting state: drawn plots, placements and the recorder") {
  PlotContextScope first;
  note_drawn_plot({.id = "waves"});
  DisplayList list;
  record_into(&list);
  CHECK(recording());
  PlotContext* first_state = &context();
  {
    PlotContextScope second;  // now current
    CHECK(&context() != first_state);
    CHECK(drawn_plots().empty());
    CHECK(!recording());
    note_drawn_plot({.id = "heatmap"});
    HeatmapImage image;
    note_heatmap_placement({&image, {}, {0, 0}, {1, 1}});
    CHECK(placement_of(image) != nullptr);
  }
  ImGui::SetCurrentContext(first.imgui);
  CHECK(&context() == first_state);
  REQUIRE(drawn_plots().size() == 1);
  CHECK(drawn_plots()[0].id == "waves");
  CHECK(heatmap_placements().empty());
  CHECK(recording());
  record_into(nullptr);
  CHECK(!recording());
}

TEST_CASE("destroy_context takes the state off the ImGui context; create_context hangs a fresh one") {
  PlotContextScope scope;
  note_drawn_plot({.id = "waves"});
  destroy_context();
  CHECK(ImGui::GetIO().UserData == nullptr);
  create_context();
  CHECK(ImGui::GetIO().UserData == &context());
  CHECK(drawn_plots().empty());
}
