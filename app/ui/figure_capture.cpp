// Offscreen figure rendering: a few ImGui frames of the figure layout into a framebuffer object.
#include "app/ui/figure_capture.hpp"

#include <cfloat>
#include <filesystem>

#include <imgui.h>

#include "app/gfx/screenshot.hpp"
#include "app/media/pdf_file.hpp"
#include "app/model/app_update.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/plot/draw/canvas.hpp"
#include "app/plot/svg_writer.hpp"
#include "app/ui/app_layout.hpp"
#include "app/ui/theme.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

namespace {

// Frames drawn before the capture: the first lays windows out, the second settles sizes that
// depend on the first (wrapped headers, legends), the third is read back. Later frames of an
// animation start from a settled layout: the second frame is read back.
constexpr int kFigureFrames = 3, kAnimationFrames = 2;

void load_ui_scale(Theme theme, float scale) {
  if (const std::string problem = load_fonts(scale); !problem.empty()) throw ParamError("font", problem);
  gfx::upload_fonts();
  apply_theme(theme, scale);
}

// What a capture changes in the window's state and puts back at the end.
struct CaptureSession {
  FigureOptions options;
  int width = 0, height = 0;  // pixels
  gfx::OffscreenTarget target;
  Theme window_theme;
  Page window_page;
  std::string window_status;
  ImVec2 saved_mouse;
  ImVec4 background;
};

CaptureSession begin_capture(AppState& s, const FigureOptions& o, float ui_scale) {
  validate(o);
  CaptureSession c;
  c.options = o;
  c.width = o.width * o.scale;
  c.height = o.height * o.scale;
  c.target = gfx::create_offscreen(c.width, c.height);  // throws before anything changes
  c.window_theme = s.theme;
  c.window_page = s.pages.page;
  c.window_status = s.status;
  if (o.theme) s.theme = *o.theme;
  if (o.view.kind == FigureView::one_page) s.pages.page = o.view.page;
  else if (o.view.kind != FigureView::window) s.pages.page = Page::basics;
  load_ui_scale(s.theme, ui_scale * float(o.scale));
  c.saved_mouse = ImGui::GetIO().MousePos;
  c.background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  c.background.w = o.transparent ? 0.0f : 1.0f;
  return c;
}

// Draws `frames` frames; the last is read back (and recorded into `record` when given).
RgbaImage capture_frames(CaptureSession& c, AppState& s, gfx::HeatmapRenderer& renderer, int frames, plot::DisplayList* record) {
  ImGuiIO& io = ImGui::GetIO();
  for (int f = 0; f < frames; ++f) {
    update_app_state(s);
    const std::string caption = c.options.caption ? figure_caption(s, c.options.view) : std::string();
    gfx::new_imgui_frame();
    io.DisplaySize = ImVec2(float(c.width), float(c.height));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    const bool recorded = record && f == frames - 1;
    if (recorded) {
      *record = plot::DisplayList{float(c.width), float(c.height), ImGui::ColorConvertFloat4ToU32(c.background), {}};
      plot::record_into(record);
    }
    draw_figure(s, c.options.view, caption, c.options.highlight);
    if (recorded) {
      plot::record_into(nullptr);
      plot::trim_top_band(*record, ImGui::GetStyle().WindowPadding.y);  // no blank band where the widgets were
    }
    ImGui::Render();
    gfx::render_heatmaps(renderer, plot::heatmap_placements(), false);
    gfx::bind_offscreen(c.target);
    gfx::draw_imgui(c.width, c.height, c.background);
  }
  return gfx::capture_framebuffer(c.width, c.height, c.options.transparent);
}

void end_capture(CaptureSession& c, AppState& s) {
  gfx::bind_window();
  gfx::destroy(c.target);
  ImGui::GetIO().MousePos = c.saved_mouse;
  s.theme = c.window_theme;
  s.pages.page = c.window_page;
  if (!s.status_is_error) s.status = c.window_status;
  s.fonts_dirty = true;  // the window's own scale and theme come back on its next frame
}

RgbaImage capture(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale, plot::DisplayList* record) {
  CaptureSession c = begin_capture(s, o, ui_scale);
  RgbaImage image = capture_frames(c, s, renderer, kFigureFrames, record);
  end_capture(c, s);
  return image;
}

}  // namespace

RgbaImage capture_figure(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale) {
  return capture(s, renderer, o, ui_scale, nullptr);
}

plot::DisplayList capture_figure_display_list(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o,
                                              float ui_scale) {
  plot::DisplayList list;
  capture(s, renderer, o, ui_scale, &list);
  return list;
}

void save_figure(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale, FigureFormat format,
                 const std::string& path) {
  if (format != FigureFormat::png && o.view.kind == FigureView::window)
    throw ParamError("format", "the whole-window figure is PNG only (vector figures leave widgets out): pick a view");
  // A state the update step refused (status line in red) is not saved as a figure of it.
  const auto refuse_error_state = [&] {
    if (s.status_is_error) throw ParamError(figure_view_name(o.view), s.status);
  };
  if (format == FigureFormat::png) {
    const RgbaImage image = capture_figure(s, renderer, o, ui_scale);
    refuse_error_state();
    write_png_file(path, image, figure_metadata(s, o.view), "out");
    return;
  }
  const plot::DisplayList list = capture_figure_display_list(s, renderer, o, ui_scale);
  refuse_error_state();
  if (format == FigureFormat::svg) plot::write_svg_file(path, list, figure_metadata(s, o.view), "out");
  else media::write_pdf_file(path, list, figure_metadata(s, o.view), "out");
}

void capture_animation(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale, int frames,
                       const std::function<void(int)>& set_frame, const std::function<bool(int, const RgbaImage&)>& take) {
  CaptureSession c = begin_capture(s, o, ui_scale);
  try {
    for (int i = 0; i < frames; ++i) {
      set_frame(i);
      if (!take(i, capture_frames(c, s, renderer, i == 0 ? kFigureFrames : kAnimationFrames, nullptr))) break;
    }
  } catch (...) {
    end_capture(c, s);
    throw;
  }
  end_capture(c, s);
}

}  // namespace peviz::app
