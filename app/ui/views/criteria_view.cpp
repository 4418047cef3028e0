// Naive encodings and the criteria scorecard: unique, consistent distance, bounded, deterministic and
// extrapolation measured for every encoding at the sidebar's parameters, and why t/(L-1) and t fail.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"
#include "core/encodings/absolute_encodings.hpp"

namespace peviz::app {

namespace {

void verdict(bool pass) {
  ImGui::TextColored(pass ? ImVec4(0.35f, 0.8f, 0.35f, 1) : ImVec4(0.95f, 0.35f, 0.3f, 1), pass ? "pass" : "FAIL");
}

// A verdict and what was measured: beside it when the table is wide, in the verdict's hover when compact.
void verdict_and_measure(bool pass, bool compact, const std::string& measure) {
  verdict(pass);
  if (measure.empty()) return;
  if (compact) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", measure.c_str());
    return;
  }
  ImGui::SameLine();
  ImGui::TextWrapped("%s", measure.c_str());
}

std::string format(const char* fmt, double a, double b = 0, double c = 0) {
  char buf[128];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

struct Column {
  const char* title;        // the wide table's header
  const char* short_title;  // the compact table's header
  float weight;             // share of the wide table's width
  const char* meaning;
};
constexpr Column kColumns[6] = {
    {"encoding", "encoding", 0.9f, "The encodings measured: the seed texts' candidates, from the sinusoid to the raw integer."},
    {"unique\n(min distance)", "unique", 1.2f, "Every position gets its own vector: the smallest distance between two rows, "
                                              "and which two."},
    {"consistent distance\n(spread over t, L->2L)", "consistent", 1.8f,
     "The distance between positions t and t + k is the same for every t (spread over t), and does not change when "
     "the sequence doubles from L to 2L (L->2L)."},
    {"bounded\n(max|v| at L, to 4L)", "bounded", 1.5f, "Values stay in a fixed range: the largest |value| at length L and "
                                                             "how much it grows out to 4L."},
    {"deterministic", "deterministic", 1.1f, "The same position always gets the same vector (no randomness at use)."},
    {"extrapolation", "extrapolates", 2.1f, "Whether positions past the longest training length still get a vector."}};

// Below this width (in em) the measures go into the verdicts' hovers, so that no column squeezes its text
// into a letter per line (a projector at 1280 x 720 in presentation mode).
constexpr float kWideTableEm = 52.0f;

// True when every wide header's longest line fits its column at the weights: no header is cut mid-word.
bool wide_headers_fit(float width) {
  float total = 0.0f;
  for (const Column& c : kColumns) total += c.weight;
  const float padding = 2.0f * ImGui::GetStyle().CellPadding.x + 2.0f;  // both sides and the border
  for (const Column& c : kColumns) {
    float widest = 0.0f;
    for (const char* line = c.title; *line;) {
      const char* end = std::strchr(line, '\n');
      if (!end) end = line + std::strlen(line);
      widest = std::max(widest, ImGui::CalcTextSize(line, end).x);
      line = *end ? end + 1 : end;
    }
    if (widest + padding > width * c.weight / total) return false;
  }
  return true;
}

void scorecard(const CriteriaOptions& o) {
  const float width = ImGui::GetContentRegionAvail().x;
  const bool compact = width < kWideTableEm * ImGui::GetFontSize() || !wide_headers_fit(width);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;  // widths by the weights below
  if (!ImGui::BeginTable("##criteria", 6, flags)) return;
  for (int i = 0; i < 6; ++i)
    ImGui::TableSetupColumn(compact ? kColumns[i].short_title : kColumns[i].title, ImGuiTableColumnFlags_WidthStretch,
                            compact ? ImGui::CalcTextSize(kColumns[i].short_title).x : kColumns[i].weight);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int i = 0; i < 6; ++i) {
    ImGui::TableSetColumnIndex(i);
    ImGui::TableHeader(compact ? kColumns[i].short_title : kColumns[i].title);
    hint(compact ? (std::string(kColumns[i].title) + ": " + kColumns[i].meaning + " Hover a verdict for its measure.").c_str()
                 : kColumns[i].meaning);
  }
  const auto table = encoding_table();
  for (std::size_t e = 0; e < table.size() && e < o.reports.size(); ++e) {
    const CriteriaReport& r = o.reports[e];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(table[e].label.data(), table[e].label.data() + table[e].label.size());
    if (!o.errors[e].empty()) {
      ImGui::TableNextColumn();
      ImGui::TextWrapped("not measured: %s", o.errors[e].c_str());
      continue;
    }
    ImGui::TableNextColumn();
    verdict_and_measure(r.unique, compact, format("%.3g (t=%g, %g)", r.min_distance, r.closest_p, r.closest_q));
    ImGui::TableNextColumn();
    verdict_and_measure(r.consistent, compact,
                        std::isnan(r.change_with_length) ? format("%.3g, no rows at 2L", r.spread_over_t)
                                                         : format("%.3g, %.3g", r.spread_over_t, r.change_with_length));
    ImGui::TableNextColumn();
    verdict_and_measure(r.bounded, compact, format("%.3g, x%.3g", r.max_abs, r.growth));
    ImGui::TableNextColumn();
    verdict(r.deterministic);
    ImGui::TableNextColumn();
    verdict_and_measure(r.extrapolates, compact, r.extrapolation_note);
  }
  ImGui::EndTable();
}

// t/(L-1) at the two lengths under its heading: the same offset spans different values.
void fraction_plot(AppState& s, ImVec2 size) {
  const CriteriaOptions& o = s.pages.criteria;
  const float width = size.x;
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);  // the heading wraps at its plot's width
  ImGui::Text("t/(L-1): one step is %.4g at L = %d but %.4g at L = %d", 1.0 / (o.length_a - 1), o.length_a,
              1.0 / (o.length_b - 1), o.length_b);
  ImGui::PopTextWrapPos();
  const int m = std::max(o.length_a, o.length_b);
  if (plot::begin_plot("##naive_normalized", size)) {
    plot::setup_axes("position t", "t/(L-1)", {0.0, double(m)}, {-0.05, 1.1});
    char la[32], lb[32];
    std::snprintf(la, sizeof la, "L = %d", o.length_a);
    std::snprintf(lb, sizeof lb, "L = %d", o.length_b);
    plot::plot_line(la, o.normalized_a.data(), o.length_a, 0.0, 1.0, 1, plot::series_color(0), 2.0f);
    plot::plot_line(lb, o.normalized_b.data(), o.length_b, 0.0, 1.0, 1, plot::series_color(1), 2.0f);
    // The same offset (t = 10 -> 20) covers different value spans at the two lengths.
    const double t0 = std::min(10, o.length_a - 1), t1 = std::min(20, o.length_a - 1);
    plot::plot_vline(t0, ImGui::GetColorU32(ImGuiCol_Text, 0.4f), 1.0f);
    plot::plot_vline(t1, ImGui::GetColorU32(ImGuiCol_Text, 0.4f), 1.0f);
    // The note (about the two marker lines) sits under the longer line, where the lower right of the plot is free;
    // a narrow plot gets its first words only.
    const char* note = "same offset, different values";
    if (ImGui::CalcTextSize(note).x > 0.6f * width) note = "same offset";
    plot::plot_text(0.3 * m, 0.3, note, ImGui::GetColorU32(ImGuiCol_Text, 0.8f));
    plot::end_plot();
  }
  record_page_region(s);
  ImGui::EndGroup();
}

