// The one state of the window: the sidebar's parameters, every page's options, cached results and dirty flags
// (`pages`), the window's settings, status. Panels and views edit it and draw its cached results;
// update_app_state() recomputes what is dirty before the views draw. Nothing here touches ImGui or GL.
#pragma once
#include <string>

#include "app/model/animation.hpp"
#include "app/model/file_browser.hpp"
#include "app/model/figure_view.hpp"
#include "app/model/page_states.hpp"
#include "app/model/teach_state.hpp"
#include "app/plot/colormap.hpp"
#include "core/base/limits.hpp"
#include "core/encodings/params.hpp"

namespace peviz::app {

enum class Theme { dark, light };

// The Basics page's four views. When the window cannot hold them as a 2 x 2 grid at a readable size (a
// projector at 1280 x 720), the page shows one at a time under tabs; lesson steps name the one they talk about.
enum class BasicsPanel { waves, encoding, similarity, binary };
struct BasicsPanelInfo {
  BasicsPanel panel;
  const char* name;   // state JSON and lessons ("panel")
  const char* title;  // its tab
};
inline constexpr BasicsPanelInfo kBasicsPanels[] = {{BasicsPanel::waves, "waves", "Waves"},
                                                    {BasicsPanel::encoding, "encoding", "Encoding heatmap"},
                                                    {BasicsPanel::similarity, "similarity", "Similarity"},
                                                    {BasicsPanel::binary, "binary", "Binary-bit analogy"}};

// Sizes of the fixed arrangement: a sidebar and a 2 x 2 grid of views (remembered between runs).
struct ViewLayout {
  float sidebar_width = float(limits::sidebar_width.fallback);  // pixels at zoom 1
  float split_x = float(limits::pane_split.fallback);  // grid: fraction of the width for the left column
  float split_y = float(limits::pane_split.fallback);  // grid: fraction of the height for the top row
  BasicsPanel panel = BasicsPanel::waves;  // the view shown when the grid does not fit
};

struct ScreenRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
// Where the key parts landed on screen last frame (for the screenshot test's pixel checks).
struct ScreenRegions {
  ScreenRect controls, waves_plot, encoding_heatmap, encoding_colorbar, similarity_heatmap,
      similarity_colorbar, binary_table;
};

// Saving figures (F12, File menu) and the data behind a view. Edited by the File menu; the frame
// loop (figures need GL) and the update step (data export, open) act on the requests.
struct FigureSettings {
  std::string folder;            // where F12 saves; empty = default_figure_folder()
  int scale = 1;                 // 1, 2 or 4
  bool transparent = false;
  bool caption = true;           // a caption line with the parameters
  int theme_choice = 0;          // 0 = the window's theme, 1 = dark, 2 = light
  int view_choice = 0;           // 0 = the whole window, i = single_figure_views()[i - 1]
  int format_choice = 0;         // FigureFormat: 0 PNG, 1 SVG, 2 PDF (the whole window is always PNG)
  bool save_requested = false;   // F12 or File > Save figure: saved after this frame is drawn
  // Data export (File > Export data): the view's data as CSV or NPY into `folder`.
  bool export_requested = false;
  FigureView export_view;
  bool export_npy = false;
  // Dialogs of the File menu: opened on the next frame (a menu item cannot open a popup itself).
  bool open_dialog_requested = false, settings_dialog_requested = false;
  FileBrowser open_browser;      // the Open dialog's folder, list, filter and path field
};

// View > Record animation: the sweep, and the recording in progress. The dialog edits it; the frame
// loop captures one frame per window frame (so the progress bar moves) and writes the file.
struct RecordingSettings {
  AnimationSpec spec;            // parameter, from, to, frames, fps
  int format_choice = 0;         // AnimationFormat: 0 GIF, 1 MP4
  int view_choice = -1;          // single_figure_views()[view_choice]; -1: default_animation_view(spec.param)
  int width = 0, height = 0;     // frame size in screen units (pixels at the figure scale 1); 0: the window's
  bool dialog_requested = false; // open the dialog on the next frame
  bool start_requested = false;  // Start pressed: the frame loop sets up the writer
  std::string lesson;            // lesson: its file or name (empty: the first lesson listed)
  bool active = false;           // recording: `done` of `total` units of work so far
  int done = 0;
  int total = 0;                 // frames; for a lesson, its steps' captures plus the frames
  bool cancel_requested = false;
};

// A short message in the corner (saved figure path, or what went wrong), shown until `until`
// (ImGui time in seconds).
struct Toast {
  std::string text;
  bool is_error = false;
  double until = 0.0;
};

struct AppState {
  // --- inputs ---
  EncodingParams params;  // the sidebar's encoding, which Basics and the pages that follow it compute from
  PageStates pages;       // which page is shown, each page's options and cached results (page_states.hpp)
  TeachState teach;        // presets, lesson tour, presentation mode (teach_state.hpp)
  int highlight_position = 32;  // highlighted in every view (clamped to [0, L))
  // Set while a single-view figure is drawn (app_layout's draw_figure): the views leave out their input
  // widgets, and the highlighted position unless the figure asks for it (FigureOptions::highlight).
  // `offscreen`: any figure is drawn, the whole window's too: the buttons that only act in the window
  // (presenting's Controls and Leave, the lesson's Prev, Next and End) are left out of it.
  struct FigureDrawing {
    bool active = false, highlight = false, offscreen = false;
  } figure_drawing;
  Theme theme = Theme::dark;
  float ui_zoom = 1.0f;         // user zoom (Ctrl +/-), 0.5..3
  float content_scale = 1.0f;   // monitor content scale (set by the window)
  ViewLayout layout;
  bool fonts_dirty = true;      // rebuild the font atlas (zoom or scale changed)
  FigureSettings figure;
  RecordingSettings recording;
  bool quit_requested = false;  // File > Quit: the frame loop closes the window (saving the session)
  std::string open_request;     // a .png figure, .npy or .safetensors to open in the next update
  std::vector<std::string> recent_files;  // opened by any means, newest first (at most kMostRecentFiles); in the session
  // Files written for the user since the frame loop last took them (figures, exported data, lab runs): the
  // browser hands each over as a download (gfx::deliver_file); on the desktop they stay where they are.
  std::vector<std::string> written_files;
  Toast toast;

  // --- status ---
  std::string status;           // one line: last error (from core) or a summary
  bool status_is_error = false;
  double last_recompute_ms = 0.0;   // this frame's update step (0: nothing was dirty)
  double change_recompute_ms = 0.0; // the last update step that recomputed something
  double last_frame_ms = 0.0;
  ScreenRegions regions;
};

// Marks the sidebar's parameters changed: Basics recomputes everything, and with it the pages that follow them.
inline void mark_params_changed(AppState& s) { s.pages.basics.dirty.encoding = true; }

}  // namespace peviz::app
