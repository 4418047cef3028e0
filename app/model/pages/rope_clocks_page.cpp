// The RoPE clocks page: every rotary pair as a dial at position t (RoFormer; halves or interleaved pairing).
#include <algorithm>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"

namespace peviz::app {

namespace rope_clocks_local {  // this page's own names (the pages share a unity batch)
namespace {

constexpr auto kSettings = join_settings(
    rope_settings<&PageStates::rope_clocks, &RopeClocksOptions::rope>(limits::clock_head_dim),
    std::array<PageSetting, 2>{{{.key = "position", .help = "The position t whose rotations the dials draw",
                                 .access = member<&PageStates::rope_clocks, &RopeClocksOptions::position>(),
                                 .limit = &limits::rope_position, .full_range = true, .shared_flag = true},
                                {.key = "rope_proportion",
                                 .help = "p-RoPE: the fraction of pairs that turn, the fastest first (Barbero et al. 2024)",
                                 .access = member<&PageStates::rope_clocks, &RopeClocksOptions::rope, &RopeParams::rotated_fraction>(),
                                 .limit = &limits::rope_proportion}}});

void take_model(PageStates& a) {
  a.rope_clocks.rope = single_rope(a.rope_model);
  a.rope_clocks.from_model = true;
}

// The flag, and the knobs still the model's (a knob moved on a page not updated since counts too).
bool follows_model(const PageStates& a) {
  return a.rope_clocks.from_model && a.rope_clocks.rope == single_rope(a.rope_model);
}

void update(AppState& s) {
  RopeClocksOptions& o = s.pages.rope_clocks;
  o.from_model = follows_model(s.pages);  // a knob moved: custom from now on
  o.inv_freq = rope_inv_freq(o.rope);  // validates head_dim and base
  o.angles = rope_clock_angles(o.inv_freq, o.position);
  o.angles_f.assign(o.angles.begin(), o.angles.end());
  const int R = rotary_dim(o.rope);
  const bool halves = o.rope.pairing == RopePairing::halves;
  o.channel_a.clear();
  o.channel_b.clear();
  for (int j = 0; j < R / 2; ++j) {
    o.channel_a.push_back(halves ? j : 2 * j);
    o.channel_b.push_back(halves ? j + R / 2 : 2 * j + 1);
  }
}

void advance(AppState& s, double dt) {
  RopeClocksOptions& o = s.pages.rope_clocks;
  if (!o.animate) return;
  o.position = std::max(o.position + double(o.speed) * dt, 0.0);  // t >= 0 whatever the speed
  s.pages.mark(Page::rope_clocks);
}

bool busy(const AppState& s) { return s.pages.rope_clocks.animate; }

// Columns: pair, inv_freq, angle (rad, wrapped to [0, 2 pi)).
NdArray export_data(const AppState& s) {
  const RopeClocksOptions& o = s.pages.rope_clocks;
  std::vector<float> pair, f, angle;
  for (std::size_t j = 0; j < o.inv_freq.size(); ++j) {
    pair.push_back(float(j));
    f.push_back(float(o.inv_freq[j]));
    angle.push_back(float(o.angles[j]));
  }
  return data_columns({pair, f, angle});
}

std::string caption(const AppState& s) {
  const RopeClocksOptions& o = s.pages.rope_clocks;
  const std::string dot = kCaptionDot;
  const bool partial = o.rope.rotary_dim != 0 && o.rope.rotary_dim != o.rope.head_dim;
  return "RoPE" + dot + rope_model_caption(s.pages, follows_model(s.pages)) + "head_dim " +
         std::to_string(o.rope.head_dim) + (partial ? ", rotary_dim " + std::to_string(o.rope.rotary_dim) : "") + dot + "base " + caption_number(o.rope.base) + dot +
         std::string(to_string(o.rope.pairing)) + dot + "t = " + caption_number(o.position) +
         (o.rope.rotated_fraction < 1.0 ? dot + "p-RoPE p = " + caption_number(o.rope.rotated_fraction) : "");
}

bool read_extra(const nlohmann::json& j, PageStates& a) {
  return read_model_knobs(j, a, knob_keys(kSettings), take_model, a.rope_clocks.from_model);
}

void write_extra(const PageStates& a, nlohmann::json& j) { write_rope_model_json(j, a, follows_model(a)); }

void check(const PageStates& a) { validate(a.rope_clocks.rope); }

}  // namespace
}  // namespace rope_clocks_local

extern const PageModel rope_clocks_page{.name = "rope-clocks", .title = "RoPE clocks", .json_key = "rope_clocks",
                                        .update = rope_clocks_local::update, .advance = rope_clocks_local::advance,
                                        .busy = rope_clocks_local::busy, .export_data = rope_clocks_local::export_data,
                                        .caption = rope_clocks_local::caption,
                                        .settings = rope_clocks_local::kSettings,
                                        .read_extra = rope_clocks_local::read_extra,
                                        .write_extra = rope_clocks_local::write_extra, .extra_keys = kRopeModelKeys, .check = rope_clocks_local::check,
                                        .take_rope_model = rope_clocks_local::take_model,
                                        .follows_rope_model = rope_clocks_local::follows_model,
                                        .parts = kRopeClocksParts};

}  // namespace peviz::app
