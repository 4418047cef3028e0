// Presentation mode's header (the parameters in large type, the Controls toggle, Leave) and the thin strip in
// place of the sidebar: the essential sliders (d_model, L, base) with their labels above them, on the pages
// they change.
#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/model/figure.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/ui/theme.hpp"
#include "app/ui/views/teach_views.hpp"
#include "app/ui/views/views.hpp"
#include "core/encodings/absolute_encodings.hpp"

namespace peviz::app {

namespace {

constexpr float kSmallestHeader = 0.6f;  // of the heading font

// The widest line of `text` at the current font scale.
float widest_line(const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; }

// `text` with its last characters replaced by "..." until it fits `room` (UTF-8 characters kept whole).
std::string ellipsized(const std::string& text, float room) {
  std::string kept = text, shown = text;
  while (!kept.empty() && widest_line(shown) > room) {
    std::size_t cut = kept.size() - 1;  // the first byte of the last UTF-8 character
    while (cut > 0 && (static_cast<unsigned char>(kept[cut]) & 0xC0) == 0x80) --cut;
    kept.erase(cut);
    shown = kept + "...";
  }
  return shown;
}

}  // namespace

// Two lines: broken at the " · " that balances them best.
std::string fitted_header(const std::string& header, float room) {
  const float width = widest_line(header);
  if (width <= room || width <= 0) return header;
  if (room / width >= kSmallestHeader) {
    ImGui::SetWindowFontScale(room / width);
    return header;
  }
  const std::string dot = kCaptionDot;
  std::string best;
  float best_width = width;
  for (std::size_t at = header.find(dot); at != std::string::npos; at = header.find(dot, at + 1)) {
    const std::string two = header.substr(0, at) + "\n" + header.substr(at + dot.size());
    if (const float w = widest_line(two); w < best_width) best = two, best_width = w;
  }
  // Two lines as small as the smallest one line: the header takes little more height than before it broke.
  const float scale = kSmallestHeader;
  ImGui::SetWindowFontScale(scale);
  if (!best.empty() && best_width * scale <= room) return best;
  return ellipsized(header, room);
}

void draw_presentation_header(AppState& s) {
  // Right-aligned: the toggle that shows the page's own controls (hidden, the plots fill the slide) and Leave.
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* toggle = "Controls (C)";
  const char* leave = "Leave (Esc)";
  const float toggle_w = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(toggle).x;
  const bool buttons = window_buttons_shown(s);
  const float buttons_w =
      buttons ? toggle_w + style.ItemSpacing.x + ImGui::CalcTextSize(leave).x + 2 * style.FramePadding.x : 0.0f;
  const float line_x = ImGui::GetCursorPosX(), avail_w = ImGui::GetContentRegionAvail().x;
  // The parameters in large type, shrunk (down to 60%) to fit the line beside the buttons; past that in two lines
  // at 60% broken at a " · ", and only a header too long for two lines ends in "..." (the whole header in the hover).
  push_heading_font();
  const std::string header = parameter_header(s);
  const float room = avail_w - buttons_w - 2 * style.ItemSpacing.x;
  const std::string shown = fitted_header(header, room);
  ImGui::TextUnformatted(shown.c_str());
  const bool ellipsized = shown != header && shown.find('\n') == std::string::npos;
  if (ellipsized && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", header.c_str());
  const float header_h = ImGui::GetItemRectSize().y;
  ImGui::SetWindowFontScale(1.0f);
  pop_heading_font();
  if (!buttons) return;
  ImGui::SameLine(line_x + avail_w - buttons_w);
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + std::max(0.0f, (header_h - ImGui::GetFrameHeight()) * 0.5f));
  ImGui::Checkbox(toggle, &s.teach.present_controls);
  hint("The page's own sliders and pickers above its plots; hidden, the plots fill the slide.");
  ImGui::SameLine();
  if (ImGui::Button(leave)) set_presenting(s, false);
  hint("Back to the window with the full sidebar, your theme and zoom (F11 or Esc too).");
}

void draw_presentation_strip(AppState& s) {
  EncodingParams& p = s.params;
  ImGui::PushItemWidth(-1.0f);
  ImGui::TextUnformatted("d_model");
  if (limit_slider("##present_d", p.d_model, limits::d_model)) mark_params_changed(s);
  ImGui::TextUnformatted("L");
  if (limit_slider("##present_L", p.seq_len, limits::seq_len)) mark_params_changed(s);
  ImGui::BeginDisabled(!encoding_info(p.encoding).inputs.base);
  ImGui::TextUnformatted("base");
  if (limit_slider("##present_base", p.base, limits::base))
    mark_params_changed(s);
  ImGui::EndDisabled();
  ImGui::PopItemWidth();
}

}  // namespace peviz::app