// The integer t against the sinusoids' bound, out to 4 x the longer length m.
void integer_plot(const CriteriaOptions& o, int m, ImVec2 size) {
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
  ImGui::Text("integer t: unbounded (shown to 4 x %d); sinusoids stay in [-1, 1]", m);
  ImGui::PopTextWrapPos();
  const int n = int(o.integer_values.size());
  if (plot::begin_plot("##naive_integer", size)) {
    plot::setup_axes("position t", "value", {0.0, double(n)}, {-0.05 * n, 1.05 * n});
    plot::plot_line("integer t", o.integer_values.data(), n, 0.0, 1.0, 1, plot::series_color(2), 2.0f);
    plot::plot_hline(1.0, plot::series_color(0), 1.5f);
    plot::plot_vline(m, ImGui::GetColorU32(ImGuiCol_Text, 0.4f), 1.0f);
    plot::plot_text(m, 0.9 * n, "trained up to here", ImGui::GetColorU32(ImGuiCol_Text, 0.8f));
    plot::end_plot();
  }
  ImGui::EndGroup();
}

}  // namespace

void draw_criteria_view(AppState& s) {
  const BasicsOptions& basics = s.pages.basics;
  CriteriaOptions& o = s.pages.criteria;
  constexpr Page page = Page::criteria;
  view_title("Criteria of a good position encoding, measured");
  if (!basics.has_results) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  if (shows_part(s, kCriteriaNotes)) {
    ImGui::PushTextWrapPos(0.0f);  // wrap at the pane's edge
    ImGui::TextDisabled("Every encoding at the sidebar's d_model %d, base %g, measured over L = %d positions%s. Pass: "
                        "min distance > 1e-6; spread and change < 1e-3; growth <= 1.",
                        basics.computed.d_model, basics.computed.base, o.measured_len,
                        o.measured_len < basics.computed.seq_len ? " (capped: the measures cost L^2 d)" : "");
    ImGui::PopTextWrapPos();
  }
  if (shows_part(s, kCriteriaTable)) {
    scorecard(o);
    ImGui::Spacing();
  }
  if (shows_controls(s)) {  // the settings; figures and presented slides leave them out
    page_slider(s, page, "length A", o.length_a, limits::criteria_length);
    next_slider_on_line("length B");
    page_slider(s, page, "length B", o.length_b, limits::criteria_length_long);
  }
  const bool fraction = shows_part(s, kCriteriaFraction), integer = shows_part(s, kCriteriaInteger);
  if (o.normalized_a.empty() || !(fraction || integer)) return;
  // Side by side when both keep a readable width, else one under the other (the page scrolls); a presented step
  // that names one of them gives it the whole width.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool beside = !(fraction && integer) || fits_side_by_side(2);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float width = beside && fraction && integer ? 0.5f * (avail.x - ImGui::GetStyle().ItemSpacing.x) : avail.x;
  const float legend_above =
      std::max(plot::legend_room_above("##naive_normalized"), plot::legend_room_above("##naive_integer"));
  const float height = readable_height(beside ? avail.y - line : 0.5f * avail.y - line, legend_above);
  const int m = std::max(o.length_a, o.length_b);
  if (fraction) fraction_plot(s, ImVec2(width, height));
  if (!integer) return;
  if (beside && fraction) ImGui::SameLine();
  integer_plot(o, m, ImVec2(width, height));
}

}  // namespace peviz::app
