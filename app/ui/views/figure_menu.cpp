// The File menu and its dialogs: requests for the frame loop (figures) and update step (open, export).
#include "app/model/page_model.hpp"
#include "app/ui/views/figure_menu.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iterator>
#include <string>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/gfx/platform.hpp"
#include "app/model/figure.hpp"
#include "app/model/figure_io.hpp"
#include "app/model/file_browser.hpp"
#include "app/ui/views/open_dialog.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// The views of the current page (the four basics, or the page itself).
std::vector<FigureView> views_of_page(const AppState& s) {
  if (s.pages.page != Page::basics) return {{FigureView::one_page, s.pages.page}};
  return {{FigureView::waves}, {FigureView::encoding}, {FigureView::similarity}, {FigureView::binary}};
}

std::string view_label(FigureView v) {
  if (v.kind == FigureView::window) return "whole window";
  if (v.kind == FigureView::one_page) return page_title(v.page);
  return figure_view_name(v);
}

FigureView chosen_view(const AppState& s) {
  const auto views = single_figure_views();
  const int i = s.figure.view_choice;
  return i >= 1 && i <= int(views.size()) ? views[std::size_t(i - 1)] : FigureView{};
}

}  // namespace

void draw_file_menu(AppState& s) {
  if (!ImGui::BeginMenu("File")) return;
  if (ImGui::MenuItem("Open figure, model or table...", "Ctrl+O")) s.figure.open_dialog_requested = true;
  hint("Open a figure saved by peviz (PNG, SVG or PDF: restores the parameters that made it), a lab experiment, a "
       "Hugging Face config.json (the model's positions), or a .npy / .safetensors learned table.");
  if (gfx::in_browser() && ImGui::MenuItem("Copy link to this view")) {
    gfx::copy_text(gfx::location_href());
    show_toast(s, "Link copied: " + gfx::location_href(), false, ImGui::GetTime());
  }
  if (gfx::in_browser()) hint("The page's address carries the view: whoever opens the link sees what you see.");
  ImGui::Separator();
  const std::string save_label = "Save figure: " + view_label(chosen_view(s)) + " at " + std::to_string(s.figure.scale) + "x";
  if (ImGui::MenuItem(save_label.c_str(), "F12")) s.figure.save_requested = true;
  hint(gfx::files_are_downloads() ? "Downloads a PNG with a generated name; its parameters are stored inside it."
                                  : "Writes a PNG with a generated name into the figure folder; its parameters are stored inside it.");
  if (ImGui::MenuItem("Figure settings...")) s.figure.settings_dialog_requested = true;
  hint("Figure folder, scale (1x, 2x, 4x), which view, theme, transparent background, caption.");
  if (ImGui::BeginMenu("Export data")) {
    for (const FigureView& v : views_of_page(s)) {
      for (const bool npy : {false, true}) {
        const std::string label = view_label(v) + (npy ? " as NPY" : " as CSV");
        if (ImGui::MenuItem(label.c_str())) {
          s.figure.export_requested = true;
          s.figure.export_view = v;
          s.figure.export_npy = npy;
        }
      }
    }
    ImGui::EndMenu();
  }
  hint("The numbers behind a view, in peviz export's CSV / NPY formats, saved into the figure folder.");
  if (s.pages.page == Page::lab) {
    if (ImGui::MenuItem("Export lab runs")) s.pages.lab.save_requested = true;
    hint("Every finished Lab run into the figure folder: weights as .safetensors (settings in __metadata__; "
         "Learned tables opens its position table), the loss curve and accuracy as CSV, all runs as one JSON.");
  }
  if (gfx::in_browser()) {  // a page is closed with its tab
    ImGui::EndMenu();
    return;
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) s.quit_requested = true;
  ImGui::EndMenu();
}

