// A plot's legend and text notes, placed off its data and drawn through the canvas.
#include "app/plot/draw/plot_annotations.hpp"

#include <algorithm>

#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/plot.hpp"

namespace peviz::plot {

namespace {

// An entry's shown label (the text before "##") in lines no wider than `width`: a label wider than the plot is
// wrapped, never cut by the plot's clip.
struct WrappedEntry {
  std::vector<std::string> lines;
  float width = 0.0f;  // the widest line's
  ImU32 color = 0;
};

WrappedEntry wrap_entry(const LegendEntry& e, float width) {
  WrappedEntry w{wrap_text(std::string(e.label, ImGui::FindRenderedTextEnd(e.label)).c_str(), width), 0.0f, e.color};
  if (w.lines.empty()) w.lines.emplace_back();
  for (const std::string& line : w.lines) w.width = std::max(w.width, ImGui::CalcTextSize(line.c_str()).x);
  return w;
}

// Lines of text the legend's entries take when they flow across `width` (each: swatch, label, a gap; a row as tall
// as its tallest entry).
int legend_rows(const std::vector<WrappedEntry>& entries, float width, float swatch, float pad) {
  int lines = 0, row_lines = 0;
  float x = 0.0f;
  for (const WrappedEntry& e : entries) {
    const float w = swatch + 3 * pad + e.width;
    if (x > 0.0f && x + w > width) lines += row_lines, row_lines = 0, x = 0.0f;
    row_lines = std::max(row_lines, int(e.lines.size()));
    x += w;
  }
  return lines + row_lines;
}

void draw_legend_entry(const WrappedEntry& e, ImVec2 at, float swatch, float pad) {
  const float fs = ImGui::GetFontSize();
  canvas_line(ImVec2(at.x + pad, at.y + 0.5f * fs), ImVec2(at.x + pad + swatch, at.y + 0.5f * fs), e.color, 3.0f);
  for (std::size_t k = 0; k < e.lines.size(); ++k)
    canvas_text(ImVec2(at.x + 2 * pad + swatch, at.y + float(k) * fs), style_color(ImGuiCol_Text), e.lines[k].c_str());
}

}  // namespace

void draw_plot_notes(const ImRect& area, const std::vector<PendingNote>& pending, const std::vector<Point>& drawn,
                     std::vector<Box>& notes) {
  const float step = 0.5f * ImGui::GetFontSize();
  const int tries = std::max(6, int(area.GetHeight() / step));  // the whole height, both ways
  for (const PendingNote& n : pending) {
    const ImVec2 size = ImGui::CalcTextSize(n.text.c_str());
    const Point at = place_note({area.Min.x, area.Min.y, area.Max.x, area.Max.y}, {n.anchor.x, n.anchor.y}, size.x,
                                size.y, step, tries, drawn, notes);
    canvas_text(ImVec2(at.x, at.y), n.color, n.text.c_str());
    notes.push_back({at.x, at.y, at.x + size.x, at.y + size.y});
  }
}

LegendDrawn draw_plot_legend(const std::vector<LegendEntry>& entries, const ImRect& frame, const ImRect& a,
                             LegendRoom room, std::vector<Point>& drawn, std::vector<Box>& notes) {
  if (entries.empty()) return {};
  const float fs = ImGui::GetFontSize();
  const float swatch = 1.2f * fs, pad = 0.3f * fs;
  std::vector<WrappedEntry> wrapped;
  float widest = 0.0f;
  int lines = 0;
  for (const LegendEntry& e : entries) {  // no wider than the area, where the legend goes when nothing else fits
    wrapped.push_back(wrap_entry(e, std::max(a.GetWidth() - swatch - 5 * pad, 4 * fs)));
    widest = std::max(widest, wrapped.back().width);
    lines += int(wrapped.back().lines.size());
  }
  const Box area{a.Min.x, a.Min.y, a.Max.x, a.Max.y};
  const Box full{area.x0, area.y0 - room.top, area.x1 + room.right, area.y1};
  const LegendSize size{widest + swatch + 3 * pad, float(lines) * fs + 2 * pad,
                        float(legend_rows(wrapped, full.x1 - full.x0, swatch, pad)) * fs + 2 * pad};
  const float sx = (full.x1 - full.x0) / std::max(area.x1 - area.x0, 1.0f);
  const float sy = (full.y1 - full.y0) / std::max(area.y1 - area.y0, 1.0f);
  for (Point& p : drawn) p = {area.x0 + (p.x - area.x0) * sx, area.y1 - (area.y1 - p.y) * sy};
  for (Box& b : notes)
    b = {area.x0 + (b.x0 - area.x0) * sx, area.y1 - (area.y1 - b.y0) * sy, area.x0 + (b.x1 - area.x0) * sx,
         area.y1 - (area.y1 - b.y1) * sy};
  // Room at the right: at most a third or so of the frame, and never so much that the frame left to the data is
  // under the readable minimum width (the legend goes above the area or inside it instead).
  const float min_width = kMinPlotWidthEm * fs;
  const float room_right = std::min(0.35f * frame.GetWidth(), frame.GetWidth() - min_width);
  const LegendPlacement place = place_legend(full, size, pad, drawn, notes, room_right, 0.5f * frame.GetHeight());
  const bool right = place.spot == LegendSpot::outside_right, top = place.spot == LegendSpot::outside_top;
  const LegendRoom next{right ? size.width + 2 * pad : 0.0f, top ? size.row_height + pad : 0.0f};
  // Drawn against this frame's area (the first frame outside has no room yet: the top-right corner).
  LegendSpot spot = place.spot;
  if ((right && room.right < size.width + pad) || (top && room.top < size.row_height + pad)) spot = LegendSpot::top_right;
  const Box box = legend_box(area, size.width, spot == LegendSpot::outside_top ? size.row_height : size.height, pad, spot);
  canvas_rect_filled(ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), style_color(ImGuiCol_PopupBg, 0.85f), 3.0f);
  canvas_rect(ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), style_color(ImGuiCol_Border), 3.0f);
  ImVec2 at(box.x0, box.y0 + pad);
  int row_lines = 0;
  for (const WrappedEntry& e : wrapped) {
    const float w = swatch + 3 * pad + e.width;
    if (spot == LegendSpot::outside_top && at.x > box.x0 && at.x + w > box.x1)
      at = ImVec2(box.x0, at.y + float(row_lines) * fs), row_lines = 0;
    draw_legend_entry(e, at, swatch, pad);
    row_lines = std::max(row_lines, int(e.lines.size()));
    if (spot == LegendSpot::outside_top) at.x += w;
    else at.y += float(e.lines.size()) * fs;
  }
  return {next, {ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1)}};
}

}  // namespace peviz::plot
