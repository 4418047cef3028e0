// One descriptor per page: everything the model layer knows of a page, defined in the page's own file
// (app/model/pages/<id>_page.cpp) and registered once through app/model/page_list.hpp.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/page_settings.hpp"
#include "app/model/page_states.hpp"
#include "core/io/nd_array.hpp"

namespace peviz::app {

struct AppState;

struct PageModel {
  const char* name = "";        // command-line spelling: --view, render --view, the state JSON's "page"
  const char* title = "";        // the tab, the status line
  const char* json_key = "";    // the page's options object in the state JSON ("" = none; Basics: its keys in "view")
  bool follows_params = false;  // recomputes when the sidebar's encoding parameters change
  // Kept current whichever page is shown (Basics: the other pages read its results): its update runs first,
  // whenever it is dirty, writes the status line itself and does not throw.
  bool always_current = false;
  // Recomputes the page's cache through core when it is dirty; throws ParamError.
  void (*update)(AppState&) = nullptr;
  // Dirty flags of the page's own, finer than its PageStates::dirty entry (Basics: a new metric recomputes only the
  // similarity): the update also runs while this is true. nullptr = none.
  bool (*pending)(const AppState&) = nullptr;
  // Per frame, before the update: animation (marks the page dirty when it moves); nullptr = none.
  void (*advance)(AppState&, double dt) = nullptr;
  // True while the page wants frames without input (an animation, background work).
  bool (*busy)(const AppState&) = nullptr;
  // While busy: at most one frame per this many seconds without input (0 = every frame, for animations).
  double busy_frame_s = 0.0;
  // File > Export data: the numbers behind the page (columns are documented in its file).
  NdArray (*export_data)(const AppState&) = nullptr;
  // The figure caption; nullptr = the sidebar's encoding (absolute_caption).
  std::string (*caption)(const AppState&) = nullptr;
  // The page's settings, declared once (page_settings.hpp): its options object of the state JSON, its names in the
  // address bar and in `peviz render --set`, their ranges and defaults.
  std::span<const PageSetting> settings = {};
  // What the table cannot express (lists, the loaded RoPE model), read before the table's settings; true when the
  // object names a model whose knobs the page takes (the table's knobs are then not read). Throws ParamError.
  bool (*read_extra)(const nlohmann::json&, PageStates&) = nullptr;
  void (*write_extra)(const PageStates&, nlohmann::json&) = nullptr;
  // The keys read_extra reads: with the table's, the only keys the page's object may hold (any other is refused).
  std::span<const char* const> extra_keys = {};
  // The settings checked together through core (after reading, and by the monkey's per-frame check); throws
  // ParamError. nullptr: the table's ranges suffice.
  void (*check)(const PageStates&) = nullptr;
  // RoPE pages: put the loaded model's knobs on the page (PageStates::rope_model), which then follows it, and
  // whether it still does (its knobs are the model's); nullptr on the other pages.
  void (*take_rope_model)(PageStates&) = nullptr;
  bool (*follows_rope_model)(const PageStates&) = nullptr;
  // The page's heatmaps, for the GL layer to attach once.
  void (*heatmaps)(PageStates&, std::vector<plot::HeatmapImage*>&) = nullptr;
  // The parts of the page a presented lesson step can name in its "show" list (its plots, its groups of
  // controls), in the order the view draws them; the view leaves out the parts a step does not name. Empty: the
  // page is shown whole.
  std::span<const char* const> parts = {};
};

// Every page in tab order (index = Page value).
std::span<const PageModel* const> page_models();
const PageModel& page_model(Page p);
// Command-line page names ("rope-clocks", ...), and all of them joined by ", ".
std::optional<Page> parse_page(std::string_view name);
std::string page_names();
// The page's options object read (every key optional; the page's extras, its table, its check) and written.
void read_page_json(const PageModel& page, const nlohmann::json& j, PageStates& a);
nlohmann::json write_page_json(const PageModel& page, const PageStates& a);
inline const char* page_title(Page p) { return page_model(p).title; }
inline const char* page_name(Page p) { return page_model(p).name; }
// Whether the sidebar's encoding controls (d_model, L, base, ...) change what the page shows: Basics and the
// pages that follow them; the others have their own controls, and the sidebar hides the encoding's.
inline bool uses_sidebar_encoding(Page p) { return p == Page::basics || page_model(p).follows_params; }
// The part of every page that follows the sidebar's encoding (uses_sidebar_encoding): presenting's strip of its
// sliders. A step's "show" list without it leaves the strip out and gives the page its width.
inline constexpr const char* kStripPart = "strip";
// Whether `part` is one of the page's parts (PageModel::parts, and kStripPart where the page shows the strip).
bool is_page_part(Page p, std::string_view part);

// For the page files: set an image to show matrix `m` with `map` over [vmin, vmax] (a new version).
void set_heatmap(plot::HeatmapImage& img, const Matrix& m, plot::Colormap map, double vmin, double vmax);
// For the page files: equal-length columns as a rows x columns float32 array (short columns padded with NaN).
NdArray data_columns(const std::vector<std::vector<float>>& cols);

}  // namespace peviz::app
