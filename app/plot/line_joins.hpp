// Where a thick polyline is split so that its mitred joins stay short: pure screen geometry.
#pragma once

namespace peviz::plot {

// ImGui's anti-aliased thick polyline moves each vertex along the mean of its two segment normals,
// lengthened by 1 / cos(turn / 2) (capped at 10). At a spike (a turn near 180 degrees) that throws
// the outline up to 10 half-widths past the vertex, the quads around it fold over, and a jagged
// line is drawn as broken dashes with peaks that overshoot the data. True when the path
// a -> b -> c turns by more than 120 degrees at b (miter over 2 half-widths): plot_line then ends
// one polyline at b and starts the next there. Zero-length segments never count as sharp.
bool is_sharp_turn(float ax, float ay, float bx, float by, float cx, float cy);

}  // namespace peviz::plot
