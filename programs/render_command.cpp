// `peviz render --view NAME | --all [parameter flags] --width W --height H [--scale S] [--format F] --out PATH`,
// and `peviz render --view NAME --animate PARAM --from A --to B --frames N --fps F --out x.gif|x.mp4`.
#include "programs/render_command.hpp"

#include "app/model/page_model.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "app/media/gif_file.hpp"
#include "app/media/mp4_file.hpp"
#include "app/model/app_update.hpp"
#include "app/model/animation.hpp"
#include "app/model/lessons.hpp"
#include "app/model/presentation.hpp"
#include "app/model/figure.hpp"
#include "app/model/figure_io.hpp"
#include "app/ui/figure_capture.hpp"
#include "app/ui/heatmap_pictures.hpp"
#include "app/gfx/heatmap_renderer.hpp"
#include "app/gfx/shader.hpp"
#include "app/model/state_json.hpp"
#include "app/plot/colormap.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/plot/vector_metadata.hpp"
#include "app/ui/theme.hpp"
#include "app/gfx/window.hpp"
#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/io/png_file.hpp"

namespace peviz::app {

namespace {

struct RenderOptions {
  cli::EncodingFlags encoding;
  std::string view = "encoding";
  bool all = false;
  int width = 1600, height = 900, scale = 1;
  std::string theme = "dark";
  bool transparent = false, caption = false, highlight = false, present = false;
  std::string out;
  std::string format;  // png | svg | pdf; empty: from --out's extension (png otherwise)
  std::string animate;  // an AnimatedParam name: write a .gif / .mp4 instead of a figure
  std::string lesson;   // --animate lesson: the lesson file or name
  AnimationSpec animation;
  std::string state;  // a state / preset / session JSON, or a figure (PNG, SVG, PDF) saved by peviz
  std::string open;   // any file the window's --open takes (a model's config.json, ...), opened over the flags
  // The pages' shared flags (generated from their settings tables: shared_page_flags) and --set PAGE.KEY=VALUE.
  std::map<std::string, std::string> page_values;  // typed for --help and CLI11's conversion; read back as text
  std::map<std::string, long long> page_ints;
  std::map<std::string, double> page_reals;
  std::map<std::string, bool> page_switches;
  std::vector<std::string> set;
  bool list_settings = false, print_state = false;
  CLI::App* sub = nullptr;
  bool given(const char* flag) const { return sub->count(flag) > 0; }
};

// The state JSON in --state: a figure's metadata (PNG, SVG, PDF), a preset ({"state": ...}) or a state/session object.
nlohmann::json read_state_file(const std::string& path) {
  const std::string bytes = read_file_bytes(path, "state", std::size_t(1) << 30);
  if (is_figure_file_name(path)) {
    const FigureMetadata m = parse_figure_metadata(plot::read_figure_text(bytes, "state"));
    nlohmann::json j = m.state;
    j["page"] = m.view.kind == FigureView::one_page ? page_name(m.view.page) : "basics";
    return j;
  }
  const std::string reads = "; --state reads a state, preset or session JSON, or a figure peviz saved (.png, .svg, .pdf)";
  const nlohmann::json j = nlohmann::json::parse(bytes, nullptr, false);
  if (j.is_discarded()) throw ParamError("state", path + " is not a peviz state: it is not JSON" + reads);
  if (j.is_object() && j.contains("state")) return j.at("state");
  if (j.is_object() && !j.contains("params") && (j.contains("model_type") || j.contains("architectures")))
    throw ParamError("state", path + " is a model's config.json, not a peviz state: --open " + path +
                                  " draws that model, as the window's --open does");
  return j;
}

// The flags the user gave, as a partial state over the --state file (or the defaults).
nlohmann::json flags_as_state(const RenderOptions& o) {
  nlohmann::json j = o.state.empty() ? nlohmann::json::object() : read_state_file(o.state);
  if (!j.is_object()) throw ParamError("state", "must hold a JSON object");
  nlohmann::json& p = j["params"];
  if (!p.is_object()) p = nlohmann::json::object();
  const EncodingParams& e = o.encoding.params;
  if (o.given("--encoding")) p["encoding"] = o.encoding.encoding;
  if (o.given("--layout")) p["layout"] = o.encoding.layout;
  if (o.given("--d-model")) p["d_model"] = e.d_model;
  if (o.given("--seq-len")) p["seq_len"] = e.seq_len;
  if (o.given("--base")) p["base"] = e.base;
  if (o.given("--seed")) p["seed"] = e.seed;
  if (o.given("--max-len")) p["max_len"] = e.max_len;
  if (o.given("--signed")) p["signed_bits"] = e.signed_bits;
  if (o.given("--theme")) j["view"]["theme"] = o.theme;
  // A page flag sets every page's setting of its name; the sidebar's (--base, --d-model, --seq-len) set theirs too.
  for (const auto& [name, refs] : shared_page_flags()) {
    const CLI::Option* flag = o.sub->get_option_no_throw("--" + name);
    if (!flag || flag->count() == 0) continue;
    const std::string text = o.page_switches.count(name) ? "true" : flag->results().back();
    for (const PageSettingRef& ref : refs) {
      try {
        put_setting(j, ref, text);
      } catch (const ParamError& e) {
        throw ParamError(name, e.rule);
      }
    }
  }
  for (const std::string& assignment : o.set) {
    const std::size_t eq = assignment.find('=');
    const PageSettingRef ref = find_page_setting(std::string_view(assignment).substr(0, eq));
    if (eq == std::string::npos || !ref.setting)
      throw ParamError("set", "takes PAGE.KEY=VALUE with a key of the page's settings (peviz render --list-settings), got " + assignment);
    put_setting(j, ref, std::string_view(assignment).substr(eq + 1));
  }
  return j;
}

// The message names what the user typed: the flag (--original-max-len for context_extension.original_len), the
// --set assignment, else the --state file.
ParamError as_flag_error(const RenderOptions& o, const ParamError& e) {
  std::string flag = e.param;
  for (char& c : flag) c = c == '_' ? '-' : c;
  const auto given = [&](const std::string& name) {
    const CLI::Option* option = o.sub->get_option_no_throw("--" + name);
    return option && option->count() > 0;
  };
  if (given(flag)) return ParamError(flag, e.rule);
  for (const auto& [name, refs] : shared_page_flags())
    if (given(name))
      for (const PageSettingRef& ref : refs)
        if (e.param == ref.setting->key) return ParamError(name, e.rule);
  for (const std::string& assignment : o.set) {
    const std::string target = assignment.substr(0, assignment.find('='));
    if (target.substr(target.find('.') + 1) == e.param) return ParamError("set", target + " " + e.rule);
  }
  return ParamError("state", e.what());
}

// --format, checked against --out's extension (with --all: the files' extension).
FigureFormat figure_format(const RenderOptions& o) {
  std::optional<FigureFormat> f;
  if (!o.format.empty()) {
    f = parse_figure_format(o.format);
    if (!f) throw ParamError("format", "must be png, svg or pdf, got " + o.format);
  }
  if (o.all) return f.value_or(FigureFormat::png);
  const auto ext = figure_format_of_path(o.out);
  const std::string suffix = std::filesystem::path(o.out).extension().string();
  if (!ext && !suffix.empty())  // x.jpg is not written as a PNG under a JPEG's name
    throw ParamError("out", "peviz writes a figure as .png, .svg or .pdf (with --animate: .gif or .mp4), not " + suffix +
                                ": " + o.out);
  if (f && ext && *f != *ext)
    throw ParamError("format", "is " + o.format + " but --out ends in ." + kFigureFormatNames[int(*ext)]);
  return f ? *f : ext.value_or(FigureFormat::png);
}

// "position 0, base 100, ..." : each swept parameter's default first (or last) value, from default_sweep.
std::string sweep_ends_text(bool first) {
  std::string text;
  for (int i = 0; i < kAnimatedParamCount; ++i) {
    if (AnimatedParam(i) == AnimatedParam::lesson) continue;
    const AnimationSpec r = default_sweep(AnimatedParam(i));
    char value[32];
    std::snprintf(value, sizeof value, "%g", first ? r.from : r.to);
    text += (text.empty() ? "" : ", ") + std::string(kAnimatedParamNames[i]) + " " + value;
  }
  return text;
}

// The text scale of the captures: presentation mode's zoom with --present (app/model/presentation.hpp), else 1.
float capture_ui_scale(const AppState& s) { return s.teach.presenting ? s.ui_zoom : 1.0f; }

// --animate lesson: one capture per step (--from / --to: first and last step, 1-based; default all),
// then the frames hold each step and cross-fade into the next (lesson_animation_frame).
void add_lesson_frames(RenderOptions& o, AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& fig,
                       const std::function<void(const RgbaImage&)>& add) {
  const std::filesystem::path path = resolve_lesson(o.lesson);
  if (o.lesson.empty() || path.empty()) throw ParamError("lesson", "--animate lesson needs --lesson NAME|FILE: none found for '" + o.lesson + "'");
  Lesson lesson = load_lesson_file(path);
  const AnimationSpec spec = o.animation;  // --from / --to default to every step (default_sweep)
  const LessonSpan span = lesson_span(spec, int(lesson.steps.size()), path.filename().string());
  start_lesson(s, std::move(lesson), span.first - 1);
  std::vector<RgbaImage> pictures;
  capture_animation(s, renderer, fig, capture_ui_scale(s), span.count(), [&](int i) { go_to_step(s, span.first - 1 + i); },
                    [&](int, const RgbaImage& img) {
                      pictures.push_back(img);
                      return true;
                    });
  for (int f = 0; f < o.animation.frames; ++f) add(lesson_animation_frame(pictures, f, o.animation.frames));
}

// The frames of --animate, captured offscreen like figures, into the GIF or MP4 writer.
void write_animation(RenderOptions& o, AppState& s, gfx::HeatmapRenderer& renderer, const FigureOptions& fig) {
  const AnimationFormat format = *animation_format_of_path(o.out);
  const int w = fig.width * fig.scale, h = fig.height * fig.scale;
  std::unique_ptr<media::GifWriter> gif;
  std::unique_ptr<media::Mp4Writer> mp4;
  if (format == AnimationFormat::gif) gif = std::make_unique<media::GifWriter>(w, h, o.animation.fps, plot::continuous_colormap_ramps());
  else mp4 = std::make_unique<media::Mp4Writer>(w, h, o.animation.fps);
  if (o.animation.param == AnimatedParam::lesson) {
    add_lesson_frames(o, s, renderer, fig, [&](const RgbaImage& img) { gif ? gif->add_frame(img) : mp4->add_frame(img); });
    gif ? gif->write(o.out) : mp4->write(o.out);
    std::printf("%s\n", o.out.c_str());
    return;
  }
  const auto set_frame = [&](int i) {
    try {
      apply_state_json(animation_patch(o.animation.param, animation_value(o.animation, i)), s);
    } catch (const ParamError& e) {
      throw ParamError(o.animate, "frame " + std::to_string(i) + ": " + e.rule);
    }
  };
  std::vector<std::uint8_t> first;  // the first frame's pixels: an animation in which none differs is refused
  bool moves = false;
  capture_animation(s, renderer, fig, capture_ui_scale(s), o.animation.frames, set_frame, [&](int i, const RgbaImage& img) {
    if (s.status_is_error) throw ParamError(o.animate, s.status);
    if (i == 0) first = img.pixels;
    else moves = moves || img.pixels != first;
    gif ? gif->add_frame(img) : mp4->add_frame(img);
    return true;
  });
  if (!moves)  // nothing written: the writers hold the frames until write()
    throw ParamError("animate", o.view + " does not change with " + o.animate + ": every frame is the same picture, so "
                                "nothing is written; animate a view that shows " + o.animate);
  gif ? gif->write(o.out) : mp4->write(o.out);
  std::printf("%s\n", o.out.c_str());
}

// --animate: the parameter swept, its range and the file kind, checked before anything is drawn.
void check_animation_flags(RenderOptions& o) {
  const auto param = parse_animated_param(o.animate);
  if (!param) throw ParamError("animate", "must be one of " + animated_param_names() + ", got " + o.animate);
  o.animation.param = *param;
  if (*param == AnimatedParam::lesson && !o.given("--view")) o.view = "window";  // steps change pages
  if (o.all) throw ParamError("animate", "animates one --view, not --all");
  const auto kind = animation_format_of_path(o.out);
  if (!kind) throw ParamError("out", "an animation is written to a .gif or .mp4 file, got " + o.out);
  const AnimationSpec range = default_sweep(*param);
  if (!o.sub->count("--from")) o.animation.from = range.from;
  if (!o.sub->count("--to")) o.animation.to = range.to;
  validate(o.animation, *kind);
  if (*kind == AnimationFormat::mp4 && ((o.width * o.scale) % 2 || (o.height * o.scale) % 2))
    throw ParamError("width", "an MP4 (H.264, yuv420p) needs an even width and height in pixels, got " +
                                  std::to_string(o.width * o.scale) + " x " + std::to_string(o.height * o.scale));
}

// The views drawn: every single view with --all, else --view's.
std::vector<FigureView> views_of(const RenderOptions& o) {
  if (o.all) return single_figure_views();
  const auto v = parse_figure_view(o.view);
  if (!v) throw ParamError("view", "must be one of " + figure_view_names() + ", got " + o.view);
  return {*v};
}

// The figure's size, scale, theme and options from the flags (validated).
FigureOptions figure_options_of(const RenderOptions& o) {
  FigureOptions fig;
  fig.width = o.width;
  fig.height = o.height;
  fig.scale = o.scale;
  fig.transparent = o.transparent;
  fig.caption = o.caption || !o.open.empty();  // a figure of an opened file names it (a model: its name, scaling)
  fig.highlight = o.highlight;
  if (o.theme != "dark" && o.theme != "light") throw ParamError("theme", "must be dark or light, got " + o.theme);
  fig.theme = o.theme == "light" || (o.present && !o.given("--theme")) ? Theme::light : Theme::dark;
  validate(fig);
  return fig;
}

// The pages' shared flags, one per name their settings tables declare (a flag the sidebar's encoding flags already
// define, such as --base, sets the pages' settings of that name too), and --set / --list-settings.
void add_page_flags(CLI::App& sub, RenderOptions& o) {
  for (const auto& [name, refs] : shared_page_flags()) {
    if (sub.get_option_no_throw("--" + name)) continue;
    std::string pages;
    for (const PageSettingRef& ref : refs) pages += (pages.empty() ? "" : ", ") + std::string(ref.page->name);
    const PageSetting& first = *refs.front().setting;
    const std::string help = std::string(first.help) + " (" + pages + "; " + setting_range_text(first) + ")";
    const auto all_are = [&](SettingType t) {
      return std::all_of(refs.begin(), refs.end(), [t](const PageSettingRef& r) { return r.setting->access.type == t; });
    };
    if (all_are(SettingType::flag)) sub.add_flag("--" + name, o.page_switches[name], help);
    else if (all_are(SettingType::integer)) sub.add_option("--" + name, o.page_ints[name], help);
    else if (all_are(SettingType::real)) sub.add_option("--" + name, o.page_reals[name], help);
    else sub.add_option("--" + name, o.page_values[name], help);
  }
  sub.add_option("--set", o.set, "A page's setting, PAGE.KEY=VALUE (repeatable; --list-settings lists them)");
  sub.add_flag("--list-settings", o.list_settings, "Print every page's settings (PAGE.KEY, range, help) and exit");
  sub.add_flag("--print-state", o.print_state, "Print the state JSON the flags describe (over --state) and exit: "
                                                "nothing is drawn, no display needed");
}

// "alibi.heads  an integer in [1, 64] (default 8)  Attention heads ...": one line per setting of every page.
std::string settings_list() {
  std::string out;
  for (const PageModel* page : page_models())
    for (const PageSetting& s : page->settings) {
      out += std::string(page->name) + "." + s.key + "  " + setting_range_text(s);
      if (s.limit) out += " (default " + setting_text(s.limit->fallback) + ")";
      out += "  " + std::string(s.help) + "\n";
    }
  return out;
}

// The state the flags describe, with the learned table of --from-npy / --from-safetensors installed.
void apply_render_state(const RenderOptions& o, AppState& s) {
  try {
    apply_state_json(flags_as_state(o), s);
  } catch (const ParamError& e) {
    throw as_flag_error(o, e);
  }
  if (!o.open.empty()) {
    try {
      open_file(s, o.open);
    } catch (const ParamError& e) {  // a missing or foreign file, named as the window's --open names it
      throw ParamError("open", o.open + ": " + e.rule);
    }
  }
  if (o.encoding.from_npy.empty() && o.encoding.from_safetensors.empty()) return;
  cli::EncodingFlags f = o.encoding;
  f.encoding = "learned";
  const EncodingParams loaded = cli::resolve_encoding_flags(f);  // loads and validates the table
  install_learned_table(s, loaded.learned_table, loaded.learned_source,
                        o.encoding.from_npy.empty() ? o.encoding.from_safetensors : o.encoding.from_npy);
}

// Draws and writes the animation or every figure, printing each path. Inside the GL context.
void write_outputs(RenderOptions& o, AppState& s, gfx::HeatmapRenderer& renderer, FigureOptions fig,
                   const std::vector<FigureView>& views, FigureFormat format) {
  if (!o.animate.empty()) {
    fig.view = views[0];
    return write_animation(o, s, renderer, fig);
  }
  for (const FigureView& v : views) {
    fig.view = v;
    std::string path = o.out;
    if (o.all)
      path = (std::filesystem::path(o.out) / figure_file_name(s, v, -1)).replace_extension(kFigureFormatNames[int(format)]).string();
    save_figure(s, renderer, fig, capture_ui_scale(s), format, path);
    std::printf("%s\n", path.c_str());
  }
}

void run_render(RenderOptions& o) {
  if (o.list_settings) {
    std::fputs(settings_list().c_str(), stdout);
    return;
  }
  if (o.print_state) {  // the state the flags describe, without a display
    AppState s;
    apply_render_state(o, s);
    std::puts(state_to_json(s).dump(2).c_str());
    return;
  }
  if (o.out.empty()) throw ParamError("out", "is required: a .png, .svg or .pdf path (a folder with --all; .gif or .mp4 with --animate)");
  const FigureFormat format = o.animate.empty() ? figure_format(o) : FigureFormat::png;
  if (!o.animate.empty()) check_animation_flags(o);
  else  // a sweep's flag without a sweep would be ignored: said instead
    for (const char* flag : {"--from", "--to", "--frames", "--fps", "--lesson"})
      if (o.given(flag)) throw ParamError(flag + 2, "only applies with --animate");
  const std::vector<FigureView> views = views_of(o);
  const FigureOptions fig = figure_options_of(o);
  auto state = std::make_unique<AppState>();  // fixed address: the GL layer keeps pointers into it
  AppState& s = *state;
  apply_render_state(o, s);
  if (o.present) set_presenting(s, true);
  if (format != FigureFormat::png && std::find(views.begin(), views.end(), FigureView{}) != views.end())
    throw ParamError("format", "the whole-window figure is PNG only (vector figures leave widgets out): pick a --view");
  if (o.all) {
    std::error_code ec;
    std::filesystem::create_directories(o.out, ec);
    if (!std::filesystem::is_directory(o.out, ec)) throw ParamError("out", "with --all must be a folder, got " + o.out);
  }

  GLFWwindow* window = open_window(o.width, o.height, false, "render");
  if (!window) throw cli::UsageExit{};  // the reason is printed; exit 2
  plot::create_context();
  std::string failure;
  bool usage_error = false;
  {
    gfx::HeatmapRenderer renderer;
    try {
      renderer = gfx::create_heatmap_renderer();
      failure = load_fonts(1.0f);  // a missing font is fatal, as in the window
      attach_heatmaps(s, renderer);
      if (failure.empty()) write_outputs(o, s, renderer, fig, views, format);
    } catch (const gfx::ShaderError& e) {
      failure = e.what();
    } catch (const ParamError& e) {
      failure = "--" + e.param + ": " + e.rule;
      usage_error = true;
    }
    release_heatmaps(renderer);
  }
  plot::destroy_context();
  close_window(window);
  if (!failure.empty()) {
    std::fprintf(stderr, "peviz: %s\n", failure.c_str());
    if (usage_error) throw cli::UsageExit{};
    throw cli::FailureExit{};
  }
}

}  // namespace

void register_render(CLI::App& app) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* sub = app.add_subcommand(
      "render", "Draw one view (or --all) into a PNG without user interaction (needs a display; use xvfb-run on a server)");
  o->sub = sub;
  sub->add_option("--view", o->view, figure_view_names())
      ->capture_default_str();
  sub->add_flag("--all", o->all, "Every view (not the window), one PNG each into the --out folder, named by view and parameters");
  sub->add_option("--out", o->out, "The figure to write: .png, .svg or .pdf (a folder with --all; .gif or .mp4 with --animate)");
  sub->add_option("--format", o->format, "png, svg or pdf (default: from --out's extension, else png); the window is PNG only");
  sub->add_option("--animate", o->animate, "Write an animation of --view sweeping one parameter: position (RoPE clocks), base, "
                                           "d-model, seq-len, factor (context extension), or lesson (its steps, cross-faded; --lesson)");
  sub->add_option("--lesson", o->lesson, "--animate lesson: the lesson (a file, or a name in assets/lessons/)");
  sub->add_option("--from", o->animation.from,
                  "--animate: the first frame's value (default: " + sweep_ends_text(true) + "; lesson: the first step, 1-based)");
  sub->add_option("--to", o->animation.to, "--animate: the last frame's value (default: " + sweep_ends_text(false) +
                                               "; lesson: the last step)");
  sub->add_option("--frames", o->animation.frames, "--animate: number of frames, " + range_text(limits::animation_frames))->capture_default_str();
  sub->add_option("--fps", o->animation.fps, "--animate: frames per second, " + range_text(limits::animation_fps) + " (a GIF: at most 50)")->capture_default_str();
  sub->add_option("--width", o->width, "Figure width in screen units, " + range_text(limits::figure_width))->capture_default_str();
  sub->add_option("--height", o->height, "Figure height in screen units, " + range_text(limits::figure_height))->capture_default_str();
  sub->add_option("--scale", o->scale, "Pixels per screen unit: 1, 2 or 4 (fonts rasterised for it; at most 7680 x 4320 pixels)")
      ->capture_default_str();
  sub->add_option("--theme", o->theme, "dark or light")->capture_default_str();
  sub->add_flag("--transparent", o->transparent, "No window background (alpha 0 around the panels)");
  sub->add_flag("--caption", o->caption, "A caption line with the parameters under the figure");
  sub->add_flag("--highlight", o->highlight, "Mark the highlighted position (--state's, else 32) as the window does; "
                                             "single-view figures leave it out otherwise");
  sub->add_flag("--present", o->present, "Draw as presentation mode does: light theme (unless --theme), text at 1.5x, the "
                                         "parameter header over the page (--view window, --animate lesson)");
  sub->add_option("--state", o->state, "Start from a state: a figure saved by peviz (PNG, SVG, PDF), a preset or a session JSON");
  sub->add_option("--open", o->open, "Open a file over the state and flags, as the window's --open does: a model's "
                                     "config.json (its positions, its own scaling), a figure, a lab run or a learned "
                                     "table; the caption, on, names it");
  cli::add_encoding_flags(*sub, o->encoding);
  add_page_flags(*sub, *o);
  sub->callback([o] { run_render(*o); });
}

}  // namespace peviz::app
