// What a figure or a data export shows: the whole window, one of the four basic views, or one page.
#pragma once
#include "app/model/analysis_state.hpp"

namespace peviz::app {

struct FigureView {
  enum Kind { window, waves, encoding, similarity, binary, analysis_page } kind = window;
  Page page = Page::basics;  // for kind == analysis_page
  bool operator==(const FigureView&) const = default;
};

}  // namespace peviz::app
