// The one state of the window: parameters, view options, cached results, dirty flags, status.
// Panels and views edit it and draw its cached results; update_app_state() recomputes what is
// dirty before the views draw. Nothing here touches ImGui or GL.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/model/page_states.hpp"
#include "core/binary_analogy.hpp"
#include "app/model/animation.hpp"
#include "app/model/figure_view.hpp"
#include "app/plot/colormap.hpp"
#include "app/plot/heatmap_image.hpp"
#include "app/model/teach_state.hpp"
#include "core/matrix.hpp"
#include "core/params.hpp"
#include "core/similarity.hpp"

namespace peviz::app {

// Work budget of the general (non-Toeplitz) similarity path, in multiply-adds: above it the
// similarity heatmap samples every s-th position.
inline constexpr double kGeneralSimilarityWork = 64e6;

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
  float sidebar_width = 330.0f;  // pixels at zoom 1
  float split_x = 0.5f;          // grid: fraction of the width for the left column
  float split_y = 0.5f;          // grid: fraction of the height for the top row
  BasicsPanel panel = BasicsPanel::waves;  // the view shown when the grid does not fit
};

struct WavesOptions {
  std::string channels_text;      // comma-separated channels; empty = defaults
  int first_position = 0;         // shown position range (clamped to [0, L))
  int last_position = -1;         // -1 = L-1
  bool range_changed = false;     // the range was edited: the plot drops its zoom
};

struct EncodingViewOptions {
  int colormap_choice = 0;  // 0 = automatic (diverging for [-1,1]-ish data), else Colormap + 1
};

struct SimilarityOptions {
  Metric metric = Metric::cosine;
  int colormap_choice = 0;  // 0 = automatic
  int compare_offset = 64;  // second row shown in the line plot: highlight + this
};

struct BinaryOptions {
  int positions = 16;   // table rows 0..positions-1 (2..256)
  float morph = 0.0f;   // 0 = exact base-2 ladder, 1 = the chosen base's frequencies
};

// What must be recomputed before the next draw. Set by panels; cleared by update_app_state.
struct DirtyFlags {
  bool encoding = true;    // params changed: encoding, frequencies, and everything below
  bool similarity = true;  // metric changed
  bool binary = true;      // binary options changed
  bool colors = true;      // colormap choice changed (no recompute, new colour range)
  bool channels = true;    // the waves view's channel list changed (re-resolve it)
  bool any() const { return encoding || similarity || binary || colors || channels; }
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
  std::string open_path;         // the Open dialog's text field
};

// View > Record animation: the sweep, and the recording in progress. The dialog edits it; the frame
// loop captures one frame per window frame (so the progress bar moves) and writes the file.
struct RecordingSettings {
  AnimationSpec spec;            // parameter, from, to, frames, fps
  int format_choice = 0;         // AnimationFormat: 0 GIF, 1 MP4
  int view_choice = -1;          // single_figure_views()[view_choice]; -1: default_animation_view(spec.param)
  int width = 960, height = 540; // frame size in screen units (pixels at the figure scale 1)
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
  EncodingParams params;  // edited by the controls; validated by core in update_app_state
  WavesOptions waves;
  EncodingViewOptions encoding_view;
  SimilarityOptions similarity_view;
  BinaryOptions binary_view;
  PageStates pages;       // which page is shown, each page's options and cached results (page_states.hpp)
  TeachState teach;        // presets, lesson tour, presentation mode (teach_state.hpp)
  int highlight_position = 32;  // highlighted in every view (clamped to [0, L))
  // Set while a single-view figure is drawn (app_layout's draw_figure): the views leave out their input
  // widgets, and the highlighted position unless the figure asks for it (FigureOptions::highlight).
  struct FigureDrawing {
    bool active = false, highlight = false;
  } figure_drawing;
  Theme theme = Theme::dark;
  float ui_zoom = 1.0f;         // user zoom (Ctrl +/-), 0.5..3
  float content_scale = 1.0f;   // monitor content scale (set by the window)
  ViewLayout layout;
  DirtyFlags dirty;
  bool fonts_dirty = true;      // rebuild the font atlas (zoom or scale changed)
  FigureSettings figure;
  RecordingSettings recording;
  bool quit_requested = false;  // File > Quit: the frame loop closes the window (saving the session)
  std::string open_request;     // a .png figure, .npy or .safetensors to open in the next update
  Toast toast;

  // --- cached results (valid for `computed`) ---
  bool has_results = false;
  EncodingParams computed;            // the parameters the results below belong to
  Matrix encoding;                    // L x width, NaN = position past max_len
  std::vector<double> frequencies;    // sinusoid pair frequencies (rad/position) of `computed`
  std::vector<int> wave_channels;     // resolved channel list for the waves view
  std::vector<float> channel_wavelength;  // per channel, positions per cycle (NaN: not periodic)
  std::vector<float> channel_log10_wavelength;  // log10 of the above, for the fast -> slow strip
  Matrix similarity;                  // n x n over positions 0, s, 2s, ... (s = similarity_stride); empty for sinusoids
  ToeplitzSimilarity similarity_toeplitz;  // sinusoidal: the similarity as offsets, O(L) (size 0 otherwise)
  std::vector<float> similarity_rows;  // scratch: the row plot's rows read from similarity_toeplitz
  int similarity_stride = 1;
  Matrix sampled_encoding;            // scratch: every s-th encoding row for the sampled similarity
  BinaryAnalogy binary;
  plot::HeatmapImage encoding_image, similarity_image;

  // --- status ---
  std::string status;           // one line: last error (from core) or a summary
  bool status_is_error = false;
  double last_recompute_ms = 0.0;   // this frame's update step (0: nothing was dirty)
  double change_recompute_ms = 0.0; // the last update step that recomputed something
  double last_frame_ms = 0.0;
  ScreenRegions regions;
};

// Default waves channels for d channels: 0, 1, 2, 3, d/2, d-2, d-1 (deduplicated, < d).
std::vector<int> default_wave_channels(int d);
// Parses "0, 1, 5" (ranges "4-7" allowed) into channels < d; nullopt when malformed.
std::optional<std::vector<int>> parse_channel_list(const std::string& text, int d);

// Marks the parameters changed (everything downstream recomputes).
inline void mark_params_changed(AppState& s) { s.dirty.encoding = true; }

}  // namespace peviz::app
