// View > Record animation in the window: one frame of the sweep captured offscreen per window frame
// (the progress bar moves, Cancel works), into the GIF or MP4 writer, the file path in a toast.
#pragma once
#include <memory>
#include <optional>
#include <vector>
#include <string>

#include <nlohmann/json.hpp>

#include "app/gfx/heatmap_renderer.hpp"
#include "app/gfx/window.hpp"
#include "app/media/gif_file.hpp"
#include "app/media/mp4_file.hpp"
#include "app/model/animation.hpp"
#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"

namespace peviz::app {

// What a recording holds between window frames (the writers live in the UI layer, not in AppState).
struct AnimationRecorder {
  std::unique_ptr<media::GifWriter> gif;
  std::unique_ptr<media::Mp4Writer> mp4;
  nlohmann::json saved_state;  // the window's state before the sweep, put back at the end
  FigureOptions options;
  std::string path;
  // A lesson: the steps shown, their pictures (one capture per window frame), then the frames made
  // from them (one per window frame); the lesson tour the window had before, put back at the end.
  LessonSpan span;
  std::vector<RgbaImage> pictures;
  std::optional<TeachState> saved_teach;
};

// Acts on s.recording: starts (start_requested), captures the next frame, finishes or cancels.
// Called once per window frame after the frame is drawn. Errors go to the toast; the state the
// window had before the sweep comes back in every case.
// What a recording step needs of the window: its size (the frames' when the settings leave it at 0), its text
// scale, the time now (the toast's clock).
struct RecordingFrame {
  gfx::PixelSize window;
  float ui_scale = 1.0f;
  double now = 0.0;
};
void step_recording(AppState& s, gfx::HeatmapRenderer& renderer, AnimationRecorder& rec, const RecordingFrame& frame);

}  // namespace peviz::app
