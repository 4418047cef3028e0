// The Reproductions table: the field's claims beside the lab's seeds (core/train/reproductions.hpp).
#include "app/ui/views/reproductions_view.hpp"

#include <cstdio>
#include <span>
#include <string>

#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

struct ReproductionColumn {
  const char* title;
  const char* meaning;  // the header's hover text
  float width_em;       // a fixed width, or with `stretch` the column's share of what is left
  bool stretch = false;
};
// The wide table: every text in its own column.
constexpr ReproductionColumn kWideColumns[] = {
    {"method", "The method and its paper", 7.5f},
    {"the paper's claim", "What the paper reports, in short", 1.0f, true},
    {"ours 2x", "Seeds reaching 0.9 exact match at twice the training length, then the exact match's mean and "
                "range over the seeds", 6.5f},
    {"ours 3x", "The same at three times the training length", 6.5f},
    {"baseline", "The same setting without the method, every seed: successes at 2x and at 3x", 5.5f},
    {"s / run", "Seconds one run took on one thread of a 2-core machine (steps / steps per second)", 3.0f},
    {"what we think limits it", "Our reading of the result: what the tiny model or the short training lacks", 1.8f,
     true},
};
// A narrow pane (a slide): the method with its paper and claim in one column, what limits it on hover.
constexpr ReproductionColumn kNarrowColumns[] = {
    {"method and claim (hover: what limits it)", "The method, its paper and the paper's claim; hover a row for what "
                                                 "we think limits our result", 1.0f, true},
    {"ours 2x", "Seeds reaching 0.9 exact match at twice the training length, then the mean and range", 6.5f},
    {"ours 3x", "The same at three times the training length", 6.5f},
    {"baseline", "The same setting without the method: successes at 2x and at 3x", 6.0f},
};
constexpr float kWideTableEm = 60.0f;  // narrower than this: the narrow table

// A cell of wrapped text; `detail` underneath in the disabled colour when given.
void text_cell(const std::string& text, const std::string& detail = {}) {
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", text.c_str());
  if (!detail.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", detail.c_str());
    ImGui::PopStyleColor();
  }
}

// "4/5 seeds" over "mean 0.62" and "[0.00-1.00]".
void outcome_cell(const train::LengthOutcome& o) {
  if (o.tested == 0) return text_cell("undefined", "no seed tested there");
  char spread[64];
  std::snprintf(spread, sizeof spread, "mean %.2f\n[%.2f-%.2f]", o.mean, o.min, o.max);
  text_cell(train::success_text(o) + " seeds", spread);
}

std::string tested_text(const train::ReproductionRow& r) {
  return std::string(r.method->task) + ", trained to n = " + std::to_string(r.ours.train_max) + ", " +
         std::to_string(r.ours.seeds) + " seeds";
}

void reproduction_row(const train::ReproductionRow& r, bool wide) {
  const train::ReproductionMethod& m = *r.method;
  ImGui::TableNextRow();
  if (wide) {
    text_cell(std::string(m.method), std::string(m.paper));
    text_cell(std::string(m.claim), tested_text(r));
  } else {
    text_cell(std::string(m.method) + ": " + std::string(m.claim), std::string(m.paper) + "; " + tested_text(r));
    hint(m.limits.data());
  }
  outcome_cell(r.ours.twice);
  outcome_cell(r.ours.thrice);
  char seconds[48];
  std::snprintf(seconds, sizeof seconds, "%.0f s a run", r.ours.seconds_per_run);
  text_cell(std::string(m.baseline_name), train::success_text(r.baseline.twice) + " and " +
                                              train::success_text(r.baseline.thrice) + (wide ? "" : std::string("\n") + seconds));
  if (!wide) return;
  std::snprintf(seconds, sizeof seconds, "%.0f", r.ours.seconds_per_run);
  text_cell(seconds);
  text_cell(std::string(m.limits));
}

}  // namespace

void draw_reproductions(const AppState& s) {
  const LabOptions& o = s.pages.lab;
  ImGui::TextWrapped("Reproductions: each method's claim against our seeds of it (a success: exact match >= 0.9 at "
                     "2x or 3x the training length). peviz export reproductions writes this table; "
                     "assets/reproductions/README.md has the commands that trained the runs.");
  const float em = ImGui::GetFontSize();
  const bool wide = ImGui::GetContentRegionAvail().x >= kWideTableEm * em;
  const std::span<const ReproductionColumn> columns = wide ? std::span<const ReproductionColumn>(kWideColumns)
                                                           : std::span<const ReproductionColumn>(kNarrowColumns);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp |
                                ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("##reproductions", int(columns.size()), flags, ImGui::GetContentRegionAvail())) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const ReproductionColumn& c : columns)
    ImGui::TableSetupColumn(c.title, c.stretch ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed,
                            c.stretch ? c.width_em : c.width_em * em);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int i = 0; i < int(columns.size()); ++i) {
    ImGui::TableSetColumnIndex(i);
    ImGui::TableHeader(columns[std::size_t(i)].title);
    hint(columns[std::size_t(i)].meaning);
  }
  for (const train::ReproductionRow& r : o.reproductions) reproduction_row(r, wide);
  ImGui::EndTable();
}

}  // namespace peviz::app
