// Offscreen figure rendering: a few ImGui frames of the figure layout into a framebuffer object.
#include "app/ui/figure_capture.hpp"

#include <cfloat>

#include <imgui.h>

#include "app/ui/app_layout.hpp"
#include "app/model/app_update.hpp"
#include "app/gfx/screenshot.hpp"
#include "app/ui/theme.hpp"

namespace peviz::app {

namespace {

// Frames drawn before the capture: the first lays windows out, the second settles sizes that
// depend on the first (wrapped headers, legends), the third is read back.
constexpr int kFigureFrames = 3;

void load_ui_scale(Theme theme, float scale) {
  load_fonts(scale);
  gfx::upload_fonts();
  apply_theme(theme, scale);
}

}  // namespace

RgbaImage capture_figure(AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& o, float ui_scale) {
  validate(o);
  const int width = o.width * o.scale, height = o.height * o.scale;
  gfx::OffscreenTarget target = gfx::create_offscreen(width, height);  // throws before anything changes

  const Theme window_theme = s.theme;
  const Page window_page = s.analysis.page;
  const std::string window_status = s.status;
  if (o.theme) s.theme = *o.theme;
  if (o.view.kind == FigureView::analysis_page) s.analysis.page = o.view.page;
  else if (o.view.kind != FigureView::window) s.analysis.page = Page::basics;
  load_ui_scale(s.theme, ui_scale * float(o.scale));
  const std::string caption = o.caption ? figure_caption(s, o.view) : std::string();

  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 saved_mouse = io.MousePos;
  ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  background.w = o.transparent ? 0.0f : 1.0f;
  for (int f = 0; f < kFigureFrames; ++f) {
    update_app_state(s);
    gfx::new_imgui_frame();
    io.DisplaySize = ImVec2(float(width), float(height));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    draw_figure(s, o.view, caption);
    ImGui::Render();
    gfx::render_heatmaps(renderer, false);
    gfx::bind_offscreen(target);
    gfx::draw_imgui(width, height, background);
  }
  RgbaImage image = gfx::capture_framebuffer(width, height, o.transparent);
  gfx::bind_window();
  gfx::destroy(target);

  io.MousePos = saved_mouse;
  s.theme = window_theme;
  s.analysis.page = window_page;
  if (!s.status_is_error) s.status = window_status;
  s.fonts_dirty = true;  // the window's own scale and theme come back on its next frame
  return image;
}

}  // namespace peviz::app
