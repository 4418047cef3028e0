// The one update step: recomputes what is dirty in AppState (through core, page by page) before drawing.
#pragma once
#include <string>
#include <vector>

#include "app/model/app_state.hpp"

namespace peviz::app {

// Recomputes the dirty cached results: first the pages kept current whichever is shown (Basics, whose results
// the others read), then the shown page (after its animation step). A ParamError from core goes to the status
// line and the previous results stay on screen; nothing throws. Records the time taken in last_recompute_ms
// (0 when nothing was dirty). Returns true when something was recomputed.
bool update_app_state(AppState& s);

// The pages' part of update_app_state: the pages kept current whichever is shown (Basics, which marks the pages that
// follow the sidebar's parameters when they changed), then the shown page's animation by `dt` seconds and its
// update. An error (the shown page's, or `load_error`) goes to the status line; the previous results stay. Returns
// true when something was recomputed. Never throws.
bool update_pages(AppState& s, double dt, const std::string& load_error = "");

// Every page's heatmaps, for the GL layer to attach once.
std::vector<plot::HeatmapImage*> page_images(PageStates& a);
// True while the shown page wants frames without input (the clock animation, training).
bool shown_page_busy(const AppState& s);

// Before the pages update: loads the learned table chosen in the page into s.params. Returns ""
// or the ParamError text (the previous table stays). Never throws. (app/model/pages/learned_page.cpp)
std::string apply_learned_requests(AppState& s);
// Loads `path` (.npy, or .safetensors with `tensor`) as the learned table of s.params.
// Throws ParamError("from-npy" | "from-safetensors", reason). (app/model/pages/learned_page.cpp)
void load_learned_table(AppState& s, const std::string& path, const std::string& tensor);
// Makes `table` the learned encoding of s.params (d_model and max_len from its shape): `source` names it in
// figure captions, `shown` on the Learned tables page. The one way a table enters the state (file, Lab, render).
// (app/model/pages/learned_page.cpp)
void install_learned_table(AppState& s, std::shared_ptr<const Matrix> table, std::string source, std::string shown);
// Opens a .npy or .safetensors file as the learned table and shows the Learned tables page; all or nothing:
// throws ParamError as load_learned_table does, the page, the table and the options as they were.
// (app/model/pages/learned_page.cpp)
void open_learned_file(AppState& s, const std::string& path);

// Tiles `heads` L x L matrices into one image, `cols` per row, with one NaN gutter between tiles.
// (app/model/pages/alibi_page.cpp)
Matrix tile_heads(const Matrix& stacked, int heads, int seq_len, int cols);

}  // namespace peviz::app
