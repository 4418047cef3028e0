// Test helper for the page tests: show a page as the window does, and round-trip its state JSON object.
#pragma once
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "app/model/app_update.hpp"
#include "app/model/page_model.hpp"

// Shows page `p` and runs one update step (the shown page recomputes when dirty).
inline void show(peviz::app::AppState& s, peviz::app::Page p) {
  s.pages.page = p;
  peviz::app::update_app_state(s);
}

// The page's options object written from `a`, read into a fresh PageStates and written again must be the
// same JSON; returns the state read back, for the caller to check the fields it set.
inline peviz::app::PageStates json_round_trip(peviz::app::Page p, const peviz::app::PageStates& a) {
  const peviz::app::PageModel& m = peviz::app::page_model(p);
  REQUIRE(*m.json_key);
  const nlohmann::json j = peviz::app::write_page_json(m, a);
  peviz::app::PageStates back;
  peviz::app::read_page_json(m, j, back);
  CHECK(peviz::app::write_page_json(m, back) == j);
  return back;
}
