// "Nice" axis ticks (1, 2, 5 x 10^k) and their labels: pure functions, no ImGui.
#pragma once
#include <string>
#include <vector>

namespace peviz::plot {

// The 1-2-5 x 10^k step closest to span / target_count (Heckbert, "Nice numbers for graph
// labels", Graphics Gems 1990; the rule ImPlot uses). Returns 0 for an empty or non-finite span.
double nice_step(double span, int target_count);

// Ticks at multiples of nice_step(hi - lo, target_count) inside [lo, hi] (either order); when that step leaves
// fewer than two inside, the step for up to 8 x target_count (an axis needs two ticks for a scale).
// At most 1000 ticks; empty when the range is empty or not finite.
std::vector<double> nice_ticks(double lo, double hi, int target_count);

// Integer-only ticks (positions, channels): like nice_ticks but the step is at least 1.
std::vector<double> nice_integer_ticks(double lo, double hi, int target_count);

// Ticks of a heatmap axis laid out in tiles (the ALiBi heads, the Lab's layer x head maps): each tile has
// `period` - 1 cells followed by a one-cell gutter, and counts its own cells from 0. Returns the cells (global
// indices, cell c spans [c, c + 1)) whose centres lie in [lo, hi], at nice local indices 0, step, 2 step ...
// of every visible tile (none within half a step of the next tile's 0), about `target_count` in all; when the
// tiles are too many for that, only each tile's cell 0 and, in the first tile, about three (a scale: how far a tile
// reaches); every k-th tile's cell 0 when even one per tile is too many. Empty for period < 2 or a non-finite range.
std::vector<int> tile_cell_ticks(double lo, double hi, int period, int target_count);

// Label for a tick, with just enough decimals for `step` ("0.25", "−3"); scientific for steps
// below 1e-4 or values from 1e6 ("5e−08", "1.5e−07", "2e+07"); "0" for a value within rounding
// of zero. Minus signs are the typographic U+2212 "−" (as matplotlib's axes), not the hyphen, which
// reads as a dash beside a tick mark.
std::string format_tick(double value, double step);

// Label for a hover read-out: up to `digits` significant digits, no trailing zeros.
std::string format_value(double value, int digits = 6);

}  // namespace peviz::plot
