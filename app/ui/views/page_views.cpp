// The views' table, generated from the page list: which function draws each page.
#include "app/ui/app_layout.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

// The Basics page is the 2 x 2 grid of the basic views (app_layout draws it beside the sidebar).
void draw_basics_view(AppState& s) {
  draw_basics_grid(s, ImGui::GetCursorScreenPos(), ImGui::GetContentRegionAvail());
}

void draw_shown_page(AppState& s) {
#define PEVIZ_VIEW_ENTRY(id, Options) draw_##id##_view,
  static void (*const views[])(AppState&) = {PEVIZ_PAGES(PEVIZ_VIEW_ENTRY)};
#undef PEVIZ_VIEW_ENTRY
  static_assert(std::size(views) == std::size_t(kPageCount));
  views[std::size_t(s.pages.page)](s);
}

}  // namespace peviz::app
