// The window's animation recorder: start, one frame per window frame, finish or cancel.
#include "app/ui/recording.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "app/model/figure_io.hpp"
#include "app/model/lessons.hpp"
#include "app/model/state_json.hpp"
#include "app/ui/figure_capture.hpp"
#include "app/plot/colormap.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

namespace {

void stop(AppState& s, AnimationRecorder& rec) {
  if (rec.saved_teach) s.teach = std::move(*rec.saved_teach);
  if (!rec.saved_state.is_null()) apply_state_json(rec.saved_state, s);  // saved from s: cannot fail
  rec = AnimationRecorder{};
  s.recording.active = false;
  s.recording.cancel_requested = false;
}

// A lesson recording: the lesson chosen (or the first listed), its steps checked, the tour started.
void start_lesson_recording(AppState& s, AnimationRecorder& rec) {
  RecordingSettings& r = s.recording;
  const std::vector<std::string> files = list_lesson_files();
  const std::string name = !r.lesson.empty() ? r.lesson : files.empty() ? std::string() : files.front();
  const std::filesystem::path path = resolve_lesson(name);
  if (path.empty()) throw ParamError("lesson", "no lesson file or name '" + name + "'");
  Lesson lesson = load_lesson_file(path);
  rec.span = lesson_span(r.spec, int(lesson.steps.size()), path.filename().string());
  rec.saved_teach = s.teach;
  start_lesson(s, std::move(lesson), rec.span.first - 1);
  r.total = rec.span.count() + r.spec.frames;
}

// The frames' size: the settings' where given, else the window's, within the figure limits (an MP4's even).
gfx::PixelSize frame_size(const RecordingSettings& r, gfx::PixelSize window, AnimationFormat format) {
  gfx::PixelSize size{r.width > 0 ? r.width : std::min(window.width, kMaxFigureWidth),
                      r.height > 0 ? r.height : std::min(window.height, kMaxFigureHeight)};
  if (format == AnimationFormat::mp4 && r.width <= 0) size.width -= size.width % 2;
  if (format == AnimationFormat::mp4 && r.height <= 0) size.height -= size.height % 2;
  return size;
}

void start(AppState& s, AnimationRecorder& rec, gfx::PixelSize window) {
  RecordingSettings& r = s.recording;
  const AnimationFormat format = r.format_choice == 1 ? AnimationFormat::mp4 : AnimationFormat::gif;
  const gfx::PixelSize size = frame_size(r, window, format);
  validate(r.spec, format);
  const auto views = single_figure_views();
  const FigureView view = r.view_choice >= 0 && r.view_choice < int(views.size()) ? views[std::size_t(r.view_choice)]
                                                                                  : default_animation_view(r.spec.param);
  rec.options = figure_options(s.figure, view, size.width, size.height);
  validate(rec.options);
  if (format == AnimationFormat::gif) rec.gif = std::make_unique<media::GifWriter>(size.width, size.height, r.spec.fps, plot::continuous_colormap_ramps());
  else rec.mp4 = std::make_unique<media::Mp4Writer>(size.width, size.height, r.spec.fps);
  rec.saved_state = state_to_json(s);
  r.total = r.spec.frames;
  const bool lesson = r.spec.param == AnimatedParam::lesson;
  if (lesson) start_lesson_recording(s, rec);
  rec.path = new_animation_path(s, view, lesson ? lesson_file_part(rec.span) : sweep_file_part(r.spec),
                                (long long)std::time(nullptr), format == AnimationFormat::gif ? ".gif" : ".mp4");
  r.active = true;
  r.done = 0;
}

// One unit of work: the next frame of a sweep, or of a lesson the next step's picture, then the next
// frame made from the pictures. Returns the frame to add, if this unit made one.
std::optional<RgbaImage> next_frame(AppState& s, gfx::HeatmapRenderer& renderer, AnimationRecorder& rec, float ui_scale) {
  const RecordingSettings& r = s.recording;
  if (r.spec.param != AnimatedParam::lesson) {
    apply_state_json(animation_patch(r.spec.param, animation_value(r.spec, r.done)), s);
    return capture_figure(s, renderer, rec.options, ui_scale);
  }
  if (r.done < rec.span.count()) {
    go_to_step(s, rec.span.first - 1 + r.done);
    rec.pictures.push_back(capture_figure(s, renderer, rec.options, ui_scale));
    return std::nullopt;
  }
  return lesson_animation_frame(rec.pictures, r.done - rec.span.count(), r.spec.frames);
}

}  // namespace

void step_recording(AppState& s, gfx::HeatmapRenderer& renderer, AnimationRecorder& rec, const RecordingFrame& frame) {
  RecordingSettings& r = s.recording;
  const float ui_scale = frame.ui_scale;
  const double now = frame.now;
  try {
    if (std::exchange(r.start_requested, false) && !r.active) {
      start(s, rec, frame.window);
      return;  // the first capture comes with the next frame, so Cancel can be pressed before any
    }
    if (!r.active) return;
    if (r.cancel_requested) {
      stop(s, rec);
      show_toast(s, "Recording cancelled", false, now);
      return;
    }
    const std::optional<RgbaImage> frame = next_frame(s, renderer, rec, ui_scale);
    if (s.status_is_error) throw ParamError(kAnimatedParamNames[int(r.spec.param)], s.status);
    if (frame) rec.gif ? rec.gif->add_frame(*frame) : rec.mp4->add_frame(*frame);
    if (++r.done < r.total) return;
    rec.gif ? rec.gif->write(rec.path, "out") : rec.mp4->write(rec.path, "out");
    const std::string path = rec.path;
    stop(s, rec);
    s.written_files.push_back(path);  // as every file the window writes: the browser would download it
    show_toast(s, "Animation saved: " + path, false, now);
  } catch (const ParamError& e) {
    stop(s, rec);
    show_toast(s, "Animation not saved: --" + e.param + ": " + e.rule, true, now);
  }
}

}  // namespace peviz::app
