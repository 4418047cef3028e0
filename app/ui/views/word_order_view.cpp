// The word-order demo: for "the cat chased the mouse" and "the mouse chased the cat", each word's token
// vector, + its position vector, = the sum, as rows of small cells (blue < 0 < red).
#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/plot/colormap.hpp"
#include "app/plot/draw/canvas.hpp"
#include "app/ui/views/teach_views.hpp"
#include "app/model/word_order_demo.hpp"

namespace peviz::app {

namespace {

constexpr double kRange = 2.0;  // colours span [-2, 2]: token and position values are in [-1, 1]

// One row of `m` as cells at `pos`, `cell` wide; returns the x after the row.
float cell_row(ImVec2 pos, const Matrix& m, std::size_t r, float cell) {
  for (std::size_t c = 0; c < m.cols; ++c) {
    const ImVec2 a(pos.x + float(c) * cell, pos.y);
    const ImVec2 b(a.x + cell - 1.0f, a.y + cell - 1.0f);
    const double t = plot::colormap_position(m.at(r, c), -kRange, kRange);
    plot::canvas_rect_filled(a, b, plot::colormap_color(plot::Colormap::diverging, t));
  }
  return pos.x + float(m.cols) * cell;
}

// The block of one sentence: a caption, then per word: label | tokens + positions = sums.
void sentence_block(const char* caption, const std::vector<std::string>& words, const Matrix& tokens,
                    const Matrix& positions, const Matrix& sums, float cell) {
  ImGui::TextUnformatted(caption);
  const float label_w = ImGui::CalcTextSize("chased  0").x + cell;
  const float sign_w = ImGui::CalcTextSize(" = ").x;
  ImVec2 origin = ImGui::GetCursorScreenPos();
  // Rows at least a text line apart, so that small cells never stack their word labels on each other.
  const float pitch = std::max(cell + 2.0f, ImGui::GetFontSize() + 2.0f);
  const float text_dy = 0.5f * (cell - ImGui::GetFontSize());
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (std::size_t r = 0; r < words.size(); ++r) {
    const ImVec2 row(origin.x, origin.y + float(r) * pitch + std::max(0.0f, -text_dy));
    char label[64];
    std::snprintf(label, sizeof label, "%zu %s", r, words[r].c_str());
    plot::canvas_text(ImVec2(row.x, row.y + text_dy), text, label);
    float x = cell_row(ImVec2(row.x + label_w, row.y), tokens, r, cell);
    plot::canvas_text(ImVec2(x + 0.3f * sign_w, row.y + text_dy), text, "+");
    x = cell_row(ImVec2(x + sign_w, row.y), positions, r, cell);
    plot::canvas_text(ImVec2(x + 0.3f * sign_w, row.y + text_dy), text, "=");
    cell_row(ImVec2(x + sign_w, row.y), sums, r, cell);
  }
  ImGui::Dummy(ImVec2(label_w + 3.0f * float(kWordOrderDim) * cell + 2.0f * sign_w, float(words.size()) * pitch));
}

}  // namespace

void draw_word_order_view(AppState& s) {
  const WordOrderDemo& d = s.teach.word_order;
  if (d.words_a.empty()) return;
  const float fs = ImGui::GetFontSize();
  const float lines = ImGui::GetTextLineHeightWithSpacing();
  // Fit both blocks (captions + rows), the header line and two lines of footer into the height.
  const float rows = float(d.words_a.size() + d.words_b.size());
  const float avail_h = ImGui::GetContentRegionAvail().y - 6.5f * lines;
  // A block is the label, one cell, three rows of cells and two signs wide (sentence_block).
  const float avail_w = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("chased  0").x - 2.0f * ImGui::CalcTextSize(" = ").x;
  const float cell = std::clamp(std::min(avail_h / rows - 2.0f, avail_w / (3.0f * kWordOrderDim + 1.0f)), 0.3f * fs, 1.4f * fs);
  ImGui::PushTextWrapPos(0.0f);  // wraps at the panel's right edge
  ImGui::TextDisabled("token vector + position vector (sinusoidal, d = %d) = what the model sees", kWordOrderDim);
  ImGui::PopTextWrapPos();
  const Matrix& pos = d.positions;
  sentence_block("\"the cat chased the mouse\"", d.words_a, d.tokens_a, pos, d.sums_a, cell);
  sentence_block("\"the mouse chased the cat\"", d.words_b, d.tokens_b, pos, d.sums_b, cell);
  ImGui::TextWrapped("Same five token vectors in both (a bag: shuffled rows, same sum); the sums differ at "
                     "positions 1 and 4, so the order is now visible.");
}

}  // namespace peviz::app