namespace {

// Figure settings: the folder and the view saved.
void figure_target_choices(AppState& s) {
  FigureSettings& f = s.figure;
  const float em = ImGui::GetFontSize();
  if (!gfx::files_are_downloads()) {
    ImGui::SetNextItemWidth(em * 24.0f);
    ImGui::InputTextWithHint("folder", default_figure_folder().string().c_str(), &f.folder);
    hint("Where F12 saves figures and Export data saves numbers (created when missing).");
  }
  const auto views = single_figure_views();
  std::string current = view_label(chosen_view(s));
  ImGui::SetNextItemWidth(em * 14.0f);
  if (ImGui::BeginCombo("view", current.c_str())) {
    for (int i = 0; i <= int(views.size()); ++i) {
      const FigureView v = i == 0 ? FigureView{} : views[std::size_t(i - 1)];
      if (ImGui::Selectable(view_label(v).c_str(), f.view_choice == i)) f.view_choice = i;
    }
    ImGui::EndCombo();
  }
  hint("The whole window, or one view alone filling the figure.");
}

// Figure settings: format (those the platform cannot write disabled), scale, theme, background and caption.
// The radio buttons show the format the figure of `view` is saved in (chosen_figure_format: the whole window is a
// PNG whatever the choice, which stays for a single view), and say why the others cannot be chosen.
void figure_look_choices(FigureSettings& f, FigureView view) {
  const int saved_as = int(chosen_figure_format(view, f.format_choice));
  ImGui::TextUnformatted("format");
  const char* formats[] = {"PNG", "SVG", "PDF"};
  for (int k = 0; k < int(std::size(formats)); ++k) {
    ImGui::SameLine();
    const std::string why_not = gfx::cannot_write(std::string(".") + kFigureFormatNames[k]);
    if (!why_not.empty() && f.format_choice == k) f.format_choice = 0;
    const bool window_png = view.kind == FigureView::window && k != 0;
    ImGui::BeginDisabled(!why_not.empty() || window_png);
    if (ImGui::RadioButton(formats[k], saved_as == k)) f.format_choice = k;
    ImGui::EndDisabled();
    if (!why_not.empty()) hint(why_not.c_str());
    else if (window_png) hint("The whole window is saved as a PNG: choose one view above for SVG or PDF.");
  }
  hint("SVG and PDF: vector figures of one view with real text (the plots and their labels; sliders and "
       "buttons left out). The whole window is always a PNG.");
  ImGui::TextUnformatted("scale");
  for (const int k : {1, 2, 4}) {
    ImGui::SameLine();
    const std::string label = std::to_string(k) + "x";
    if (ImGui::RadioButton(label.c_str(), f.scale == k)) f.scale = k;
  }
  const std::string most = "Pixels per screen unit: fonts are rasterised for it, so 2x and 4x stay crisp (at most " +
                           std::to_string(kMaxFigureWidth) + " x " + std::to_string(kMaxFigureHeight) + ").";
  hint(most.c_str());
  ImGui::TextUnformatted("theme");
  const char* themes[] = {"as the window", "dark", "light"};
  for (int k = 0; k < int(std::size(themes)); ++k) {
    ImGui::SameLine();
    if (ImGui::RadioButton(themes[k], f.theme_choice == k)) f.theme_choice = k;
  }
  hint("The figure's own theme: light for slides and papers, without changing the window.");
  ImGui::Checkbox("transparent background", &f.transparent);
  hint("No window background in the PNG (alpha 0 around the panels).");
  ImGui::Checkbox("caption with the parameters", &f.caption);
  hint("A line under the figure: encoding, d_model, base, L, layout or the page's own parameters.");
}

// File > Figure settings: what F12 saves, the next file's name, Save now and Close.
void figure_settings_dialog(AppState& s) {
  FigureSettings& f = s.figure;
  if (!ImGui::BeginPopupModal("Figure settings", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  figure_target_choices(s);
  figure_look_choices(f, chosen_view(s));
  ImGui::Separator();
  const FigureView chosen = chosen_view(s);
  const int format = int(chosen_figure_format(chosen, f.format_choice));
  const std::string name = std::filesystem::path(figure_file_name(s, chosen, (long long)std::time(nullptr)))
                               .replace_extension(kFigureFormatNames[format]).string();
  if (gfx::files_are_downloads()) ImGui::TextDisabled("next download: %s", name.c_str());
  else ImGui::TextDisabled("next: %s", (figure_folder(s) / name).string().c_str());
  if (ImGui::Button("Save figure now (F12)")) {
    f.save_requested = true;
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace

void draw_file_dialogs(AppState& s) {
  FigureSettings& f = s.figure;
  // The browser opens its own file picker instead of the file browser; the file arrives as a dropped one.
  if (std::exchange(f.open_dialog_requested, false) && !gfx::ask_for_file()) {
    start_browsing(f.open_browser, s.recent_files);  // listed once here, not every frame
    ImGui::OpenPopup("Open");
  }
  if (std::exchange(f.settings_dialog_requested, false)) ImGui::OpenPopup("Figure settings");
  draw_open_dialog(s);
  figure_settings_dialog(s);
}

}  // namespace peviz::app
