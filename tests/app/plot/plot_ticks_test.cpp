// Tests for app/plot/plot_ticks: the 1-2-5 step rule, tick placement and labels.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/plot/plot_ticks.hpp"

using namespace peviz::plot;

TEST_CASE("nice_step picks 1, 2 or 5 times a power of ten") {
  CHECK(nice_step(10.0, 10) == Approx(1.0));
  CHECK(nice_step(10.0, 5) == Approx(2.0));
  CHECK(nice_step(10.0, 2) == Approx(5.0));
  CHECK(nice_step(1.0, 4) == Approx(0.2));
  CHECK(nice_step(2048.0, 8) == Approx(200.0));
  CHECK(nice_step(0.003, 3) == Approx(0.001));
  CHECK(nice_step(-10.0, 5) == Approx(2.0));  // span sign does not matter
  for (double span : {0.37, 1.0, 7.7, 123.0, 9999.0, 1e7}) {
    const double step = nice_step(span, 6);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    INFO("span " << span << " step " << step);
    CHECK((std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9));
  }
}

TEST_CASE("nice_step of an empty or broken span is 0") {
  CHECK(nice_step(0.0, 5) == 0.0);
  CHECK(nice_step(NAN, 5) == 0.0);
  CHECK(nice_step(INFINITY, 5) == 0.0);
}

TEST_CASE("nice_ticks lie inside the range on multiples of the step") {
  const auto t = nice_ticks(-1.1, 1.1, 5);
  REQUIRE(t.size() == 5);
  CHECK(t.front() == Approx(-1.0));
  CHECK(t[2] == 0.0);  // exactly zero, not 1e-17
  CHECK(t.back() == Approx(1.0));
  const auto rev = nice_ticks(1.1, -1.1, 5);  // inverted range gives the same ticks
  CHECK(rev == t);
  CHECK(nice_ticks(3.0, 3.0, 5).empty());
  CHECK(nice_ticks(0.0, NAN, 5).empty());
}

TEST_CASE("a short axis gets at least two ticks: one tick gives no scale") {
  // The Context extension page's wavelength axis (log10 from 0.5 to 7, room for 2): step 5 left only "5".
  CHECK(nice_ticks(0.5, 7.0, 2) == std::vector<double>{2.0, 4.0, 6.0});
  CHECK(nice_integer_ticks(0.5, 7.0, 2) == std::vector<double>{2.0, 4.0, 6.0});
  // Where the first step already gives two, nothing changes; an integer axis shorter than 1 keeps its one tick.
  CHECK(nice_ticks(0.0, 10.0, 2) == std::vector<double>{0.0, 5.0, 10.0});
  CHECK(nice_integer_ticks(0.2, 0.9, 2).empty());
  CHECK(nice_integer_ticks(0.5, 1.2, 2) == std::vector<double>{1.0});
}

TEST_CASE("nice_integer_ticks never step below 1") {
  const auto t = nice_integer_ticks(0.0, 3.0, 20);
  REQUIRE(t.size() == 4);
  CHECK(t[1] == 1.0);
  const auto big = nice_integer_ticks(0, 8191, 8);
  REQUIRE(big.size() > 1);
  CHECK(big[1] - big[0] == Approx(1000.0));
}

TEST_CASE("tick labels carry just enough decimals") {
  CHECK(format_tick(0.5, 0.5) == "0.5");
  CHECK(format_tick(0.25, 0.05) == "0.25");
  CHECK(format_tick(1000.0, 200.0) == "1000");
  CHECK(format_tick(-3.0, 1.0) == "\u22123");  // a true minus sign, not the hyphen
  CHECK(format_tick(2e7, 1e7) == "2e+07");
  CHECK(format_value(0.123456789) == "0.123457");
  CHECK(format_value(64.0) == "64");
}

TEST_CASE("tick labels: zero prints 0 and tiny steps print in scientific notation") {
  // The linear-shift difference plot: ticks at multiples of 5e-08 around 0.
  const double step = nice_step(2e-7, 4);
  REQUIRE(step == Approx(5e-8));
  const auto t = nice_ticks(-1.2e-7, 1.2e-7, 4);
  std::vector<std::string> labels;
  for (double v : t) labels.push_back(format_tick(v, step));
  CHECK(labels == std::vector<std::string>{"\u22121e\u221207", "\u22125e\u221208", "0", "5e\u221208", "1e\u221207"});
  CHECK(format_tick(1.5e-7, 5e-8) == "1.5e\u221207");
  CHECK(format_tick(3e-9, 1e-9) == "3e\u221209");
  CHECK(format_tick(1e-22, 5e-8) == "0");   // rounding residue of first + i * step
  CHECK(format_tick(-1e-22, 5e-8) == "0");  // no "-0"
  CHECK(format_tick(0.0, 0.5) == "0");
  CHECK(format_tick(1e-17, 0.1) == "0");
  CHECK(format_tick(1e-4, 5e-5) == "1e\u221204");  // not 0.0001 beside 5e-05 on the same axis
  CHECK(format_tick(1.5e-4, 5e-5) == "1.5e\u221204");
  CHECK(format_tick(3e-4, 1e-4) == "0.0003");  // steps from 1e-4 keep fixed decimals
  CHECK(format_tick(1.5e7, 5e6) == "1.5e+07");
  CHECK(format_tick(0.5, 0.1) == "0.5");
}

TEST_CASE("tile_cell_ticks count cells inside each tile and skip the gutters") {
  // 4 tiles of 64 cells + 1 gutter (period 65) across cells [0, 260): plenty of room, nice local ticks per tile.
  const std::vector<int> many = tile_cell_ticks(0, 260, 65, 40);
  REQUIRE_FALSE(many.empty());
  std::vector<std::vector<int>> local(4);  // each tile's own indices
  for (int cell : many) {
    INFO(cell);
    CHECK(cell % 65 < 64);  // never the gutter
    local[std::size_t(cell / 65)].push_back(cell % 65);
  }
  REQUIRE(local[0].size() >= 3);
  const int step = local[0][1];
  CHECK((step == 5 || step == 10));  // a 1-2-5 step for about 10 ticks over 64 cells
  for (std::size_t i = 0; i < local[0].size(); ++i) CHECK(local[0][i] == int(i) * step);
  for (const std::vector<int>& tile : local) CHECK(tile == local[0]);
  CHECK(many.front() == 0);
  CHECK(std::count(many.begin(), many.end(), 65) == 1);   // tile 1 starts at its own 0
  CHECK(std::count(many.begin(), many.end(), 195) == 1);  // tile 3 too
  // Little room: each tile's first cell, and a scale in the first tile (the ALiBi slide had only "0" under each).
  CHECK(tile_cell_ticks(0, 260, 65, 5) == std::vector<int>{0, 20, 40, 65, 130, 195});
  // Less room than tiles: every other tile's first cell.
  CHECK(tile_cell_ticks(0, 260, 65, 2) == std::vector<int>{0, 130});
  // A zoomed window keeps only cells whose centres it shows, counted in their own tile.
  for (int cell : tile_cell_ticks(70.2, 100.0, 65, 10)) {
    CHECK(cell + 0.5 >= 70.2);
    CHECK(cell + 0.5 <= 100.0);
  }
  CHECK(tile_cell_ticks(0, 10, 1, 5).empty());
  CHECK(tile_cell_ticks(0, std::numeric_limits<double>::infinity(), 65, 5).empty());
}
