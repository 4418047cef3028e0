// The plotting layer: axes, ticks, zoom/pan, line series, heatmap images, read-out (legend and notes: plot_annotations.cpp).
#include "app/plot/draw/plot.hpp"

#include <algorithm>
#include <utility>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <imgui_internal.h>

#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/plot_annotations.hpp"
#include "app/plot/draw/plot_context.hpp"
#include "app/plot/line_joins.hpp"
#include "app/plot/plot_ticks.hpp"

namespace peviz::plot {

namespace {

// The plot being built (plots do not nest), in the current ImGui context's plotting state.
CurrentPlot& current_plot() { return context().plot; }

// Tableau 10, then six more so a 12-series chart (the distance chart) and the Lab's 15 encodings repeat no colour
// (the 11th a green-teal, the last three magenta, lime and salmon, each keeping 3:1 contrast on both themes'
// backgrounds).
constexpr int kPaletteSize = 16;
constexpr ImU32 kPalette[kPaletteSize] = {IM_COL32(31, 119, 180, 255), IM_COL32(255, 127, 14, 255),
                                IM_COL32(44, 160, 44, 255),  IM_COL32(214, 39, 40, 255),
                                IM_COL32(148, 103, 189, 255), IM_COL32(140, 86, 75, 255),
                                IM_COL32(227, 119, 194, 255), IM_COL32(127, 127, 127, 255),
                                IM_COL32(188, 189, 34, 255), IM_COL32(23, 190, 207, 255),
                                IM_COL32(0, 150, 110, 255),  IM_COL32(255, 200, 40, 255),
                                IM_COL32(110, 110, 255, 255), IM_COL32(200, 50, 170, 255),
                                IM_COL32(120, 180, 0, 255),  IM_COL32(250, 128, 114, 255)};

ImGuiID storage_key(const char* what, ImGuiID plot_id) { return ImHashStr(what, 0, plot_id); }
ImGuiID storage_key(const char* what) { return storage_key(what, current_plot().id); }

struct Tick {
  double position;  // data value where the tick is drawn
  std::string label;
};

// `tile_period` > 0: a tiled heatmap's axis, labelled by the cell index inside each tile.
std::vector<Tick> axis_ticks(AxisRange r, unsigned flags, int target, int tile_period = 0) {
  std::vector<Tick> out;
  const double lo = std::min(r.min, r.max), hi = std::max(r.min, r.max);
  if ((flags & axis_cells) && tile_period > 0) {
    for (int cell : tile_cell_ticks(lo, hi, tile_period, target))
      out.push_back({cell + 0.5, format_tick(cell % tile_period, 1.0)});
  } else if (flags & axis_cells) {
    for (double v : nice_integer_ticks(lo - 0.5, hi - 0.5, target))
      out.push_back({v + 0.5, format_tick(v, 1.0)});
  } else if (flags & axis_integer) {
    for (double v : nice_integer_ticks(lo, hi, target)) out.push_back({v, format_tick(v, 1.0)});
  } else {
    const double step = nice_step(hi - lo, target);
    for (double v : nice_ticks(lo, hi, target)) out.push_back({v, format_tick(v, step)});
  }
  return out;
}

int x_tick_target() { return std::max(2, int(current_plot().area.GetWidth() / (6.0f * ImGui::GetFontSize()))); }
int y_tick_target() { return std::max(2, int(current_plot().area.GetHeight() / (2.5f * ImGui::GetFontSize()))); }

AxisRange load_range(const char* min_key, const char* max_key, AxisRange fallback) {
  ImGuiStorage* st = ImGui::GetStateStorage();
  if (!st->GetBool(storage_key("user"), false)) return fallback;
  return {st->GetFloat(storage_key(min_key), float(fallback.min)),
          st->GetFloat(storage_key(max_key), float(fallback.max))};
}

void store_ranges() {
  CurrentPlot& plot = current_plot();
  ImGuiStorage* st = ImGui::GetStateStorage();
  st->SetBool(storage_key("user"), true);
  st->SetFloat(storage_key("x.min"), float(plot.xmap.range.min));
  st->SetFloat(storage_key("x.max"), float(plot.xmap.range.max));
  st->SetFloat(storage_key("y.min"), float(plot.ymap.range.min));
  st->SetFloat(storage_key("y.max"), float(plot.ymap.range.max));
}

// Lays out the inner plot area for the current ranges (the left margin fits the y labels).
void layout_area() {
  CurrentPlot& plot = current_plot();
  const float fs = ImGui::GetFontSize();
  const float pad = 0.4f * fs;
  ImRect area(plot.frame.Min + ImVec2(0, fs + pad), plot.frame.Max - ImVec2(pad, 2.0f * fs + 2 * pad));
  plot.area = area;  // provisional, for the y tick count
  float widest = ImGui::CalcTextSize("0").x;
  if (!(plot.y_flags & axis_no_labels))
    for (const Tick& t : axis_ticks(plot.ymap.range, plot.y_flags, y_tick_target()))
      widest = std::max(widest, ImGui::CalcTextSize(t.label.c_str()).x);
  area.Min.x += widest + 2 * pad;
  area.Max.x -= plot.legend_right;
  area.Min.y += plot.legend_top;
  if (area.GetWidth() < 10) area.Max.x = area.Min.x + 10;
  if (area.GetHeight() < 10) area.Max.y = area.Min.y + 10;
  plot.area = area;
  const bool inverted = plot.y_flags & axis_inverted;
  plot.xmap.pixel_min = area.Min.x;
  plot.xmap.pixel_max = area.Max.x;
  plot.ymap.pixel_min = inverted ? area.Min.y : area.Max.y;
  plot.ymap.pixel_max = inverted ? area.Max.y : area.Min.y;
}

Region region_at(ImVec2 p) {
  CurrentPlot& plot = current_plot();
  const ImRect& a = plot.area;
  if (a.Contains(p)) return Region::area;
  if (p.x >= a.Min.x && p.x <= a.Max.x && p.y > a.Max.y && p.y <= plot.frame.Max.y) return Region::x_axis;
  if (p.y >= a.Min.y && p.y <= a.Max.y && p.x >= plot.frame.Min.x && p.x < a.Min.x) return Region::y_axis;
  return Region::none;
}

double min_span(unsigned flags, AxisRange def) {
  return (flags & (axis_cells | axis_integer)) ? 1.0 : std::max(1e-12, 1e-6 * std::abs(def.span()));
}

void handle_input() {
  CurrentPlot& plot = current_plot();
  ImGuiIO& io = ImGui::GetIO();
  const bool zoom_x = !(plot.x_flags & axis_locked), zoom_y = !(plot.y_flags & axis_locked);
  bool changed = false;
  if (plot.hover != Region::none && io.MouseWheel != 0.0f) {
    const double factor = std::exp(-0.2 * io.MouseWheel);
    if (zoom_x && plot.hover != Region::y_axis) {
      plot.xmap.range = zoom_range(plot.xmap.range, pixel_to_data(plot.xmap, io.MousePos.x), factor);
      changed = true;
    }
    if (zoom_y && plot.hover != Region::x_axis) {
      plot.ymap.range = zoom_range(plot.ymap.range, pixel_to_data(plot.ymap, io.MousePos.y), factor);
      changed = true;
    }
  }
  const float threshold = io.MouseDragThreshold;
  if (plot.held && io.MouseDragMaxDistanceSqr[0] > threshold * threshold &&
      (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
    const Region from = region_at(io.MouseClickedPos[0]);
    if (zoom_x && from != Region::y_axis && from != Region::none) {
      plot.xmap.range = pan_range(plot.xmap, io.MouseDelta.x);
      changed = true;
    }
    if (zoom_y && from != Region::x_axis && from != Region::none) {
      plot.ymap.range = pan_range(plot.ymap, io.MouseDelta.y);
      changed = true;
    }
  }
  if (changed) {
    plot.xmap.range = sanitize_range(plot.xmap.range, plot.x_default, min_span(plot.x_flags, plot.x_default));
    plot.ymap.range = sanitize_range(plot.ymap.range, plot.y_default, min_span(plot.y_flags, plot.y_default));
    store_ranges();
  }
  if (plot.hover != Region::none && ImGui::IsMouseDoubleClicked(0)) {
    ImGui::GetStateStorage()->SetBool(storage_key("user"), false);
    plot.xmap.range = plot.x_default;
    plot.ymap.range = plot.y_default;
  }
  plot.clicked = plot.hover == Region::area && ImGui::IsMouseReleased(0) &&
                   io.MouseDragMaxDistanceSqr[0] <= threshold * threshold &&
                   plot.area.Contains(io.MouseClickedPos[0]);
}

void draw_background_and_grid() {
  CurrentPlot& plot = current_plot();
  const ImRect& a = plot.area;
  if (!(plot.flags & plot_no_background)) canvas_rect_filled(a.Min, a.Max, style_color(ImGuiCol_FrameBg));
  const ImU32 grid = style_color(ImGuiCol_Text, 0.10f);
  for (const Tick& t : axis_ticks(plot.xmap.range, plot.x_flags, x_tick_target())) {
    const float x = data_to_pixel(plot.xmap, t.position);
    canvas_line(ImVec2(x, a.Min.y), ImVec2(x, a.Max.y), grid);
  }
  for (const Tick& t : axis_ticks(plot.ymap.range, plot.y_flags, y_tick_target())) {
    const float y = data_to_pixel(plot.ymap, t.position);
    canvas_line(ImVec2(a.Min.x, y), ImVec2(a.Max.x, y), grid);
  }
}

void draw_axes() {
  CurrentPlot& plot = current_plot();
  const ImRect& a = plot.area;
  const float fs = ImGui::GetFontSize();
  const float pad = 0.4f * fs;
  const ImU32 text = style_color(ImGuiCol_Text);
  canvas_rect(a.Min, a.Max, style_color(ImGuiCol_Border));
  for (const Tick& t : axis_ticks(plot.xmap.range, plot.x_flags, x_tick_target(), plot.tile_period)) {
    const float x = data_to_pixel(plot.xmap, t.position);
    canvas_line(ImVec2(x, a.Max.y), ImVec2(x, a.Max.y + pad), text);
    if (plot.x_flags & axis_no_labels) continue;
    const float w = ImGui::CalcTextSize(t.label.c_str()).x;
    const float left = std::clamp(x - 0.5f * w, plot.frame.Min.x, plot.frame.Max.x - w);  // stay inside
    canvas_text_at(ImVec2(left + 0.5f * w, a.Max.y + pad), HAlign::center, VAlign::top, text, t.label.c_str());
  }
  for (const Tick& t : axis_ticks(plot.ymap.range, plot.y_flags, y_tick_target(), plot.tile_period)) {
    const float y = data_to_pixel(plot.ymap, t.position);
    canvas_line(ImVec2(a.Min.x - pad, y), ImVec2(a.Min.x, y), text);
    if (plot.y_flags & axis_no_labels) continue;
    canvas_text_at(ImVec2(a.Min.x - pad - 2, y), HAlign::right, VAlign::middle, text, t.label.c_str());
  }
  canvas_text_at(ImVec2(a.GetCenter().x, a.Max.y + pad + fs), HAlign::center, VAlign::top, text, plot.x_label);
  canvas_text(ImVec2(plot.frame.Min.x, plot.frame.Min.y), text, plot.y_label);
  if (*plot.title)  // centred over the area, kept clear of the y label
    canvas_text_at(ImVec2(std::max(a.GetCenter().x, plot.frame.Min.x + ImGui::CalcTextSize(plot.y_label).x +
                                                        0.5f * ImGui::CalcTextSize(plot.title).x + fs),
                          plot.frame.Min.y),
                   HAlign::center, VAlign::top, text, plot.title);
}

bool in_legend(const Series& s) { return !std::string_view(s.label).starts_with("##"); }

// The distinct RGB colours of `series`, and the names of those whose colour no legend entry has (drawn_plots.hpp).
std::pair<int, std::vector<std::string>> series_colors(const std::vector<Series>& series) {
  constexpr ImU32 kRgb = 0x00FFFFFFu;
  std::vector<ImU32> colors, named;
  for (const Series& s : series) {
    if (std::find(colors.begin(), colors.end(), s.color & kRgb) == colors.end()) colors.push_back(s.color & kRgb);
    if (in_legend(s)) named.push_back(s.color & kRgb);
  }
  std::vector<std::string> unnamed;
  for (const Series& s : series)
    if (std::find(named.begin(), named.end(), s.color & kRgb) == named.end())
      unnamed.emplace_back(in_legend(s) ? s.label : s.label + 2);
  return {int(colors.size()), unnamed};
}

// Index of the sample of `s` nearest to data x, or -1 (x more than half a step outside the samples).
int nearest_sample(const Series& s, double x) {
  if (s.xs) {
    if (s.count <= 0) return -1;
    if (x < s.xs[0] || x > s.xs[s.count - 1]) {  // beyond an end: that end, within half its step
      const int e = x < s.xs[0] ? 0 : s.count - 1;
      const double step = s.count > 1 ? double(e == 0 ? s.xs[1] - s.xs[0] : s.xs[e] - s.xs[e - 1]) : 1.0;
      return std::abs(x - s.xs[e]) <= 0.5 * step ? e : -1;
    }
    int i = int(std::lower_bound(s.xs, s.xs + s.count, float(x)) - s.xs);
    if (i > 0 && x - s.xs[i - 1] < s.xs[i] - x) --i;
    return i;
  }
  if (s.count <= 0 || s.dx == 0.0) return -1;
  const double i = std::round((x - s.x0) / s.dx);
  if (i < 0 || i >= s.count) return -1;
  return int(i);
}

// The read-out of a tiled heatmap's cell: its tile and the query and key inside it, or the gutter.
std::string tile_readout(const HeatmapImage& h, int row, int col, float v) {
  const int period = h.tile_side + 1, i = row % period, j = col % period;
  const int tile = (row / period) * h.tiles_across + col / period;
  if (i == h.tile_side || j == h.tile_side || tile >= h.tile_count) return "between the tiles";
  const std::string name = h.tiles_are_layers ? "layer " + std::to_string(row / period + 1) + ", head " +
                                                   std::to_string(col / period + 1)
                                             : "head " + std::to_string(tile);  // 0-based, as the tiles' h0, h1, ...
  return name + ": query i " + std::to_string(i) + ", key j " +
         std::to_string(j) + "\n" + current_plot().heatmap_label + ": " + (std::isnan(v) ? nan_hover(h.nan_meaning) : format_value(v));
}

void draw_readout() {
  CurrentPlot& plot = current_plot();
  if (plot.hover != Region::area || ImGui::IsMouseDragging(0)) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImRect& a = plot.area;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const ImU32 cross = style_color(ImGuiCol_Text, 0.35f);
  dl->AddLine(ImVec2(m.x, a.Min.y), ImVec2(m.x, a.Max.y), cross);
  dl->AddLine(ImVec2(a.Min.x, m.y), ImVec2(a.Max.x, m.y), cross);
  const double mx = plot.mouse_data.x, my = plot.mouse_data.y;
  std::string text;
  if (HeatmapImage* h = plot.heatmap; h && has_values(h->values)) {
    const double col = std::floor(mx / h->cell_width), row = std::floor(my / h->cell_height);
    if (col >= 0 && row >= 0 && col < double(value_cols(h->values)) && row < double(value_rows(h->values))) {
      const float v = value_at(h->values, std::size_t(row), std::size_t(col));
      const double x = col * h->cell_width, y = row * h->cell_height;
      text = h->tile_side > 0 ? tile_readout(*h, int(row), int(col), v)
                              : std::string(plot.y_label) + " " + format_value(y) + ", " + plot.x_label + " " +
                                    format_value(x) + "\n" + plot.heatmap_label + ": " +
                                    (std::isnan(v) ? nan_hover(h->nan_meaning) : format_value(v));
      const ImVec2 p0 = data_to_screen(x, y), p1 = data_to_screen(x + h->cell_width, y + h->cell_height);
      dl->AddRect(ImMin(p0, p1), ImMax(p0, p1), style_color(ImGuiCol_Text));
    }
  }
  bool x_written = false;
  for (const Series& s : plot.series) {
    const int i = nearest_sample(s, mx);
    if (i < 0) continue;
    const double x = s.x_at(i);
    const float v = s.values[std::size_t(i) * s.stride];
    if (!x_written) {
      if (!text.empty()) text += "\n";
      text += std::string(plot.x_label) + " = " + format_value(x);
      x_written = true;
    }
    const bool hidden = std::string_view(s.label).starts_with("##");  // legend-less: name after ##
    const char* name = hidden ? s.label + 2 : s.label;
    const char* end = hidden ? name + std::strlen(name) : ImGui::FindRenderedTextEnd(s.label);
    text += '\n';
    text.append(name, end);
    text += ": ";
    text += std::isnan(v) ? std::string("missing") : format_value(v);
    if (!std::isnan(v)) dl->AddCircleFilled(data_to_screen(x, s.y_offset + v), 3.5f, s.color);
  }
  if (text.empty()) text = std::string(plot.x_label) + " = " + format_value(mx, 5) + "\n" + plot.y_label + " = " + format_value(my, 5);
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(text.c_str());
  ImGui::EndTooltip();
}

}  // namespace

void reset_zoom(const char* id) { ImGui::GetStateStorage()->SetBool(storage_key("user", ImGui::GetID(id)), false); }

float legend_room_above(const char* id) {
  return ImGui::GetStateStorage()->GetFloat(storage_key("legend.top", ImGui::GetID(id)), 0.0f);
}

bool begin_plot(const char* id, ImVec2 size, unsigned flags) {
  CurrentPlot& plot = current_plot();
  IM_ASSERT(!plot.active && "plots do not nest: call end_plot first");
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return false;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0.0f) size.x = std::max(avail.x, 60.0f);
  if (size.y <= 0.0f) size.y = std::max(avail.y, 60.0f);
  const ImGuiID gid = window->GetID(id);
  const ImRect frame(window->DC.CursorPos, window->DC.CursorPos + size);
  ImGui::ItemSize(frame);
  note_drawn_plot({id, {frame.Min, frame.Max}, false, {}, {}, 0, {}});
  if (!ImGui::ItemAdd(frame, gid)) return false;
  bool hovered = false, held = false;
  ImGui::ButtonBehavior(frame, gid, &hovered, &held, ImGuiButtonFlags_MouseButtonLeft);
  plot.active = true;
  plot.ready = false;
  plot.id = gid;
  plot.flags = flags;
  plot.frame = frame;
  plot.held = held;
  plot.hover = Region::none;
  plot.clicked = false;
  plot.series.clear();
  plot.drawn.clear();
  plot.notes.clear();
  plot.pending_notes.clear();
  plot.legend_right = ImGui::GetStateStorage()->GetFloat(storage_key("legend.right", gid), 0.0f);
  plot.legend_top = ImGui::GetStateStorage()->GetFloat(storage_key("legend.top", gid), 0.0f);
  plot.palette_next = 0;
  plot.heatmap = nullptr;
  plot.tile_period = 0;
  // Hover regions need the area; setup_axes fills them in. Remember raw hover for now.
  plot.hover = hovered ? Region::area : Region::none;
  return true;
}

void setup_axes(const char* x_label, const char* y_label, AxisRange x_default, AxisRange y_default,
                unsigned x_flags, unsigned y_flags) {
  CurrentPlot& plot = current_plot();
  IM_ASSERT(plot.active && !plot.ready);
  const bool hovered = plot.hover != Region::none;
  plot.x_label = x_label;
  plot.y_label = y_label;
  plot.title = "";
  plot.x_default = x_default;
  plot.y_default = y_default;
  plot.x_flags = x_flags;
  plot.y_flags = y_flags;
  plot.xmap.range = load_range("x.min", "x.max", x_default);
  plot.ymap.range = load_range("y.min", "y.max", y_default);
  layout_area();
  plot.hover = hovered ? region_at(ImGui::GetIO().MousePos) : Region::none;
  handle_input();
  layout_area();
  plot.mouse_data = ImVec2(float(pixel_to_data(plot.xmap, ImGui::GetIO().MousePos.x)),
                             float(pixel_to_data(plot.ymap, ImGui::GetIO().MousePos.y)));
  plot.ready = true;
  draw_background_and_grid();
  canvas_push_clip(plot.area.Min, plot.area.Max);
}

AxisRange current_x_range() { return current_plot().xmap.range; }
AxisRange current_y_range() { return current_plot().ymap.range; }

ImVec2 data_to_screen(double x, double y) {
  return ImVec2(data_to_pixel(current_plot().xmap, x), data_to_pixel(current_plot().ymap, y));
}

namespace {

// How far past the plot area an obstacle still matters to the legend (one sampling step).
constexpr float kObstacleMargin = 4.0f;

// Clips the segment a -> b to the plot area grown by the margin (Liang-Barsky). False when it misses the area
// or is not finite: a value the user can make enormous never turns into an enormous number of obstacles.
bool clip_to_area(ImVec2& a, ImVec2& b) {
  CurrentPlot& plot = current_plot();
  const float lo_x = plot.area.Min.x - kObstacleMargin, hi_x = plot.area.Max.x + kObstacleMargin;
  const float lo_y = plot.area.Min.y - kObstacleMargin, hi_y = plot.area.Max.y + kObstacleMargin;
  if (!(std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(b.x) && std::isfinite(b.y))) return false;
  const double dx = double(b.x) - a.x, dy = double(b.y) - a.y;
  double t0 = 0.0, t1 = 1.0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {double(a.x) - lo_x, hi_x - double(a.x), double(a.y) - lo_y, hi_y - double(a.y)};
  for (int k = 0; k < 4; ++k) {
    if (p[k] == 0.0) {
      if (q[k] < 0.0) return false;
      continue;
    }
    const double t = q[k] / p[k];
    if (p[k] < 0.0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  b = ImVec2(float(a.x + t1 * dx), float(a.y + t1 * dy));
  a = ImVec2(float(a.x + t0 * dx), float(a.y + t0 * dy));
  return true;
}

// Points every few pixels along the part of segment a -> b over the plot area (its ends excluded) into the
// legend's obstacles: at most the area's diagonal over the step.
void drawn_segment(ImVec2 a, ImVec2 b) {
  if (!clip_to_area(a, b)) return;
  const float length = std::hypot(b.x - a.x, b.y - a.y);
  const int steps = int(length / kObstacleMargin);
  std::vector<Point>& drawn = current_plot().drawn;
  for (int k = 1; k < steps; ++k) {
    const float t = float(k) / float(steps);
    drawn.push_back({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)});
  }
}

// One drawn sample as an obstacle, where it can meet the legend.
void drawn_point(ImVec2 p) {
  ImVec2 a = p, b = p;
  if (clip_to_area(a, b)) current_plot().drawn.push_back({p.x, p.y});
}

// A decimated column's vertical bar as obstacles: its part over the plot area, every few pixels.
void drawn_column(float px, float y0, float y1) {
  ImVec2 a(px, std::min(y0, y1)), b(px, std::max(y0, y1));
  if (!clip_to_area(a, b)) return;
  const int steps = int((b.y - a.y) / kObstacleMargin);
  std::vector<Point>& drawn = current_plot().drawn;
  for (int k = 0; k <= steps; ++k) drawn.push_back({px, a.y + float(k) * kObstacleMargin});
  drawn.push_back({px, b.y});
}

}  // namespace

void plot_band(const float* x, const float* lo, const float* hi, int count, ImU32 color) {
  IM_ASSERT(current_plot().ready);
  auto broken = [&](int i) { return std::isnan(x[i]) || std::isnan(lo[i]) || std::isnan(hi[i]); };
  for (int i = 0; i + 1 < count; ++i) {  // one convex quad per segment
    if (broken(i) || broken(i + 1)) continue;
    const ImVec2 quad[4] = {data_to_screen(x[i], lo[i]), data_to_screen(x[i + 1], lo[i + 1]),
                            data_to_screen(x[i + 1], hi[i + 1]), data_to_screen(x[i], hi[i])};
    canvas_convex_filled(quad, 4, color);
    for (int k = 0; k < 4; ++k) drawn_segment(quad[k], quad[(k + 1) % 4]);  // the legend keeps off the band too
  }
}


namespace {

// Draws samples [first, last] of the series just pushed.
void draw_series(const Series& s, int first, int last, float thickness) {
  CurrentPlot& plot = current_plot();
  const ImU32 color = s.color;
  const int stride = s.stride;
  const double y_offset = s.y_offset;
  const float* values = s.values;
  const float width = std::max(plot.area.GetWidth(), 1.0f);
  const bool decimate = (last - first + 1) > 2.0f * width;
  ImVector<ImVec2>& pts = plot.points;
  pts.resize(0);
  auto flush = [&] {
    if (pts.Size >= 2) canvas_polyline(pts.Data, pts.Size, color, thickness);
    pts.resize(0);
  };
  if (!decimate) {
    for (int i = first; i <= last; ++i) {
      const float v = values[std::size_t(i) * stride];
      if (std::isnan(v)) { flush(); continue; }
      const ImVec2 p = data_to_screen(s.x_at(i), y_offset + v);
      if (pts.Size >= 2) {
        const ImVec2 a = pts[pts.Size - 2], b = pts[pts.Size - 1];
        if (is_sharp_turn(a.x, a.y, b.x, b.y, p.x, p.y)) {  // a spike: no long miter at b
          flush();
          pts.push_back(b);
        }
      }
      if (pts.Size >= 1) drawn_segment(pts[pts.Size - 1], p);
      pts.push_back(p);
      drawn_point(p);
    }
  } else {
    // More samples than pixels: per pixel column, one 1-pixel bar from the column's minimum to its
    // maximum (joined to the previous column's last value). Every peak stays visible, and the
    // rasteriser fills each covered pixel once instead of under many overlapping line segments.
    const float thick = std::max(1.0f, std::round(thickness));
    float prev = NAN;
    int i = first;
    while (i <= last) {
      // Each column takes at least its first sample, so a pixel that is not finite or too large for a float's
      // integers (x beyond 2^24 pixels) still moves on.
      const float px = std::floor(data_to_pixel(plot.xmap, s.x_at(i)));
      float lo = INFINITY, hi = -INFINITY, end_value = NAN;
      do {
        const float v = values[std::size_t(i) * stride];
        end_value = v;
        if (!std::isnan(v)) { lo = std::min(lo, v); hi = std::max(hi, v); }
        ++i;
      } while (i <= last && data_to_pixel(plot.xmap, s.x_at(i)) < px + 1.0f);
      if (lo <= hi && std::isfinite(px)) {
        if (!std::isnan(prev)) { lo = std::min(lo, prev); hi = std::max(hi, prev); }
        const float y0 = data_to_pixel(plot.ymap, y_offset + hi), y1 = data_to_pixel(plot.ymap, y_offset + lo);
        canvas_rect_filled(ImVec2(px, std::min(y0, y1) - 0.5f * thick), ImVec2(px + 1.0f, std::max(y0, y1) + 0.5f * thick), color);
        drawn_column(px, y0, y1);
      }
      prev = end_value;
    }
  }
  flush();
}

}  // namespace

void plot_line(const char* label, const float* values, int count, double x0, double dx, int stride,
               ImU32 color, float thickness, double y_offset) {
  CurrentPlot& plot = current_plot();
  IM_ASSERT(plot.ready);
  if (color == 0) color = series_color(plot.palette_next++);
  plot.series.push_back({label, values, count, x0, dx, std::max(stride, 1), color, y_offset});
  if (count <= 0 || values == nullptr || dx <= 0.0) return;
  const AxisRange xr = plot.xmap.range;
  // In double before the int: an axis far from the samples (or not finite) clamps instead of overflowing.
  const auto index_at = [&](double i, int if_nan) { return std::isnan(i) ? if_nan : int(std::clamp(i, 0.0, double(count - 1))); };
  const int first = index_at(std::floor((std::min(xr.min, xr.max) - x0) / dx) - 1.0, 0);
  const int last = index_at(std::ceil((std::max(xr.min, xr.max) - x0) / dx) + 1.0, count - 1);
  draw_series(plot.series.back(), first, last, thickness);
}

void plot_line(const char* label, const float* x, const float* y, int count, ImU32 color, float thickness) {
  CurrentPlot& plot = current_plot();
  IM_ASSERT(plot.ready);
  if (color == 0) color = series_color(plot.palette_next++);
  plot.series.push_back({label, y, count, 0.0, 1.0, 1, color, 0.0, x});
  if (count <= 0 || x == nullptr || y == nullptr) return;
  const AxisRange xr = plot.xmap.range;  // the samples on screen, and one more on each side
  const int first = int(std::lower_bound(x, x + count, float(std::min(xr.min, xr.max))) - x) - 1;
  const int last = int(std::upper_bound(x, x + count, float(std::max(xr.min, xr.max))) - x);
  draw_series(plot.series.back(), std::clamp(first, 0, count - 1), std::clamp(last, 0, count - 1), thickness);
}

void set_heatmap_texture_source(HeatmapTextureSource source) { context().texture_source = std::move(source); }

void plot_heatmap(HeatmapImage& img, const char* value_label) {
  CurrentPlot& plot = current_plot();
  IM_ASSERT(plot.ready);
  plot.heatmap = &img;
  plot.heatmap_label = value_label;
  plot.tile_period = img.tile_side > 0 && img.cell_width == 1.0 && img.cell_height == 1.0 ? img.tile_side + 1 : 0;
  if (!has_values(img.values)) return;
  const double cw = img.cell_width, ch = img.cell_height;
  const double cols = double(value_cols(img.values)) * cw, rows = double(value_rows(img.values)) * ch;
  const AxisRange xr = plot.xmap.range, yr = plot.ymap.range;
  const double x_lo = std::max(0.0, std::min(xr.min, xr.max)), x_hi = std::min(cols, std::max(xr.min, xr.max));
  const double y_lo = std::max(0.0, std::min(yr.min, yr.max)), y_hi = std::min(rows, std::max(yr.min, yr.max));
  if (x_lo >= x_hi || y_lo >= y_hi) return;
  // Snap the image to whole pixels so one texel maps onto one pixel.
  ImVec2 p0 = data_to_screen(x_lo, y_lo), p1 = data_to_screen(x_hi, y_hi);
  ImVec2 min(std::round(std::min(p0.x, p1.x)), std::round(std::min(p0.y, p1.y)));
  ImVec2 max(std::round(std::max(p0.x, p1.x)), std::round(std::max(p0.y, p1.y)));
  HeatmapWindow w;
  w.x_left = pixel_to_data(plot.xmap, min.x) / cw;
  w.x_right = pixel_to_data(plot.xmap, max.x) / cw;
  w.y_top = pixel_to_data(plot.ymap, min.y) / ch;
  w.y_bottom = pixel_to_data(plot.ymap, max.y) / ch;
  w.width = int(max.x - min.x);
  w.height = int(max.y - min.y);
  w.width = std::min(w.width, kMaxHeatmapImageSide);  // a bigger plot stretches the image
  w.height = std::min(w.height, kMaxHeatmapImageSide);
  if (w.width > 0 && w.height > 0) note_heatmap_placement({&img, w, {min.x, min.y}, {max.x, max.y}});
  HeatmapRect picture{{min.x, min.y}, {max.x, max.y}, img.values, w, img.colormap, img.vmin, img.vmax, img.nan_meaning,
                      nullptr, nullptr, {1, 1}};
  const HeatmapTextureSource& textures = context().texture_source;
  if (ImTextureID texture = textures ? textures(img) : nullptr) {
    picture.texture = texture;
    const TextureSize size = heatmap_texture_size(w.width, w.height);  // what the GL layer allocates
    picture.uv_max = {float(w.width) / float(size.width), float(w.height) / float(size.height)};
  } else {
    ImGui::GetWindowDrawList()->AddRectFilled(min, max, style_color(ImGuiCol_FrameBgHovered));  // no GL (headless)
  }
  canvas_heatmap(picture);
}

void plot_vline(double x, ImU32 color, float thickness) {
  CurrentPlot& plot = current_plot();
  const float px = data_to_pixel(plot.xmap, x);
  const ImVec2 a(px, plot.area.Min.y), b(px, plot.area.Max.y);
  canvas_line(a, b, color, thickness);
  drawn_segment(a, b);
}

void plot_hline(double y, ImU32 color, float thickness) {
  CurrentPlot& plot = current_plot();
  const float py = data_to_pixel(plot.ymap, y);
  const ImVec2 a(plot.area.Min.x, py), b(plot.area.Max.x, py);
  canvas_line(a, b, color, thickness);
  drawn_segment(a, b);
}

void plot_title(const char* title) { current_plot().title = title; }

void plot_text(double x, double y, const char* text, ImU32 color) {
  current_plot().pending_notes.push_back({data_to_screen(x, y), text, color});
}

bool plot_hovered() { return current_plot().hover == Region::area; }
ImVec2 mouse_data_position() { return current_plot().mouse_data; }
bool plot_clicked() { return current_plot().clicked; }

void end_plot() {
  CurrentPlot& plot = current_plot();
  IM_ASSERT(plot.active && "end_plot without begin_plot");
  if (!plot.ready) setup_axes("", "", {0, 1}, {0, 1});
  draw_plot_notes(plot.area, plot.pending_notes, plot.drawn, plot.notes);
  canvas_pop_clip();
  draw_axes();
  std::vector<LegendEntry> entries;
  for (const Series& s : plot.series)
    if (in_legend(s)) entries.push_back({s.label, s.color});
  const LegendDrawn legend = draw_plot_legend(entries, plot.frame, plot.area, {plot.legend_right, plot.legend_top},
                                              plot.drawn, plot.notes);
  ImGuiStorage* st = ImGui::GetStateStorage();
  st->SetFloat(storage_key("legend.right"), legend.next_room.right);
  st->SetFloat(storage_key("legend.top"), legend.next_room.top);
  const auto [colors, unnamed] = series_colors(plot.series);
  note_plot_area_and_legend({plot.area.Min, plot.area.Max}, legend.box, colors, unnamed);
  draw_readout();
  plot.active = false;
  plot.ready = false;
  plot.series.clear();
  plot.heatmap = nullptr;
}

ImU32 series_color(int i) { return kPalette[((i % kPaletteSize) + kPaletteSize) % kPaletteSize]; }

}  // namespace peviz::plot
