// Figures: which view, at what size and scale, with which caption, file name and PNG metadata.
// Pure functions over AppState (no ImGui, no GL); figure_capture.hpp renders them.
#pragma once
#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/app_state.hpp"
#include "app/model/figure_view.hpp"

namespace peviz::app {

// "window", "waves", "encoding", "similarity", "binary", or a page name ("rope-clocks", ...).
std::string figure_view_name(FigureView v);
std::optional<FigureView> parse_figure_view(std::string_view name);
std::string figure_view_names();              // for messages: "window, waves, ..."
std::vector<FigureView> single_figure_views();  // every view but the window, in menu order

// The file format of a single-view figure: PNG (pixels), SVG or PDF (vector: the display list).
enum class FigureFormat { png, svg, pdf };
inline constexpr const char* kFigureFormatNames[] = {"png", "svg", "pdf"};
// "png" | "svg" | "pdf"; nullopt otherwise.
std::optional<FigureFormat> parse_figure_format(std::string_view name);
// The format the figure dialog's choice (an index of kFigureFormatNames) saves `view` in: PNG for the whole
// window, whose widgets a vector figure would leave out; else the choice, clamped into the formats.
inline FigureFormat chosen_figure_format(FigureView view, int choice) {
  constexpr int last = int(std::size(kFigureFormatNames)) - 1;
  return view.kind == FigureView::window ? FigureFormat::png : FigureFormat(std::clamp(choice, 0, last));
}
// The format a path's extension names (".png", ".svg", ".pdf", any case); nullopt otherwise.
std::optional<FigureFormat> figure_format_of_path(std::string_view path);

// The largest figure peviz writes (8K UHD).
inline constexpr int kMaxFigureWidth = int(limits::figure_width.max), kMaxFigureHeight = int(limits::figure_height.max);

struct FigureOptions {
  FigureView view;
  int width = 1600, height = 900;  // screen units (the window's size for the window figure)
  int scale = 1;                   // 1, 2 or 4: the PNG has width*scale x height*scale pixels, fonts rasterised for it
  bool transparent = false;        // no window background (alpha 0 around the panels)
  bool caption = false;            // a caption line with the parameters under the figure
  bool highlight = false;          // draw the highlighted position (single views leave it out unless asked)
  std::optional<Theme> theme;      // the figure's own theme; none = the window's
};
// Throws ParamError("scale" | "width" | "height", ...) naming the limit.
void validate(const FigureOptions& o);

// The view whose parameters a figure of `v` names: `v`, or for the whole window the page shown (Basics: the window,
// whose parameters are the sidebar's encoding).
FigureView described_view(const AppState& s, FigureView v);
// One line with the parameters the view depends on (the window: those of the page shown), e.g.
// "sinusoidal · d_model 128 · base 10000 · L 128 · interleaved" or "ALiBi · 8 heads · L 64 · causal".
std::string figure_caption(const AppState& s, FigureView v);
// Caption pieces the pages' captions share: the field separator, numbers in %.6g, and the sidebar's encoding.
inline constexpr const char* kCaptionDot = " \u00b7 ";
std::string caption_number(double v);
// "1 layer", "4 layers": a count and its noun, plural when the count is not 1.
std::string counted(long long n, const std::string& noun);
std::string absolute_caption(const EncodingParams& p);

// "peviz-<view>-d<d_model>-b<base>-L<seq_len>-<YYYYmmdd-HHMMSS>.png" for figures of the sidebar's encoding
// (the window, Basics' views, the pages that follow it); the others are named after what they depend on, their
// caption as a slug: "peviz-rope-clocks-rope-head-dim-128-base-10000-interleaved-t-12-<stamp>.png". Local time
// `unix_seconds`; a negative time leaves the stamp out, as `peviz render --all` does. During a lesson a figure is
// named after the lesson, its step and the page (lesson_figure_name): the PNG's metadata holds the parameters.
std::string figure_file_name(const AppState& s, FigureView v, long long unix_seconds);
// "peviz-positional-encodings-step09-window-t5-shaw" for the window on step 9, "...-step05-waves" for one view.
std::string lesson_figure_name(const AppState& s, FigureView v);
// "-YYYYmmdd-HHMMSS" in local time; "" for unix_seconds < 0 (the tests' fixed names).
std::string file_time_stamp(long long unix_seconds);

// The PNG text chunks of a figure: "peviz" (JSON: version, view, state_to_json), "Title" (the
// caption) and "Software".
std::map<std::string, std::string> figure_metadata(const AppState& s, FigureView v);

// Reads a figure's "peviz" chunk back: the view it showed and the state to apply. Throws
// ParamError("open", ...) for a PNG without peviz metadata or with a malformed one.
struct FigureMetadata {
  FigureView view;
  nlohmann::json state;
};
FigureMetadata parse_figure_metadata(const std::map<std::string, std::string>& text);

}  // namespace peviz::app
