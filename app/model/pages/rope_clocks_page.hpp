// The rope clocks page's options and cached results (its update, export, caption and state JSON: rope_clocks_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/rope/rope.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

// The parts a presented lesson step can name in its "show" list (PageModel::parts), in drawing order: settings:
// pairs, base, pairing, the model line; position: the position slider and its animation; dials: one dial per pair;
// angles: the angle per pair.
inline constexpr const char *kRopeClocksSettings = "settings",
                            *kRopeClocksPosition = "position",
                            *kRopeClocksDials = "dials",
                            *kRopeClocksAngles = "angles";
inline constexpr std::array<const char*, 4> kRopeClocksParts = {
    kRopeClocksSettings,
    kRopeClocksPosition,
    kRopeClocksDials,
    kRopeClocksAngles};

struct RopeClocksOptions {
  RopeParams rope{64, 0, 10000.0, RopePairing::halves};  // head_dim 64: 32 dials
  bool from_model = false;       // `rope` is the loaded model's (PageStates::rope_model); a knob moved clears it
  double position = 12.0;        // t, the position whose rotations are drawn
  bool animate = false;          // sweep t forward every frame
  float speed = float(limits::clock_speed.fallback);  // positions per second while animating
  // cache
  std::vector<double> inv_freq, angles;  // per pair; angle wrapped to [0, 2 pi)
  std::vector<float> angles_f;           // the same as float, for the line plot
  std::vector<int> channel_a, channel_b; // the two channels of each pair for this pairing
};

}  // namespace peviz::app
