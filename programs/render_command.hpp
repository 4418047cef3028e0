// `peviz render`: one view (or every view) drawn without user interaction into a PNG, through the
// same drawing code as the window, in a hidden window (needs a display: X or Xvfb).
#pragma once
#include <CLI/CLI.hpp>

namespace peviz::app {

void register_render(CLI::App& app);

}  // namespace peviz::app
