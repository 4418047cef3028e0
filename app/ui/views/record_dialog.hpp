// View > Record animation: the dialog that sets up a sweep, and the progress window while it records.
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// The "Record animation" dialog (opened by s.recording.dialog_requested; Start sets start_requested)
// and, while s.recording.active, a progress bar with Cancel. Edits s.recording only; the frame loop
// (ui/recording.hpp) captures and writes.
void draw_record_dialog(AppState& s);

}  // namespace peviz::app
