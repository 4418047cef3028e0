// The window's animation recorder: start, one frame per window frame, finish or cancel.
#include "app/ui/recording.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "app/model/figure_io.hpp"
#include "app/model/state_json.hpp"
#include "app/ui/figure_capture.hpp"
#include "core/errors.hpp"

namespace peviz::app {

namespace {

void stop(AppState& s, AnimationRecorder& rec) {
  if (!rec.saved_state.is_null()) apply_state_json(rec.saved_state, s);  // saved from s: cannot fail
  rec = AnimationRecorder{};
  s.recording.active = false;
  s.recording.cancel_requested = false;
}

void start(AppState& s, AnimationRecorder& rec) {
  RecordingSettings& r = s.recording;
  const AnimationFormat format = r.format_choice == 1 ? AnimationFormat::mp4 : AnimationFormat::gif;
  validate(r.spec, format);
  const auto views = single_figure_views();
  rec.options = FigureOptions{};
  rec.options.view = r.view_choice >= 0 && r.view_choice < int(views.size()) ? views[std::size_t(r.view_choice)]
                                                                               : default_animation_view(r.spec.param);
  rec.options.width = r.width;
  rec.options.height = r.height;
  rec.options.caption = s.figure.caption;
  if (s.figure.theme_choice == 1) rec.options.theme = Theme::dark;
  if (s.figure.theme_choice == 2) rec.options.theme = Theme::light;
  validate(rec.options);
  if (format == AnimationFormat::gif) rec.gif = std::make_unique<media::GifWriter>(r.width, r.height, r.spec.fps);
  else rec.mp4 = std::make_unique<media::Mp4Writer>(r.width, r.height, r.spec.fps);
  const std::filesystem::path folder = figure_folder(s);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  std::filesystem::path name = figure_file_name(s, rec.options.view, (long long)std::time(nullptr));
  name.replace_extension("");
  rec.path = (folder / (name.string() + "-" + kAnimatedParamNames[int(r.spec.param)] +
                        (format == AnimationFormat::gif ? ".gif" : ".mp4"))).string();
  rec.saved_state = state_to_json(s);
  r.active = true;
  r.done = 0;
}

}  // namespace

void step_recording(AppState& s, gfx::HeatmapRenderer& renderer, AnimationRecorder& rec, float ui_scale, double now) {
  RecordingSettings& r = s.recording;
  try {
    if (std::exchange(r.start_requested, false) && !r.active) start(s, rec);
    if (!r.active) return;
    if (r.cancel_requested) {
      stop(s, rec);
      show_toast(s, "Recording cancelled", false, now);
      return;
    }
    apply_state_json(animation_patch(r.spec.param, animation_value(r.spec, r.done)), s);
    const RgbaImage frame = capture_figure(s, renderer, rec.options, ui_scale);
    if (s.status_is_error) throw ParamError(kAnimatedParamNames[int(r.spec.param)], s.status);
    rec.gif ? rec.gif->add_frame(frame) : rec.mp4->add_frame(frame);
    if (++r.done < r.spec.frames) return;
    rec.gif ? rec.gif->write(rec.path, "out") : rec.mp4->write(rec.path, "out");
    const std::string path = rec.path;
    stop(s, rec);
    show_toast(s, "Animation saved: " + path, false, now);
  } catch (const ParamError& e) {
    stop(s, rec);
    show_toast(s, "Animation not saved: --" + e.param + ": " + e.rule, true, now);
  }
}

}  // namespace peviz::app
