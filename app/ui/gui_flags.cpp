// The window's command-line flags: their declaration for CLI11 and their application to the state.
#include "app/model/page_model.hpp"
#include "app/ui/gui_flags.hpp"

#include <cstdio>
#include <filesystem>
#include <string>

#include "app/model/app_update.hpp"
#include "app/model/animation.hpp"
#include "app/model/figure.hpp"
#include "app/model/figure_io.hpp"
#include "app/model/lessons.hpp"
#include "app/model/presentation.hpp"
#include "app/model/presets.hpp"
#include "cli/flag_checks.hpp"
#include "cli/shared_flags.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz::app {

void add_gui_flags(CLI::App& app, GuiOptions& o) {
  app.add_option("--frames", o.frames, "Run this many frames, then exit (0 = until closed), " +
                                          range_text(limits::window_frames))
      ->check(cli::limit_check<int>(limits::window_frames));
  app.add_flag("--report", o.report, "Sweep d_model/base/L every frame; print frame-time median and p95 at exit");
  app.add_option("--screenshot", o.screenshot, "Save a PNG of the last frame to this path");
  app.add_option("--regions", o.regions, "Write the screen rectangles of the views' key parts (JSON) here");
  app.add_flag("--hide-pointer", o.hide_pointer, "Ignore the mouse pointer: screenshots without hover read-outs");
  app.add_flag("--reset", o.reset, "Start with default settings, ignoring the saved session");
  app.add_option("--size", o.size, "Window size WxH (e.g. 1600x900)");
  app.add_option("--encoding", o.encoding, "Initial encoding: " + encoding_names(", ", ", "));
  cli::add_shared_flag(app, cli::shared_flags::d_model, o.d_model, limits::d_model, cli::LimitRange::window);
  cli::add_shared_flag(app, cli::shared_flags::seq_len, o.seq_len, limits::seq_len, cli::LimitRange::window);
  cli::add_shared_flag(app, cli::shared_flags::base, o.base, limits::base, cli::LimitRange::window);
  app.add_option("--theme", o.theme, "dark or light");
  app.add_option("--view", o.view, "Initial page: " + page_names());
  app.add_option("--open", o.open, "Open a figure saved by peviz (PNG, SVG or PDF; restores its parameters), a lab "
                                   "experiment (.json) or run (.safetensors) saved by peviz train --out or File > Export "
                                   "lab runs, a Hugging Face config.json (the model's positions), or a .npy / "
                                   ".safetensors file as the learned table; a folder: File > Open's browser in it");
  app.add_option("--figure-dir", o.figure_dir, "Folder F12 saves figures into (default ~/Pictures/peviz)");
  app.add_option("--save-figure", o.save_figure, "After the last --frames frame, save this view as F12 does "
                                                 "(window, waves, encoding, ... or a page name)");
  app.add_option("--preset", o.preset, "Apply a preset by name or file stem (assets/presets/, your presets folder)");
  app.add_option("--lesson", o.lesson, "Start a lesson tour: a lesson file, or a name in assets/lessons/");
  app.add_option("--lesson-step", o.lesson_step, "Start the lesson at this step (1-based)")
      ->check(cli::limit_check<int>(limits::lesson_step));
  app.add_flag("--present", o.present, "Start in presentation mode (full screen, light theme, large text)");
  app.add_option("--record", o.record, "Start View > Record animation of this parameter (position, base, d-model, seq-len, "
                                       "factor, lesson: the --lesson given, else the first) with the dialog's defaults: "
                                       "a 60-frame GIF into --figure-dir");
  app.add_flag("--train", o.train, "Press the Lab page's Train at start (its settings from the session or --preset; "
                                   "the runs start when the Lab page is shown, e.g. with --view lab)");
  app.add_option("--monkey", o.monkey, "With --frames N: random input every frame from this seed, the state checked "
                                       "after each; one summary line, exit 1 on a failed check")
      ->check(cli::non_negative_integer());
}

