// `--frames N --report`: the scripted parameter sweep and the frame-time statistics.
#pragma once
#include <string>
#include <vector>

#include "app/model/app_state.hpp"

namespace peviz::app {

struct FrameStats {
  std::vector<double> frame_ms;      // whole frame: events, update, UI, GL, swap
  std::vector<double> recompute_ms;  // update_app_state, frames where something was dirty
  std::vector<double> heatmap_ms;    // resample + upload + colormap pass of the heatmaps
  std::vector<double> ui_ms;         // ImGui::NewFrame .. ImGui::Render (views, plots: CPU)
  std::vector<double> draw_ms;       // ImGui's GL draw + buffer swap (the software rasteriser)
  std::vector<double> cpu_ms;        // CPU time of this process per frame, all threads (rasteriser too)
};

// p-th percentile (0..100) by nearest rank; NaN for no data.
double percentile(std::vector<double> values, double p);

// Frame i of the sweep, around `centre`: every frame changes one of base (two frames in three),
// d_model or L, so each frame recomputes like a drag. d and L only step down from the centre
// (within 1/8), base swings over a decade each way.
void apply_sweep_step(AppState& s, const EncodingParams& centre, int frame);

// The report printed at exit: setup line, frame median/p95/max, recompute and heatmap medians/p95.
// `skip` first frames (start-up: allocation, first uploads) are left out and said so.
std::string format_report(const FrameStats& stats, const std::string& setup, int skip);

}  // namespace peviz::app
