// The update step of the analysis pages: recomputes the active page's cached results through core.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/model/app_state.hpp"

namespace peviz::app {

// Before the basic views update: loads a dropped or chosen learned table into s.params. Returns ""
// or the ParamError text (the previous table stays). Never throws.
std::string apply_learned_requests(AppState& s);
// After the basic views update: recomputes the active page when it is dirty (or `params_changed`:
// the sidebar's encoding parameters changed) and advances the RoPE clock animation by `dt` seconds.
// An error (this one or `load_error`) goes to the status line; the previous results stay. Returns true
// when something was recomputed. Never throws.
bool update_analysis(AppState& s, bool params_changed, double dt, const std::string& load_error = "");

// The pages' heatmaps, for the GL layer to attach once.
std::vector<plot::HeatmapImage*> analysis_images(AnalysisState& a);
// True while a page wants frames without input (the clock animation).
bool analysis_busy(const AnalysisState& a);
// Command-line page names ("rope-clocks", ...), and all of them joined by ", ".
std::optional<Page> parse_page(std::string_view name);
std::string page_names();

// Loads `path` (.npy, or .safetensors with `tensor`) as the learned table of s.params.
// Throws ParamError("from-npy" | "from-safetensors", reason).
void load_learned_table(AppState& s, const std::string& path, const std::string& tensor);

// Tiles `heads` L x L matrices into one image, `cols` per row, with one NaN gutter between tiles.
Matrix tile_heads(const Matrix& stacked, int heads, int seq_len, int cols);

}  // namespace peviz::app
