// The colour bar, read back from the display list it records: tick labels, minus signs, title, n/a swatch.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "recorded_frame.hpp"

using namespace peviz;
using namespace peviz::plot;

TEST_CASE("colour bar: a gap between each tick and its label, true minus signs, the title, n/a only when missing") {
  ScreenBox bar;
  const DisplayList list = recorded([&] {
    bar = colorbar("##bar", Colormap::diverging, -1.0, 1.0, ImVec2(80, 400), {"attention probability", false});
  });
  const float fs = 16.0f;  // the theme's font size at zoom 1
  std::vector<std::string> labels;
  int ticks_checked = 0;
  for (const Text& t : texts(list)) {
    labels.push_back(t.text);
    if (t.v != VAlign::middle) continue;  // tick labels are anchored at their tick's height
    for (const Polyline& l : lines(list)) {
      if (l.points.size() != 2 || std::abs(l.points[0].y - t.position.y) > 0.5f) continue;
      const float tick_end = std::max(l.points[0].x, l.points[1].x);
      CHECK(t.position.x - tick_end >= 0.3f * fs);  // a clear gap: "1.0" never reads "-1.0"
      ++ticks_checked;
    }
  }
  CHECK(ticks_checked >= 3);
  CHECK(std::find(labels.begin(), labels.end(), "\u22121.0") != labels.end());
  CHECK(std::find(labels.begin(), labels.end(), "1.0") != labels.end());
  CHECK(std::find(labels.begin(), labels.end(), "-1.0") == labels.end());
  // The title, wrapped to the bar's width, above the gradient.
  CHECK(std::find(labels.begin(), labels.end(), "attention") != labels.end());
  CHECK(std::find(labels.begin(), labels.end(), "probability") != labels.end());
  for (const Text& t : texts(list))
    if (t.text == "probability") CHECK(t.position.y + fs <= bar.min.y);
  CHECK(std::find(labels.begin(), labels.end(), "n/a") == labels.end());  // nothing is missing

  const DisplayList with_missing = recorded([] { colorbar("##bar", Colormap::viridis, 0.0, 1.0, ImVec2(80, 400), {"bias", true}); });
  int na = 0;
  for (const Text& t : texts(with_missing)) na += t.text == "n/a";
  CHECK(na == 1);
}
