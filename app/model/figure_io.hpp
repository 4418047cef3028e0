// Files behind the File menu: opening a figure PNG (restores its parameters), the data behind a
// view as CSV / NPY, and where figures go. No ImGui, no GL.
#pragma once
#include <filesystem>
#include <string>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "core/io/nd_array.hpp"

namespace peviz::app {

// $HOME/Pictures/peviz when HOME is set (XDG_PICTURES_DIR lives in user-dirs.dirs, not in the
// environment), else the current folder.
std::filesystem::path default_figure_folder();
// The folder F12 saves into: the configured one, else default_figure_folder().
std::filesystem::path figure_folder(const AppState& s);

// A new file's path in figure_folder (created when missing): figure_file_name's for `v` at unix_seconds, its
// ".png" replaced by `ending` (".svg", ".csv"). F12's figures, the data export and recordings.
std::string new_figure_path(const AppState& s, FigureView v, long long unix_seconds, const std::string& ending);
// A recording's path there: "peviz-<view>-<sweep>-<time><ending>", the sweep named by its range (sweep_file_part),
// not by the swept value the window happened to show when it started.
std::string new_animation_path(const AppState& s, FigureView v, const std::string& sweep, long long unix_seconds,
                               const std::string& ending);
// The File menu's figure settings for `v` at width x height screen units: its caption and theme (scale and
// transparency are the still figure's own: F12 sets them).
FigureOptions figure_options(const FigureSettings& f, FigureView v, int width, int height);

// True for the file names of figures peviz writes and opens: .png, .svg, .pdf.
bool is_figure_file_name(const std::string& path);

// Reads a figure saved by peviz (PNG, SVG or PDF, told apart by their first bytes) and applies its
// parameters (state_json) and view. Throws ParamError ("open", ...) for an unreadable file, a
// figure without peviz metadata or invalid parameters; the state is unchanged then.
void open_figure(AppState& s, const std::string& path);

// The numbers the view draws, as peviz export would write them (see README, "The data behind a
// view"). Throws ParamError when the view has nothing computed.
NdArray view_data(const AppState& s, FigureView v);

// Writes view_data atomically as CSV or NPY at new_figure_path; returns the path written. Throws
// ParamError("out", ...).
std::string export_view_data(const AppState& s, FigureView v, bool npy, long long unix_seconds);

// Opens any file peviz reads, by its name and first bytes: a figure (.png, .svg, .pdf: its parameters), a lab
// experiment or run, a model's config.json, else a learned table (.npy, .safetensors). Returns the line that
// says what opened, and puts the file first in s.recent_files. All or nothing: throws ParamError("open", why) for
// a missing, truncated or foreign file (why does not repeat the path: the caller names it), and the state is
// unchanged then.
std::string open_file(AppState& s, const std::string& path);

// Acts on s.open_request (open_file: what opened goes to the toast, a refusal to the toast and the status
// line) and s.figure.export_requested.
void handle_file_requests(AppState& s, double now_seconds, long long unix_seconds);

// Shows `text` in the corner for a few seconds.
void show_toast(AppState& s, std::string text, bool is_error, double now_seconds);

}  // namespace peviz::app
