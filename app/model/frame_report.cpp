// Scripted sweep for --frames/--report, and nearest-rank percentiles of frame times.
#include "app/model/frame_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace peviz::app {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * double(values.size()));
  const std::size_t i = std::size_t(std::max(rank, 1.0)) - 1;
  return values[std::min(i, values.size() - 1)];
}

void apply_sweep_step(AppState& s, const EncodingParams& centre, int frame) {
  EncodingParams& p = s.params;
  switch (frame % 3) {
    case 0: {  // d_model: centre, then down by up to 1/8 in 4 steps
      const int step = std::max(centre.d_model / 32, 1);
      p.d_model = std::max(1, centre.d_model - step * ((frame / 3) % 5));
      break;
    }
    case 1:
      p.base = std::clamp(centre.base * std::pow(10.0, std::sin(frame * 0.37)), limits::base.window_lo(), limits::base.window_hi());
      break;
    case 2: {  // L: centre, then down by up to 1/8 in 4 steps
      const int step = std::max(centre.seq_len / 32, 1);
      p.seq_len = std::max(1, centre.seq_len - step * ((frame / 3) % 5));
      p.base = std::clamp(centre.base * std::pow(10.0, std::cos(frame * 0.29)), limits::base.window_lo(), limits::base.window_hi());
      break;
    }
  }
  mark_params_changed(s);
}

std::string format_report(const FrameStats& st, const std::string& setup, int skip) {
  auto tail = [skip](const std::vector<double>& v) {
    return std::vector<double>(v.begin() + std::min<std::size_t>(skip, v.size()), v.end());
  };
  const auto frames = tail(st.frame_ms), recompute = tail(st.recompute_ms), heatmap = tail(st.heatmap_ms);
  const auto ui = tail(st.ui_ms), draw = tail(st.draw_ms), cpu = tail(st.cpu_ms);
  char buf[1600];
  std::snprintf(buf, sizeof buf,
                "peviz report: %s\n"
                "frames measured: %zu (first %d left out: start-up)\n"
                "frame ms:     median %.2f  p95 %.2f  max %.2f\n"
                "recompute ms: median %.2f  p95 %.2f  max %.2f  (update_app_state after a change, %zu changes)\n"
                "heatmap ms:   median %.2f  p95 %.2f  (resample + upload + colormap pass)\n"
                "ui ms:        median %.2f  p95 %.2f  (views and plots, ImGui::NewFrame .. Render)\n"
                "draw ms:      median %.2f  p95 %.2f  (ImGui's GL draw + swap)\n"
                "cpu ms:       median %.2f  p95 %.2f  (CPU time of peviz per frame, all threads: "
                "independent of other load while it stays under the core count)\n",
                setup.c_str(), frames.size(), skip, percentile(frames, 50), percentile(frames, 95),
                frames.empty() ? std::nan("") : *std::max_element(frames.begin(), frames.end()),
                percentile(recompute, 50), percentile(recompute, 95),
                recompute.empty() ? std::nan("") : *std::max_element(recompute.begin(), recompute.end()),
                recompute.size(), percentile(heatmap, 50), percentile(heatmap, 95), percentile(ui, 50),
                percentile(ui, 95), percentile(draw, 50), percentile(draw, 95), percentile(cpu, 50),
                percentile(cpu, 95));
  return buf;
}

}  // namespace peviz::app
