// Tests for app/frame_report: percentiles, and a sweep that really changes d_model, base and L.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "app/model/frame_report.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("nearest-rank percentiles") {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  CHECK(percentile(v, 50) == 50);
  CHECK(percentile(v, 95) == 95);
  CHECK(percentile(v, 100) == 100);
  CHECK(percentile({3.0}, 95) == 3.0);
  CHECK(std::isnan(percentile({}, 50)));
}

TEST_CASE("the sweep changes d_model, base and L and marks them dirty every frame") {
  AppState s;
  EncodingParams centre;
  centre.d_model = 512;
  centre.seq_len = 2048;
  s.params = centre;
  std::set<int> d, L;
  std::set<double> base;
  for (int f = 0; f < 60; ++f) {
    s.pages.basics.dirty = BasicsDirty{false, false, false, false, false};
    apply_sweep_step(s, centre, f);
    CHECK(s.pages.basics.dirty.encoding);
    d.insert(s.params.d_model);
    L.insert(s.params.seq_len);
    base.insert(s.params.base);
    CHECK(s.params.d_model <= 512);
    CHECK(s.params.d_model >= 512 - 512 / 8);
    CHECK(s.params.seq_len <= 2048);
    CHECK(s.params.seq_len >= 2048 - 2048 / 8);
    CHECK(s.params.base >= limits::base.window_lo());
  }
  CHECK(d.size() >= 4);
  CHECK(L.size() >= 4);
  CHECK(base.size() >= 20);
}

TEST_CASE("the report names frame and recompute statistics and leaves out start-up frames") {
  FrameStats st;
  st.frame_ms = {100, 90, 10, 12, 11, 13};
  st.recompute_ms = {50, 40, 5, 6, 7, 8};
  st.heatmap_ms = {1, 1, 1, 1, 1, 1};
  const std::string r = format_report(st, "test", 2);
  CHECK(r.find("frame ms:     median 11.00") != std::string::npos);
  CHECK(r.find("p95 13.00") != std::string::npos);
  CHECK(r.find("recompute ms: median 6.00") != std::string::npos);
  CHECK(r.find("first 2 left out") != std::string::npos);
}
