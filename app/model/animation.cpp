// Sweep values and the state keys each animated parameter sets.
#include "app/model/animation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "app/model/page_model.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz::app {

namespace {

bool geometric(AnimatedParam p) { return p != AnimatedParam::position && p != AnimatedParam::lesson; }

}  // namespace

std::optional<AnimatedParam> parse_animated_param(std::string_view name) {
  for (int i = 0; i <= int(AnimatedParam::lesson); ++i)
    if (name == kAnimatedParamNames[i]) return AnimatedParam(i);
  return std::nullopt;
}

std::string animated_param_names() {
  std::string out;
  for (const char* n : kAnimatedParamNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

std::optional<AnimationFormat> animation_format_of_path(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return std::nullopt;
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) c = char(std::tolower((unsigned char)c));
  if (ext == "gif") return AnimationFormat::gif;
  if (ext == "mp4") return AnimationFormat::mp4;
  return std::nullopt;
}

namespace {
// The limit of the value a parameter sweeps (the window's range: the state each frame applies is checked against
// it); nullptr for a lesson's steps (lesson_span checks those).
const Limit* swept_limit(AnimatedParam p) {
  switch (p) {
    case AnimatedParam::position: return &limits::rope_position;
    case AnimatedParam::base: return &limits::base;
    case AnimatedParam::d_model: return &limits::d_model;
    case AnimatedParam::seq_len: return &limits::seq_len;
    case AnimatedParam::factor: return &limits::factor;
    case AnimatedParam::lesson: return nullptr;
  }
  return nullptr;
}
}  // namespace

void validate(const AnimationSpec& a, AnimationFormat format) {
  for (auto [name, v] : {std::pair{"from", a.from}, std::pair{"to", a.to}}) {
    if (!std::isfinite(v)) throw ParamError(name, "must be a finite number");
    if (const Limit* l = swept_limit(a.param)) try {  // named as --from / --to, not as the parameter of frame 0
        check_window_real(*l, v);
      } catch (const ParamError& e) {
        throw ParamError(name, e.rule);  // the geometric sweeps' limits start at 1: no end is 0 or negative
      }
  }
  check_int(limits::animation_frames, a.frames);
  check_int(limits::animation_fps, a.fps);
  if (format == AnimationFormat::gif && a.fps > 50)
    throw ParamError("fps", "a GIF plays at most 50 frames per second (delays are whole hundredths; viewers slow shorter ones), got " +
                                std::to_string(a.fps));
}

double animation_value(const AnimationSpec& a, int frame) {
  const double t = a.frames > 1 ? double(frame) / double(a.frames - 1) : 0.0;
  double v = geometric(a.param) ? a.from * std::pow(a.to / a.from, t) : a.from + (a.to - a.from) * t;
  if (a.frames > 1 && frame == a.frames - 1) v = a.to;
  if (a.param == AnimatedParam::d_model) return std::max(2.0, 2.0 * std::round(v / 2.0));
  if (a.param == AnimatedParam::seq_len) return std::round(v);
  return v;
}

nlohmann::json animation_patch(AnimatedParam p, double value) {
  nlohmann::json j = nlohmann::json::object();
  if (p == AnimatedParam::lesson) return j;  // steps apply their own states (go_to_step)
  // The sidebar's value of that name, and every page setting the shared flag of that name sets (as render's does).
  const std::string name = kAnimatedParamNames[int(p)];
  const nlohmann::json number = value;
  const nlohmann::json whole = std::lround(value);
  if (p == AnimatedParam::base) j["params"]["base"] = number;
  if (p == AnimatedParam::d_model) j["params"]["d_model"] = whole;
  if (p == AnimatedParam::seq_len) j["params"]["seq_len"] = whole;
  for (const auto& [flag, refs] : shared_page_flags())
    if (flag == name)
      for (const PageSettingRef& ref : refs)
        j[ref.page->json_key][ref.setting->key] = ref.setting->access.type == SettingType::integer ? whole : number;
  return j;
}

LessonFrame lesson_frame(int frame, int frames, int steps) {
  LessonFrame f;
  if (steps <= 1 || frames <= 0) return f;
  const double share = double(frames) / steps, position = double(std::clamp(frame, 0, frames - 1)) / share;
  f.step = std::min(int(position), steps - 1);
  f.next = f.step;
  const double local = position - f.step, fade_start = 1.0 - kLessonFadeShare;
  if (f.step < steps - 1 && local > fade_start) {
    f.next = f.step + 1;
    f.mix = (local - fade_start) / kLessonFadeShare;
  }
  return f;
}

LessonSpan lesson_span(const AnimationSpec& a, int steps, const std::string& source) {
  LessonSpan span{int(std::lround(a.from)), a.to == 0.0 ? steps : int(std::lround(a.to))};
  if (span.first < 1 || span.last > steps || span.first > span.last)
    throw ParamError("from", "--from and --to are steps 1.." + std::to_string(steps) + " of " + source +
                                 " (from <= to), got " + std::to_string(span.first) + ".." + std::to_string(span.last));
  if (a.frames < span.count())
    throw ParamError("frames", "must be at least the number of steps shown (" + std::to_string(span.count()) + ")");
  return span;
}

std::string sweep_file_part(const AnimationSpec& a) {
  char range[64];
  std::snprintf(range, sizeof range, "-%.10g-to-%.10g", animation_value(a, 0), animation_value(a, a.frames - 1));
  return kAnimatedParamNames[int(a.param)] + std::string(range);
}

std::string lesson_file_part(const LessonSpan& span) {
  return "lesson-steps-" + std::to_string(span.first) + "-to-" + std::to_string(span.last);
}

RgbaImage lesson_animation_frame(const std::vector<RgbaImage>& pictures, int frame, int frames) {
  const LessonFrame lf = lesson_frame(frame, frames, int(pictures.size()));
  const RgbaImage& a = pictures[std::size_t(lf.step)];
  if (lf.mix <= 0.0) return a;
  const RgbaImage& b = pictures[std::size_t(lf.next)];
  RgbaImage out = a;
  for (std::size_t i = 0; i < out.pixels.size(); ++i)
    out.pixels[i] = std::uint8_t(std::lround((1.0 - lf.mix) * a.pixels[i] + lf.mix * b.pixels[i]));
  return out;
}

FigureView default_animation_view(AnimatedParam p) {
  switch (p) {
    case AnimatedParam::position: return {FigureView::one_page, Page::rope_clocks};
    case AnimatedParam::factor: return {FigureView::one_page, Page::context_extension};
    case AnimatedParam::base: return {FigureView::waves};
    case AnimatedParam::d_model: return {FigureView::encoding};
    case AnimatedParam::seq_len: return {FigureView::similarity};
    case AnimatedParam::lesson: return {FigureView::window};
  }
  return {FigureView::encoding};
}

// A sweep worth watching for each parameter (dials turning, base 100 to 500,000).
AnimationSpec default_sweep(AnimatedParam p, int frames, int fps) {
  switch (p) {
    case AnimatedParam::position: return {p, 0.0, 64.0, frames, fps};
    case AnimatedParam::base: return {p, 100.0, 500000.0, frames, fps};
    case AnimatedParam::d_model: return {p, 16.0, 512.0, frames, fps};
    case AnimatedParam::seq_len: return {p, 16.0, 1024.0, frames, fps};
    case AnimatedParam::factor: return {p, 1.0, 32.0, frames, fps};
    case AnimatedParam::lesson: return {p, 1.0, 0.0, frames, fps};  // to 0: the last step
  }
  return {p, 0.0, 1.0, frames, fps};
}

}  // namespace peviz::app
