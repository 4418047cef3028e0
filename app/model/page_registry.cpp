// The registry of pages, generated from app/model/page_list.hpp, and the helpers the page files share.
#include <cmath>

#include "app/model/page_model.hpp"

namespace peviz::app {

#define PEVIZ_DECLARE_PAGE(id, Options) extern const PageModel id##_page;
PEVIZ_PAGES(PEVIZ_DECLARE_PAGE)
#undef PEVIZ_DECLARE_PAGE

std::span<const PageModel* const> page_models() {
#define PEVIZ_PAGE_ENTRY(id, Options) &id##_page,
  static const PageModel* const pages[] = {PEVIZ_PAGES(PEVIZ_PAGE_ENTRY)};
#undef PEVIZ_PAGE_ENTRY
  static_assert(std::size(pages) == std::size_t(kPageCount));
  return pages;
}

const PageModel& page_model(Page p) { return *page_models()[std::size_t(p)]; }

std::optional<Page> parse_page(std::string_view name) {
  for (int i = 0; i < kPageCount; ++i)
    if (name == page_models()[std::size_t(i)]->name) return Page(i);
  return std::nullopt;
}

std::string page_names() {
  std::string out;
  for (const PageModel* p : page_models()) out += (out.empty() ? "" : ", ") + std::string(p->name);
  return out;
}

void read_page_json(const PageModel& page, const nlohmann::json& j, PageStates& a) {
  const bool knobs_from_model = page.read_extra && page.read_extra(j, a);
  read_settings(j, a, page.settings, knobs_from_model);
  if (page.check) page.check(a);
}

nlohmann::json write_page_json(const PageModel& page, const PageStates& a) {
  nlohmann::json j = write_settings(a, page.settings);
  if (page.write_extra) page.write_extra(a, j);
  return j;
}

bool is_page_part(Page p, std::string_view part) {
  if (part == kStripPart) return uses_sidebar_encoding(p);
  for (const char* name : page_model(p).parts)
    if (part == name) return true;
  return false;
}

void set_heatmap(plot::HeatmapImage& img, const Matrix& m, plot::Colormap map, double vmin, double vmax) {
  img.values = &m;
  ++img.version;
  img.colormap = map;
  img.vmin = vmin;
  img.vmax = vmax > vmin ? vmax : vmin + 1.0;
}

NdArray data_columns(const std::vector<std::vector<float>>& cols) {
  const std::size_t rows = cols.empty() ? 0 : cols[0].size();
  std::vector<float> v(rows * cols.size());
  for (std::size_t c = 0; c < cols.size(); ++c)
    for (std::size_t r = 0; r < rows; ++r) v[r * cols.size() + c] = r < cols[c].size() ? cols[c][r] : NAN;
  return NdArray::from_floats({rows, cols.size()}, std::move(v));
}

}  // namespace peviz::app
