// `peviz render --view NAME | --all [parameter flags] --width W --height H [--scale S] --out PATH`.
#include "app/model/page_model.hpp"
#include "app/ui/render_command.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "app/model/analysis_update.hpp"
#include "app/model/figure.hpp"
#include "app/ui/figure_capture.hpp"
#include "app/gfx/heatmap_renderer.hpp"
#include "app/gfx/shader.hpp"
#include "app/model/state_json.hpp"
#include "app/ui/theme.hpp"
#include "app/gfx/window.hpp"
#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/png_file.hpp"

namespace peviz::app {

namespace {

struct RenderOptions {
  cli::EncodingFlags encoding;
  std::string view = "encoding";
  bool all = false;
  int width = 1600, height = 900, scale = 1;
  std::string theme = "dark";
  bool transparent = false, caption = false;
  std::string out;
  std::string state;  // a state / preset / session JSON, or a figure PNG saved by peviz
  // Relative-family flags (0 = keep the state's value).
  int head_dim = 0, heads = 0, num_buckets = 0, max_distance = 0, max_relative = 0, original_max_len = 0;
  double factor = 0.0, position = -1.0;
  std::string pairing;
  bool causal = false, bidirectional = false;
  CLI::App* sub = nullptr;
  bool given(const char* flag) const { return sub->count(flag) > 0; }
};

// The state JSON in --state: a figure PNG's metadata, a preset ({"state": ...}) or a state/session object.
nlohmann::json read_state_file(const std::string& path) {
  const std::string bytes = read_file_bytes(path, "state", std::size_t(1) << 30);
  if (std::filesystem::path(path).extension() == ".png") {
    const FigureMetadata m = parse_figure_metadata(read_png_text(bytes, "state"));
    nlohmann::json j = m.state;
    j["page"] = m.view.kind == FigureView::analysis_page ? page_name(m.view.page) : "basics";
    return j;
  }
  try {
    nlohmann::json j = nlohmann::json::parse(bytes);
    if (j.is_object() && j.contains("state")) return j.at("state");
    return j;
  } catch (const nlohmann::json::exception& e) {
    throw ParamError("state", path + " is not valid JSON: " + e.what());
  }
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
  // RoPE pages follow --base and --head-dim; every page that has the knob takes it.
  for (const char* page : {"rope_clocks", "context_extension"}) {
    if (o.given("--base")) j[page]["base"] = e.base;
    if (o.head_dim) j[page]["head_dim"] = o.head_dim;
    if (!o.pairing.empty()) j[page]["pairing"] = o.pairing;
  }
  if (o.given("--base")) {
    j["precision"]["base"] = e.base;
    j["distance"]["rope_base"] = e.base;
    j["distance"]["sinusoid_base"] = e.base;
  }
  if (o.head_dim) {
    j["rope_decay"]["head_dim"] = o.head_dim;
    j["precision"]["head_dim"] = o.head_dim;
    j["distance"]["rope_head_dim"] = o.head_dim;
  }
  if (o.given("--d-model")) j["distance"]["d_model"] = e.d_model;
  if (o.given("--seq-len")) {
    j["distance"]["seq_len"] = e.seq_len;
    j["alibi"]["seq_len"] = e.seq_len;
    j["t5_shaw"]["seq_len"] = e.seq_len;
  }
  if (o.position >= 0) j["rope_clocks"]["position"] = o.position;
  if (o.factor > 0) j["context_extension"]["factor"] = o.factor;
  if (o.original_max_len) j["context_extension"]["original_len"] = o.original_max_len;
  if (o.given("--factor") || o.original_max_len) j["context_extension"]["preset"] = -1;
  if (o.heads) j["alibi"]["heads"] = j["distance"]["heads"] = o.heads;
  if (o.given("--bidirectional")) j["alibi"]["bidirectional"] = true;
  if (o.given("--causal")) j["t5_shaw"]["causal"] = j["distance"]["causal"] = true;
  if (o.num_buckets) j["t5_shaw"]["num_buckets"] = j["distance"]["num_buckets"] = o.num_buckets;
  if (o.max_distance) j["t5_shaw"]["max_distance"] = j["distance"]["max_distance"] = o.max_distance;
  if (o.given("--max-relative")) j["t5_shaw"]["max_relative"] = j["distance"]["max_relative"] = o.max_relative;
  return j;
}

// State keys use underscores; the message should name the flag the user typed.
ParamError as_flag_error(const ParamError& e) {
  std::string flag = e.param;
  for (char& c : flag) c = c == '_' ? '-' : c;
  if (flag == "head-dim" || flag == "d-model" || flag == "seq-len" || flag == "base" || flag == "heads" ||
      flag == "num-buckets" || flag == "max-distance" || flag == "max-relative" || flag == "factor" ||
      flag == "max-len" || flag == "encoding" || flag == "layout" || flag == "theme" || flag == "pairing")
    return ParamError(flag, e.rule);
  return ParamError("state", e.what());
}

void run_render(RenderOptions& o) {
  if (o.out.empty()) throw ParamError("out", "is required: a .png path (or a folder with --all)");
  std::vector<FigureView> views;
  if (o.all) {
    views = single_figure_views();
  } else {
    const auto v = parse_figure_view(o.view);
    if (!v) throw ParamError("view", "must be one of " + figure_view_names() + ", got " + o.view);
    views = {*v};
  }
  FigureOptions fig;
  fig.width = o.width;
  fig.height = o.height;
  fig.scale = o.scale;
  fig.transparent = o.transparent;
  fig.caption = o.caption;
  if (o.theme != "dark" && o.theme != "light") throw ParamError("theme", "must be dark or light, got " + o.theme);
  fig.theme = o.theme == "light" ? Theme::light : Theme::dark;
  validate(fig);

  auto state = std::make_unique<AppState>();  // fixed address: the GL layer keeps pointers into it
  AppState& s = *state;
  try {
    apply_state_json(flags_as_state(o), s);
  } catch (const ParamError& e) {
    throw as_flag_error(e);
  }
  if (!o.encoding.from_npy.empty() || !o.encoding.from_safetensors.empty()) {
    cli::EncodingFlags f = o.encoding;
    f.encoding = "learned";
    const EncodingParams loaded = cli::resolve_encoding_flags(f);  // loads and validates the table
    s.params.encoding = Encoding::learned;
    s.params.learned_table = loaded.learned_table;
    s.params.learned_source = loaded.learned_source;
    s.params.d_model = loaded.d_model;
    s.params.max_len = loaded.max_len;
    s.analysis.learned.loaded_name = o.encoding.from_npy.empty() ? o.encoding.from_safetensors : o.encoding.from_npy;
    mark_params_changed(s);
  }
  if (o.all) {
    std::error_code ec;
    std::filesystem::create_directories(o.out, ec);
    if (!std::filesystem::is_directory(o.out, ec)) throw ParamError("out", "with --all must be a folder, got " + o.out);
  }

  GLFWwindow* window = open_window(o.width, o.height, false, "render");
  if (!window) throw cli::UsageExit{};  // the reason is printed; exit 2
  std::string failure;
  bool usage_error = false;
  {
    gfx::HeatmapRenderer renderer;
    try {
      renderer = gfx::create_heatmap_renderer();
      failure = load_fonts(1.0f);  // a missing font is fatal, as in the window
      gfx::attach(renderer, s.encoding_image);
      gfx::attach(renderer, s.similarity_image);
      for (plot::HeatmapImage* img : analysis_images(s.analysis)) gfx::attach(renderer, *img);
      for (const FigureView& v : failure.empty() ? views : std::vector<FigureView>{}) {
        fig.view = v;
        const RgbaImage image = capture_figure(s, renderer, fig, 1.0f);
        if (s.status_is_error) throw ParamError(figure_view_name(v), s.status);
        const std::string path =
            o.all ? (std::filesystem::path(o.out) / figure_file_name(s, v, -1)).string() : o.out;
        write_png_file(path, image, figure_metadata(s, v), "out");
        std::printf("%s\n", path.c_str());
      }
    } catch (const gfx::ShaderError& e) {
      failure = e.what();
    } catch (const ParamError& e) {
      failure = "--" + e.param + ": " + e.rule;
      usage_error = true;
    }
    if (renderer.program) gfx::destroy(renderer);
  }
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
  sub->add_option("--view", o->view, "window, waves, encoding, similarity, binary, rope-clocks, rope-decay, "
                                     "context-extension, alibi, t5-shaw, distance, linear-shift, criteria, learned, precision")
      ->capture_default_str();
  sub->add_flag("--all", o->all, "Every view (not the window), one PNG each into the --out folder, named by view and parameters");
  sub->add_option("--out", o->out, "The PNG to write (a folder with --all)");
  sub->add_option("--width", o->width, "Figure width in screen units, 64..7680")->capture_default_str();
  sub->add_option("--height", o->height, "Figure height in screen units, 64..7680")->capture_default_str();
  sub->add_option("--scale", o->scale, "Pixels per screen unit: 1, 2 or 4 (fonts rasterised for it; at most 7680 x 4320 pixels)")
      ->capture_default_str();
  sub->add_option("--theme", o->theme, "dark or light")->capture_default_str();
  sub->add_flag("--transparent", o->transparent, "No window background (alpha 0 around the panels)");
  sub->add_flag("--caption", o->caption, "A caption line with the parameters under the figure");
  sub->add_option("--state", o->state, "Start from a state: a figure PNG saved by peviz, a preset or a session JSON");
  cli::add_encoding_flags(*sub, o->encoding);
  sub->add_option("--head-dim", o->head_dim, "RoPE views: channels per head (even, 2..16384)");
  sub->add_option("--pairing", o->pairing, "RoPE views: halves or interleaved");
  sub->add_option("--position", o->position, "RoPE clocks: the position t whose rotations are drawn");
  sub->add_option("--factor", o->factor, "Context extension: scaling factor (>= 1)");
  sub->add_option("--original-max-len", o->original_max_len, "Context extension: original context length");
  sub->add_option("--heads", o->heads, "ALiBi: attention heads, 1..64");
  sub->add_flag("--bidirectional", o->bidirectional, "ALiBi: the symmetric -m|i-j| bias instead of the causal one");
  sub->add_flag("--causal", o->causal, "T5: causal buckets");
  sub->add_option("--num-buckets", o->num_buckets, "T5: relative_attention_num_buckets");
  sub->add_option("--max-distance", o->max_distance, "T5: relative_attention_max_distance");
  sub->add_option("--max-relative", o->max_relative, "Shaw: clipping distance k");
  sub->callback([o] { run_render(*o); });
}

}  // namespace peviz::app
