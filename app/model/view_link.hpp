// A link is a view: the window's state <-> a URL fragment of readable key=value pairs (the browser's address).
//
//   view=rope-clocks&theme=light&encoding=binary&d_model=64&base=100&seq_len=256&state=%7B%22alibi%22...
//
// One table of keys, each with its type, read and written through the state JSON (state_json.hpp), so a link is
// validated exactly like a session, a preset or a flag. Keys, in the order they apply:
//   preset=NAME       a preset by name or file stem (presets.hpp), read only
//   lesson=NAME       a lesson in the lesson folders (no paths), step=K its 1-based step (default 1)
//   present           presentation mode (bare, or present=1)
//                     During a lesson view_link writes only these three: the step is the view.
//   view=PAGE         the page, as --view spells it (always written)
//   theme=dark|light, encoding=NAME, d_model=N, base=X, seq_len=N            the sidebar, when not the default
//   state=JSON        every other leaf of state_to_json that differs from a default AppState (percent-encoded,
//                     compact); applying is partial, so it restores them
// Values are percent-encoded (RFC 3986 unreserved characters left as they are). '+' is a literal plus, not a
// space; '%' must start a two-digit hex escape. A key given twice takes its last value.
#pragma once
#include <string>

#include "app/model/app_state.hpp"

namespace peviz::app {

// The fragment (without '#') that reopens what `s` shows. A default AppState gives "view=basics".
std::string view_link(const AppState& s);

// Applies a fragment (with or without its leading '#') to `s`: a link is the whole view, so a fragment with any
// pair first resets what view_link writes to a default AppState's (ending a lesson and presenting), then applies
// the pairs key by key in the table's order. A fragment without pairs, or whose every pair is refused, changes
// nothing. Returns "" when
// every key was understood and applied, else one line naming each key not understood or refused, e.g.
// "link: d_model must be an integer in <the window's range>, got 99999; unknown key foo". Keys that are fine still apply;
// a refused key changes nothing.
std::string apply_view_link(const std::string& fragment, AppState& s);

}  // namespace peviz::app
