// The one update step: recomputes what is dirty in AppState (through core) before drawing.
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// Recomputes the dirty cached results. A ParamError from core goes to the status line and the
// previous results stay on screen; nothing throws. Records the time taken in last_recompute_ms
// (0 when nothing was dirty). Returns true when something was recomputed.
bool update_app_state(AppState& s);

// Similarity sampling stride for the general path: 1 when n^2 d fits kGeneralSimilarityWork.
int similarity_stride_for(int seq_len, int width, bool toeplitz);

}  // namespace peviz::app