namespace {

// --encoding, --d-model, --seq-len, --base and --view over the session. False (message printed) on a bad name.
bool apply_encoding_flags(const GuiOptions& o, AppState& s) {
  if (!o.encoding.empty()) {
    const auto e = parse_encoding(o.encoding);
    if (!e) {
      std::fprintf(stderr, "peviz: --encoding: must be %s, got %s\n", encoding_names().c_str(), o.encoding.c_str());
      return false;
    }
    s.params.encoding = *e;
  }
  if (o.d_model != 0) s.params.d_model = o.d_model;
  if (o.seq_len != 0) s.params.seq_len = o.seq_len;
  if (o.base != 0.0) s.params.base = o.base;
  if (!o.view.empty()) {
    const auto page = parse_page(o.view);
    if (!page) {
      std::fprintf(stderr, "peviz: --view: must be one of %s, got %s\n", page_names().c_str(), o.view.c_str());
      return false;
    }
    s.pages.page = *page;
  }
  return true;
}

// --figure-dir, --record and --save-figure. False (message printed) on a bad name.
bool apply_output_flags(const GuiOptions& o, AppState& s) {
  if (!o.figure_dir.empty()) s.figure.folder = o.figure_dir;
  if (!o.record.empty()) {
    const auto p = parse_animated_param(o.record);
    if (!p) {
      std::fprintf(stderr, "peviz: --record: must be one of %s, got %s\n", animated_param_names().c_str(), o.record.c_str());
      return false;
    }
    s.recording.spec = default_sweep(*p);
    s.recording.lesson = o.lesson;
    s.recording.start_requested = true;
  }
  if (!o.save_figure.empty()) {
    const auto v = parse_figure_view(o.save_figure);
    if (!v) {
      std::fprintf(stderr, "peviz: --save-figure: must be one of %s, got %s\n", figure_view_names().c_str(), o.save_figure.c_str());
      return false;
    }
    s.figure.view_choice = 0;
    const auto views = single_figure_views();
    for (std::size_t i = 0; i < views.size(); ++i)
      if (views[i] == *v) s.figure.view_choice = int(i) + 1;
  }
  return true;
}

// --theme and --size. False (message printed) on a bad value.
bool apply_window_flags(const GuiOptions& o, AppState& s, WindowSize& size) {
  if (!o.theme.empty()) {
    if (o.theme != "dark" && o.theme != "light") {
      std::fprintf(stderr, "peviz: --theme: must be dark or light, got %s\n", o.theme.c_str());
      return false;
    }
    s.theme = o.theme == "light" ? Theme::light : Theme::dark;
  }
  if (!o.size.empty()) {
    int w = 0, h = 0;
    const Limit &lw = limits::window_width, &lh = limits::window_height;
    if (std::sscanf(o.size.c_str(), "%dx%d", &w, &h) != 2 || w < lw.min || h < lh.min || w > lw.max || h > lh.max) {
      std::fprintf(stderr, "peviz: --size: must be WxH with W in %g..%g and H in %g..%g, got %s\n", lw.min, lw.max,
                   lh.min, lh.max, o.size.c_str());
      return false;
    }
    size = {w, h};
  }
  return true;
}

// Applies the flags that override the session, in the order above. False (message printed) on a bad value.
bool apply_flag_overrides(const GuiOptions& o, AppState& s, WindowSize& size) {
  return apply_encoding_flags(o, s) && apply_output_flags(o, s) && apply_window_flags(o, s, size);
}

// --preset, --lesson [--lesson-step], --present, in that order (after the other flags). Returns false
// (message printed) for an unknown or refused preset or lesson.
bool apply_teach_flags(const GuiOptions& o, AppState& s) {
  if (!o.preset.empty()) {
    const std::vector<PresetEntry> presets = list_presets();
    const PresetEntry* p = find_preset(presets, o.preset);
    if (!p) {
      std::string names;
      for (const PresetEntry& e : presets)
        if (e.error.empty()) names += (names.empty() ? "" : ", ") + std::filesystem::path(e.path).stem().string();
      std::fprintf(stderr, "peviz: --preset: no usable preset named %s (have: %s)\n", o.preset.c_str(), names.c_str());
      return false;
    }
    if (!apply_preset(*p, s)) {
      std::fprintf(stderr, "peviz: --preset: %s\n", s.teach.notice.c_str());
      return false;
    }
  }
  if (!o.lesson.empty()) {
    const std::filesystem::path path = resolve_lesson(o.lesson);
    if (path.empty()) {
      std::fprintf(stderr, "peviz: --lesson: no lesson file or name %s\n", o.lesson.c_str());
      return false;
    }
    try {
      start_lesson(s, load_lesson_file(path), o.lesson_step - 1);
    } catch (const ParamError& e) {
      std::fprintf(stderr, "peviz: --lesson: %s\n", e.rule.c_str());
      return false;
    }
  }
  if (o.present) set_presenting(s, true);
  if (o.train) {
    s.pages.lab.train_requested = true;
    s.pages.mark(Page::lab);
  }
  return true;
}

}  // namespace

bool apply_gui_flags(const GuiOptions& o, AppState& s, WindowSize& size) {
  if (o.monkey && o.frames == 0) {
    std::fprintf(stderr, "peviz: --monkey: needs --frames N (the length of the run)\n");
    return false;
  }
  if (!apply_flag_overrides(o, s, size) || !apply_teach_flags(o, s)) return false;
  if (o.open.empty()) return true;
  std::error_code ec;
  if (std::filesystem::is_directory(o.open, ec)) {  // a folder: File > Open's browser starts there
    s.figure.open_browser.start_folder = o.open;
    s.figure.open_dialog_requested = true;
    return true;
  }
  try {  // before the window opens: a file that cannot open is one line and a non-zero exit
    show_toast(s, open_file(s, o.open), false, 0.0);
  } catch (const ParamError& e) {
    std::fprintf(stderr, "peviz: --open: %s: %s\n", o.open.c_str(), e.rule.c_str());
    return false;
  }
  return true;
}

}  // namespace peviz::app
