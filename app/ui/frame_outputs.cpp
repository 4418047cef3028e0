// What a frame leaves behind on request: the --regions JSON and the F12 figure (see frame_outputs.hpp).
#include "app/ui/frame_outputs.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app/model/figure.hpp"
#include "app/model/figure_io.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/ui/figure_capture.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

void write_regions(const std::string& path, const AppState& s, int width, int height, float scale) {
  auto rect = [scale](const ScreenRect& r) {
    return nlohmann::json::array({r.x0 * scale, r.y0 * scale, r.x1 * scale, r.y1 * scale});
  };
  const ScreenRegions& g = s.regions;
  nlohmann::json plots = nlohmann::json::array();  // every plot and colour bar laid out, as drawn
  for (const plot::DrawnPlot& p : plot::drawn_plots())
    plots.push_back({{"id", p.id}, {"colorbar", p.colorbar},
                     {"rect", rect({p.frame.min.x, p.frame.min.y, p.frame.max.x, p.frame.max.y})}});
  nlohmann::json j = {{"width", width},
                            {"height", height},
                            {"controls", rect(g.controls)},
                            {"waves_plot", rect(g.waves_plot)},
                            {"encoding_heatmap", rect(g.encoding_heatmap)},
                            {"encoding_colorbar", rect(g.encoding_colorbar)},
                            {"similarity_heatmap", rect(g.similarity_heatmap)},
                            {"similarity_colorbar", rect(g.similarity_colorbar)},
                            {"binary_table", rect(g.binary_table)},
                            {"page", {s.pages.plot_region[0] * scale, s.pages.plot_region[1] * scale,
                                      s.pages.plot_region[2] * scale, s.pages.plot_region[3] * scale}}};
  j["plots"] = std::move(plots);
  std::ofstream(path) << j.dump(2) << "\n";
}

// Saves the figure the File menu's settings describe into the figure folder; the toast says where.
void save_requested_figure(AppState& s, gfx::HeatmapRenderer& renderer, gfx::PixelSize window) {
  const FigureSettings& f = s.figure;
  const auto views = single_figure_views();
  FigureView view;
  if (f.view_choice >= 1 && f.view_choice <= int(views.size())) view = views[std::size_t(f.view_choice - 1)];
  // A big window is fitted into the 8K limit at this scale rather than refused.
  FigureOptions o = figure_options(f, view, std::min(window.width, kMaxFigureWidth / f.scale),
                                   std::min(window.height, kMaxFigureHeight / f.scale));
  o.scale = f.scale;
  o.transparent = f.transparent;
  const double now = ImGui::GetTime();
  try {
    const FigureFormat format = chosen_figure_format(o.view, f.format_choice);
    const std::string path =
        new_figure_path(s, o.view, (long long)std::time(nullptr), std::string(".") + kFigureFormatNames[int(format)]);
    save_figure(s, renderer, o, s.content_scale * s.ui_zoom, format, path);
    s.written_files.push_back(path);
    show_toast(s, "Figure saved: " + path + " (" + std::to_string(o.width * o.scale) + " x " +
                      std::to_string(o.height * o.scale) + ")", false, now);
  } catch (const ParamError& e) {
    show_toast(s, "Figure not saved: " + e.rule, true, now);
  }
}

}  // namespace peviz::app
