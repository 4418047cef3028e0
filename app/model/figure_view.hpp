// What a figure or a data export shows: the whole window, one of the four Basics views, or one other page.
#pragma once
#include "app/model/page_states.hpp"

namespace peviz::app {

struct FigureView {
  enum Kind { window, waves, encoding, similarity, binary, one_page } kind = window;
  Page page = Page::basics;  // for kind == one_page (any page but Basics, whose figures are its four views)
  bool operator==(const FigureView&) const = default;
};

}  // namespace peviz::app
