// The GL side of every heatmap in the state: attached to one renderer, and drawn by the plots from it.
#include "app/ui/heatmap_pictures.hpp"

#include "app/model/app_update.hpp"
#include "app/plot/draw/plot.hpp"

namespace peviz::app {

void attach_heatmaps(AppState& s, gfx::HeatmapRenderer& r) {
  for (plot::HeatmapImage* img : page_images(s.pages)) gfx::attach(r, *img);
  plot::set_heatmap_texture_source([&r](const plot::HeatmapImage& img) { return gfx::texture_of(r, img); });
}

void release_heatmaps(gfx::HeatmapRenderer& r) {
  plot::set_heatmap_texture_source(nullptr);
  if (r.program) gfx::destroy(r);
}

}  // namespace peviz::app
