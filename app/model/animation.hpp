// Animations of a sweep: which parameter moves, from where to where, in how many frames, at what
// rate, and the state each frame applies. Pure (no ImGui, no GL): the render command and the
// window's View > Record animation both drive capture from it.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/figure_view.hpp"
#include "core/base/limits.hpp"
#include "core/io/png_file.hpp"

namespace peviz::app {

// position: the RoPE clocks' t; base: every page's base (sinusoidal, RoPE, precision, distance);
// d-model and seq-len: the encoding's (and the pages that follow them); factor: context extension;
// lesson: the steps of a lesson (--from / --to: the first and last step, 1-based; `to` 0 = the last
// step), cross-faded.
enum class AnimatedParam { position, base, d_model, seq_len, factor, lesson };
inline constexpr const char* kAnimatedParamNames[] = {"position", "base", "d-model", "seq-len", "factor", "lesson"};
inline constexpr int kAnimatedParamCount = 6;  // the window's dialog and --record offer them all
std::optional<AnimatedParam> parse_animated_param(std::string_view name);
std::string animated_param_names();  // "position, base, d-model, seq-len, factor, lesson"

enum class AnimationFormat { gif, mp4 };
// By the path's extension (".gif", ".mp4", any case); nullopt otherwise.
std::optional<AnimationFormat> animation_format_of_path(std::string_view path);

struct AnimationSpec {
  AnimatedParam param = AnimatedParam::position;
  double from = 0.0, to = 64.0;
  int frames = int(limits::animation_frames.fallback);
  int fps = int(limits::animation_fps.fallback);  // a GIF: at most 50
};
// Throws ParamError("from" | "to" | "frames" | "fps", ...): non-finite or non-positive ends for the
// parameters swept geometrically, frames or fps outside their limits.
void validate(const AnimationSpec& a, AnimationFormat format);

// The value of frame i: linear for position, geometric for the parameters whose limits are
// logarithmic (base, d-model, seq-len) and for factor, so that each decade gets the same time;
// integers rounded (d-model to an even number: sinusoids come in pairs). The last frame is `to`.
double animation_value(const AnimationSpec& a, int frame);

// The view a sweep of `p` shows best: the clocks for position, context extension for factor, the
// waves for base, the encoding for d-model, the similarity for seq-len.
FigureView default_animation_view(AnimatedParam p);

// Frame i of a lesson animation over `steps` steps: each step holds for an equal share of the
// frames, and in the last quarter of its share cross-fades into the next (the last step holds to
// the end). The picture is (1 - mix) * step + mix * next (0-based steps).
struct LessonFrame {
  int step = 0, next = 0;
  double mix = 0.0;
};
inline constexpr double kLessonFadeShare = 0.25;
LessonFrame lesson_frame(int frame, int frames, int steps);

// The steps a lesson animation shows, 1-based: a.from to a.to (a.to 0 = the last step) of a lesson of
// `steps` steps. Throws ParamError("from", ...) naming `source` outside 1..steps or when from > to, and
// ParamError("frames", ...) with fewer frames than steps shown.
struct LessonSpan {
  int first = 1, last = 1;
  int count() const { return last - first + 1; }
};
LessonSpan lesson_span(const AnimationSpec& a, int steps, const std::string& source);
// A sweep's range as a file-name part: "position-0-to-64", "base-100-to-500000", "factor-1-to-32"; a lesson's steps
// shown: "lesson-steps-1-to-7".
std::string sweep_file_part(const AnimationSpec& a);
std::string lesson_file_part(const LessonSpan& span);

// Output frame `frame` of `frames` from the pictures of the steps shown: a step held, or (1 - mix) *
// step + mix * next per byte (lesson_frame). All pictures have one size.
RgbaImage lesson_animation_frame(const std::vector<RgbaImage>& pictures, int frame, int frames);

// A sweep worth watching for `p` (position 0 to 64, base 100 to 500,000, d-model 16 to 512,
// seq-len 16 to 1024, factor 1 to 32, every step of a lesson): the dialog's and --record's starting point, and
// `peviz render --animate`'s --from / --to when they are not given.
AnimationSpec default_sweep(AnimatedParam p, int frames = int(limits::animation_frames.fallback),
                            int fps = int(limits::animation_fps.fallback));

// The partial state (for apply_state_json) that sets the parameter to `value` everywhere it appears.
nlohmann::json animation_patch(AnimatedParam p, double value);

}  // namespace peviz::app
