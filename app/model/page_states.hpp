// State of the pages: which one is shown, each page's options and cached results (one member per
// page, generated from app/model/page_list.hpp), and their dirty flags. No ImGui, no GL.
#pragma once
#include <array>
#include <cstddef>

#include "app/model/loaded_rope_model.hpp"
#include "app/model/page_list.hpp"

namespace peviz::app {

// The pages of the window, in tab order (the basic views' grid first).
#define PEVIZ_PAGE_ENUM(id, Options) id,
enum class Page { PEVIZ_PAGES(PEVIZ_PAGE_ENUM) };
#undef PEVIZ_PAGE_ENUM
#define PEVIZ_PAGE_COUNT(id, Options) +1
inline constexpr int kPageCount = 0 PEVIZ_PAGES(PEVIZ_PAGE_COUNT);
#undef PEVIZ_PAGE_COUNT

struct PageStates {
  Page page = Page::basics;
#define PEVIZ_PAGE_MEMBER(id, Options) Options id;
  PEVIZ_PAGES(PEVIZ_PAGE_MEMBER)
#undef PEVIZ_PAGE_MEMBER
  // Dirty per page; set by the page's controls and by sidebar parameter changes.
  std::array<bool, kPageCount> dirty{};
  // The RoPE model whose knobs the RoPE pages take (loaded_rope_model.hpp); each page says whether it follows it.
  LoadedRopeModel rope_model;
  PageStates() { dirty.fill(true); }
  void mark(Page p) { dirty[std::size_t(p)] = true; }
  // Where the key part of the page's drawing landed last frame (tests and screenshots).
  float plot_region[4] = {0, 0, 0, 0};
  bool status_from_page = false;  // the status line shows a page's error
};

}  // namespace peviz::app
