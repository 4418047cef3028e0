// Xvfb tests of `peviz render`: every view renders with content, scale
// multiplies the pixels with crisp text, the parameters ride in the PNG, no display exits 2; --format svg|pdf
// (axis titles and tick labels as text, reopening to the state); --animate and the window's --record write
// GIF / MP4 animations with the asked frames, size and rate (read back with giflib and libavformat).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

extern "C" {
#include <libavformat/avformat.h>
}
#include <gif_lib.h>

#include "app/model/figure.hpp"
#include "app/plot/vector_metadata.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/png_file.hpp"
#include "tests/app/model/page_setting_values.hpp"
#include "tests/app/ui/run_gui.hpp"
#include "tests/build_paths.hpp"
#include "tests/cli/flag_probe.hpp"

using namespace peviz;
namespace fs = std::filesystem;

namespace {

RgbaImage load(const std::string& path) { return decode_png(read_file_bytes(path, "test")); }

std::size_t distinct_colours(const RgbaImage& img) {
  std::set<std::uint32_t> c;
  for (std::size_t i = 0; i < img.pixels.size(); i += 4)
    c.insert(std::uint32_t(img.pixels[i]) << 16 | std::uint32_t(img.pixels[i + 1]) << 8 | img.pixels[i + 2]);
  return c.size();
}

// Fraction of pixels in the top-left text row band that are neither background nor full glyph colour:
// rasterised-for-scale text keeps a thin anti-aliased edge; an upscaled bitmap would double it.
double edge_fraction(const RgbaImage& img, int x1, int y1) {
  const std::uint8_t* bg = img.pixels.data();
  std::size_t ink = 0, edge = 0;
  for (int y = 0; y < y1; ++y)
    for (int x = 0; x < x1; ++x) {
      const std::uint8_t* p = img.pixels.data() + (std::size_t(y) * img.width + x) * 4;
      const int d = std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]);
      if (d > 30) ++ink;
      if (d > 30 && d < 500) ++edge;
    }
  return ink ? double(edge) / double(ink) : 1.0;
}

// Every <text> element's content, one per line (Python's XML parser: fails on malformed XML).
RunResult svg_texts(const std::string& path) {
  return run_shell("python3 -c \"import sys, xml.etree.ElementTree as E; "
                   "[print(t.text) for t in E.parse(sys.argv[1]).getroot().iter('{http://www.w3.org/2000/svg}text')]\" " + path);
}

// A GIF read back with giflib: frames, screen size, the sum of the frame delays (hundredths).
struct GifInfo {
  int frames = 0, width = 0, height = 0, total_delay = 0;
};
GifInfo read_gif(const std::string& path) {
  int err = 0;
  GifFileType* g = DGifOpenFileName(path.c_str(), &err);
  REQUIRE(g);
  GifInfo info;
  if (DGifSlurp(g) == GIF_OK) {
    info = {g->ImageCount, g->SWidth, g->SHeight, 0};
    for (int i = 0; i < g->ImageCount; ++i) {
      GraphicsControlBlock gcb;
      if (DGifSavedExtensionToGCB(g, i, &gcb) == GIF_OK) info.total_delay += gcb.DelayTime;
    }
  }
  DGifCloseFile(g, &err);
  return info;
}

// Frame `index` of a GIF as the viewer shows it: the frames up to it drawn over each other (each after the first
// stores only the rectangle that changed), RGBA.
RgbaImage gif_frame(const std::string& path, int index) {
  int err = 0;
  GifFileType* g = DGifOpenFileName(path.c_str(), &err);
  REQUIRE(g);
  REQUIRE(DGifSlurp(g) == GIF_OK);
  REQUIRE(index < g->ImageCount);
  RgbaImage img{g->SWidth, g->SHeight, std::vector<std::uint8_t>(std::size_t(g->SWidth) * std::size_t(g->SHeight) * 4, 255)};
  for (int f = 0; f <= index; ++f) {
    const SavedImage& s = g->SavedImages[f];
    const ColorMapObject* map = s.ImageDesc.ColorMap ? s.ImageDesc.ColorMap : g->SColorMap;
    for (int y = 0; y < s.ImageDesc.Height; ++y)
      for (int x = 0; x < s.ImageDesc.Width; ++x) {
        const GifColorType c = map->Colors[s.RasterBits[y * s.ImageDesc.Width + x]];
        std::uint8_t* p = &img.pixels[(std::size_t(s.ImageDesc.Top + y) * std::size_t(img.width) + std::size_t(s.ImageDesc.Left + x)) * 4];
        p[0] = c.Red, p[1] = c.Green, p[2] = c.Blue;
      }
  }
  DGifCloseFile(g, &err);
  return img;
}

// The most distinct colours down any one column: a colour bar's column, where there is one.
std::size_t most_colours_down_a_column(const RgbaImage& img) {
  std::size_t best = 0;
  for (int x = 0; x < img.width; ++x) {
    std::set<std::uint32_t> c;
    for (int y = 0; y < img.height; ++y) {
      const std::uint8_t* p = &img.pixels[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4];
      c.insert(std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | p[2]);
    }
    best = std::max(best, c.size());
  }
  return best;
}

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("peviz render draws every view with content and its parameters inside") {
  const std::string dir = temp_path("render-all");
  fs::remove_all(dir);
  const RunResult r = run_gui("render --all --out " + dir + " --width 640 --height 400 --theme light --d-model 64");
  REQUIRE(r.code == 0);
  const auto views = app::single_figure_views();
  for (const app::FigureView& v : views) {
    // One file per view, named after the view and what it depends on (app::figure_file_name).
    const std::string prefix = "peviz-" + app::figure_view_name(v) + "-";
    std::string path;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename().string().rfind(prefix, 0) == 0) path = e.path().string();
    INFO(prefix);
    REQUIRE(fs::exists(path));
    const RgbaImage img = load(path);
    CHECK(img.width == 640);
    CHECK(img.height == 400);
    CHECK(distinct_colours(img) > 40);  // plots, text and colours, not a blank frame
    const auto meta = app::parse_figure_metadata(read_png_text(read_file_bytes(path, "test")));
    CHECK(meta.view == v);
    CHECK(meta.state.at("params").at("d_model") == 64);
  }
  CHECK(fs::exists(dir + "/peviz-encoding-d64-b10000-L128.png"));
  CHECK(fs::exists(dir + "/peviz-rope-clocks-head-dim-64-base-10000-halves-t-12.png"));  // not the sidebar's d, b, L
  fs::remove_all(dir);
}

TEST_CASE("scale 2 doubles the pixels and keeps text crisp; transparent keeps alpha 0") {
  const std::string one = temp_path("enc1.png"), two = temp_path("enc2.png");
  REQUIRE(run_gui("render --view encoding --width 500 --height 300 --out " + one).code == 0);
  REQUIRE(run_gui("render --view encoding --width 500 --height 300 --scale 2 --transparent --out " + two).code == 0);
  const RgbaImage a = load(one), b = load(two);
  CHECK(b.width == 2 * a.width);
  CHECK(b.height == 2 * a.height);
  CHECK(a.pixels[3] == 255);
  CHECK(b.pixels[3] == 0);  // the corner is background: transparent
  // Opaque copy of b for the edge measure (background = first pixel, now alpha 0 black).
  const double e1 = edge_fraction(a, 300, 22), e2 = edge_fraction(b, 600, 44);
  INFO("edge fraction 1x " << e1 << ", 2x " << e2);
  CHECK(e2 < e1);  // text drawn at 2x has relatively fewer edge pixels than at 1x: not upscaled
  std::remove(one.c_str());
  std::remove(two.c_str());
}

TEST_CASE("peviz render refuses bad requests with exit 2 and one line") {
  const std::string out = temp_path("never.png");
  RunResult r = run_shell("env -u DISPLAY " + std::string(peviz::test::peviz_binary) + " render --view waves --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err.find("cannot open a display") != std::string::npos);
  r = run_gui("render --view waves --scale 4 --width 2000 --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err.find("--scale:") != std::string::npos);
  r = run_gui("render --view nowhere --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err.find("--view: must be one of window, waves") != std::string::npos);
  r = run_gui("render --view waves --out /proc/no-such/x.png");
  CHECK(r.code == 2);
  CHECK_FALSE(fs::exists(out));
  const std::string jpg = temp_path("figure.jpg");  // not a PNG under a JPEG's name
  r = run_gui("render --view waves --out " + jpg);
  CHECK(r.code == 2);
  CHECK(r.err == "peviz: --out: peviz writes a figure as .png, .svg or .pdf (with --animate: .gif or .mp4), not .jpg: " +
                     jpg + "\n");
  CHECK_FALSE(fs::exists(jpg));
}

TEST_CASE("render --open draws a model from its config.json, named with its scaling; --state refuses what is no state") {
  const std::string config = std::string(peviz::test::source_dir) + "/assets/models/llama-3.1-8b-instruct.json";
  const std::string path = temp_path("opened-model.svg");
  const RunResult r = run_gui("render --open " + config + " --view context-extension --width 900 --height 600 --out " + path);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const RunResult t = svg_texts(path);
  REQUIRE(t.code == 0);
  CHECK(t.out.find("llama-3.1-8b-instruct") != std::string::npos);  // the caption, on with --open, names the model
  CHECK(t.out.find("factor 8") != std::string::npos);               // and its own scaling
  CHECK(t.out.find("original 8192") != std::string::npos);
  std::remove(path.c_str());
  const std::string never = temp_path("never-state.png");
  RunResult refused = run_gui("render --state " + config + " --view waves --out " + never);
  CHECK(refused.code == 2);
  CHECK(refused.err == "peviz: --state: " + config + " is a model's config.json, not a peviz state: --open " + config +
                           " draws that model, as the window's --open does\n");
  const std::string fake = temp_path("fake.safetensors");
  std::ofstream(fake) << "not a safetensors file";
  refused = run_gui("render --state " + fake + " --view waves --out " + never);
  CHECK(refused.code == 2);
  CHECK(refused.err == "peviz: --state: " + fake + " is not a peviz state: it is not JSON; --state reads a state, preset "
                       "or session JSON, or a figure peviz saved (.png, .svg, .pdf)\n");
  refused = run_gui("render --open " + fake + " --view waves --out " + never);
  CHECK(refused.code == 2);
  CHECK(refused.err.find("peviz: --open: " + fake + ": not a safetensors file peviz reads as a learned table") == 0);
  CHECK(count_lines(refused.err) == 1);
  CHECK_FALSE(fs::exists(never));
  std::remove(fake.c_str());
}

TEST_CASE("render --format svg writes XML with the axis titles and tick labels as <text>, reopening to the state") {
  const std::string path = temp_path("encoding.svg");
  const RunResult r = run_gui("render --view encoding --width 800 --height 500 --d-model 48 --seq-len 100 --caption --out " + path);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const RunResult t = svg_texts(path);
  INFO(t.out << t.err);
  REQUIRE(t.code == 0);
  CHECK(has_line(t.out, "position"));  // the y axis title
  CHECK(has_line(t.out, "channel"));   // the x axis title
  CHECK(has_line(t.out, "0"));         // tick labels
  CHECK(has_line(t.out, "40"));
  CHECK(t.out.find("d_model 48") != std::string::npos);  // the caption
  const auto meta = app::parse_figure_metadata(plot::read_figure_text(read_file_bytes(path, "test")));
  CHECK(meta.view == app::FigureView{app::FigureView::encoding});
  CHECK(meta.state.at("params").at("d_model") == 48);
  fs::remove(path);
}

TEST_CASE("render --view rope-decay --format svg names each base of its three curves in the legend") {
  const std::string path = temp_path("decay.svg");
  const RunResult r = run_gui("render --view rope-decay --width 900 --height 560 --out " + path);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const RunResult t = svg_texts(path);
  INFO(t.out << t.err);
  REQUIRE(t.code == 0);
  for (const char* base : {"base 10000", "base 500000", "base 1e6"}) CHECK(has_line(t.out, base));
  fs::remove(path);
}

TEST_CASE("render --format pdf writes text pdftotext finds; --format and the extension must agree") {
  const std::string path = temp_path("encoding.pdf");
  const RunResult r = run_gui("render --view encoding --format pdf --width 800 --height 500 --d-model 40 --out " + path);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const RunResult t = run_shell("pdftotext " + path + " -");
  INFO(t.out);
  CHECK(t.out.find("position") != std::string::npos);
  CHECK(t.out.find("channel") != std::string::npos);
  CHECK(t.out.find("20") != std::string::npos);
  const auto meta = app::parse_figure_metadata(plot::read_figure_text(read_file_bytes(path, "test")));
  CHECK(meta.state.at("params").at("d_model") == 40);
  fs::remove(path);
  const RunResult bad = run_gui("render --view encoding --format svg --out " + temp_path("x.pdf"));
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--format") != std::string::npos);
  const RunResult window = run_gui("render --view window --out " + temp_path("w.svg"));
  CHECK(window.code == 2);
  CHECK(window.err.find("PNG only") != std::string::npos);
}

TEST_CASE("a vector figure of the RoPE clocks holds every dial (views draw through the canvas)") {
  const std::string path = temp_path("clocks.svg");
  const RunResult r = run_gui("render --view rope-clocks --width 900 --height 600 --position 12 --head-dim 32 --out " + path);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string svg = read_file_bytes(path, "test");
  std::size_t circles = 0;
  for (std::size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1)) ++circles;
  CHECK(circles >= 2 * 16);  // a rim and a hand tip per pair
  const auto meta = app::parse_figure_metadata(plot::read_figure_text(svg));
  CHECK(meta.state.at("rope_clocks").at("position") == 12.0);
  fs::remove(path);
}

TEST_CASE("render --animate position gives a GIF and an MP4 of 60 frames at the asked size and rate") {
  const std::string gif = temp_path("clocks.gif"), mp4 = temp_path("clocks.mp4");
  RunResult r = run_gui("render --view rope-clocks --animate position --from 0 --to 59 --frames 60 --fps 25 --width 320 "
                        "--height 200 --out " + gif);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const GifInfo info = read_gif(gif);
  CHECK(info.frames == 60);
  CHECK(info.width == 320);
  CHECK(info.height == 200);
  CHECK(info.total_delay == 240);  // 60 frames at 25 fps: 2.4 s

  r = run_gui("render --view rope-clocks --animate position --from 0 --to 59 --frames 60 --fps 30 --width 320 "
              "--height 200 --out " + mp4);
  REQUIRE(r.code == 0);
  AVFormatContext* fmt = nullptr;
  REQUIRE(avformat_open_input(&fmt, mp4.c_str(), nullptr, nullptr) == 0);
  REQUIRE(avformat_find_stream_info(fmt, nullptr) >= 0);
  const AVStream* st = fmt->streams[0];
  CHECK(st->codecpar->width == 320);
  CHECK(st->codecpar->height == 200);
  CHECK(st->nb_frames == 60);
  CHECK(st->avg_frame_rate.num == 30 * st->avg_frame_rate.den);
  avformat_close_input(&fmt);
  fs::remove(gif);
  fs::remove(mp4);

  // Without --from / --to: the parameter's default sweep (position 0 to 64, as --help says).
  r = run_gui("render --view rope-clocks --animate position --frames 3 --width 160 --height 100 --out " + gif);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(read_gif(gif).frames == 3);
  fs::remove(gif);
}

TEST_CASE("render --animate refuses what it cannot do with one line and exit 2") {
  const auto refused = [](const std::string& args, const std::string& flag) {
    const RunResult r = run_gui("render --view rope-clocks " + args);
    INFO(args << ": " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find("--" + flag + ":") != std::string::npos);
    CHECK(count_lines(r.err) == 1);
  };
  refused("--animate spin --from 0 --to 1 --out " + temp_path("a.gif"), "animate");
  refused("--animate position --from 0 --to 1 --out " + temp_path("a.png"), "out");
  refused("--animate position --from 0 --to 1 --fps 60 --out " + temp_path("a.gif"), "fps");
  refused("--animate position --from 0 --to 1 --frames 0 --out " + temp_path("a.gif"), "frames");
  refused("--animate base --from 0 --to 100 --out " + temp_path("a.mp4"), "from");
  refused("--animate position --from 0 --to 1 --width 321 --out " + temp_path("a.mp4"), "width");
  CHECK_FALSE(fs::exists(temp_path("a.gif")));
  CHECK_FALSE(fs::exists(temp_path("a.mp4")));
  // A view the swept parameter does not change: every frame the same picture, refused, nothing written.
  const RunResult r = run_gui("render --view encoding --animate position --from 0 --to 40 --frames 4 --out " +
                              temp_path("still.gif"));
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("--animate: encoding does not change with position") != std::string::npos);
  CHECK(count_lines(r.err) == 1);
  CHECK_FALSE(fs::exists(temp_path("still.gif")));
}

namespace {

// Runs the window with --record (flags `args`) into a fresh folder; the one GIF it wrote, read back.
struct RecordedGif {
  std::string name;
  GifInfo info;
};
RecordedGif record_in_window(const std::string& folder, const std::string& args) {
  const std::string dir = temp_path(folder);
  fs::remove_all(dir);
  const RunResult r = run_gui("--reset --size 1000x700 --figure-dir " + dir + " " + args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::vector<fs::path> gifs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".gif") gifs.push_back(e.path());
  REQUIRE(gifs.size() == 1);
  const RecordedGif out{gifs[0].filename().string(), read_gif(gifs[0].string())};
  fs::remove_all(dir);
  return out;
}

}  // namespace

TEST_CASE("View > Record animation (--record) writes a GIF of the sweep into the figure folder") {
  // At the window's size (1000 x 700), named after the view and the range swept (not the t shown when it started,
  // nor the sidebar's d_model, base and L).
  const RecordedGif gif = record_in_window("record", "--frames 75 --view rope-clocks --record position");
  CHECK(gif.name.rfind("peviz-rope-clocks-position-0-to-64-", 0) == 0);
  CHECK(gif.name.find("t-12") == std::string::npos);
  CHECK(gif.name.find("-L128") == std::string::npos);
  CHECK(gif.info.frames == 60);
  CHECK(gif.info.width == 1000);
  CHECK(gif.info.height == 700);
  CHECK(run_gui("--reset --frames 2 --record spin").code == 2);
}

TEST_CASE("View > Record animation of a lesson (--record lesson) captures its steps, then writes the cross-faded GIF") {
  // 1 frame to start, 13 step captures, 60 frames made from them: 74 window frames.
  const RecordedGif gif = record_in_window("record-lesson", "--frames 80 --lesson positional-encodings --record lesson");
  CHECK(gif.name.find("-lesson-steps-1-to-13-") != std::string::npos);
  CHECK(gif.info.frames == 60);
  CHECK(gif.info.width == 1000);
  CHECK(gif.info.height == 700);
  CHECK(gif.info.total_delay == 300);  // the default: 60 frames at 20 fps, 3 s
}

TEST_CASE("render --animate lesson steps through a lesson with cross-fades") {
  const std::string gif = temp_path("lesson.gif");
  const RunResult r = run_gui("render --animate lesson --lesson positional-encodings --from 1 --to 3 --frames 24 --fps 12 "
                              "--width 640 --height 400 --out " + gif);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const GifInfo info = read_gif(gif);
  CHECK(info.frames == 24);
  CHECK(info.width == 640);
  CHECK(info.total_delay == 200);  // 24 frames at 12 fps: 2 s
  fs::remove(gif);
  const RunResult bad = run_gui("render --animate lesson --lesson positional-encodings --from 2 --to 99 --out " + gif);
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--from:") != std::string::npos);
  CHECK(run_gui("render --animate lesson --lesson no-such-lesson --out " + gif).code == 2);
  CHECK_FALSE(fs::exists(gif));
}

TEST_CASE("a lesson GIF keeps its colour bar smooth beside the window's PNG of the same step") {
  // Steps 6 to 8, light theme: step 7's R(k) heatmap has a diverging colour bar; the cross-fades between the
  // steps bring thousands of blended colours that once took the palette (31 colours down the bar, sliders
  // and radio outlines gone).
  const std::string gif = temp_path("bar.gif"), png = temp_path("bar.png");
  REQUIRE(run_gui("render --animate lesson --lesson positional-encodings --from 6 --to 8 --frames 12 --theme light "
                  "--out " + gif).code == 0);
  REQUIRE(run_gui("--reset --size 1600x900 --theme light --lesson positional-encodings --lesson-step 7 --frames 5 "
                  "--hide-pointer --screenshot " + png).code == 0);
  const RgbaImage frame = gif_frame(gif, 5), window = load(png);  // frames 4..7 hold step 7
  const std::size_t in_gif = most_colours_down_a_column(frame);
  const std::size_t in_png = most_colours_down_a_column(window);
  std::printf("colour bar: %zu distinct colours down it in the GIF frame, %zu in the PNG\n", in_gif, in_png);
  CHECK(in_png >= 256);
  CHECK(in_gif >= 96);  // the ramp's share of the palette: 96 entries when the frames show one colormap
  // The widgets' fills and outlines: every grey of the theme covering 0.1% of the PNG is in the GIF frame exactly.
  std::map<std::uint32_t, std::size_t> window_counts;
  std::set<std::uint32_t> in_frame;
  for (std::size_t i = 0; i < window.pixels.size(); i += 4) {
    const std::uint8_t* p = &window.pixels[i];
    if (std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) <= 8) ++window_counts[std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | p[2]];
  }
  for (std::size_t i = 0; i < frame.pixels.size(); i += 4)
    in_frame.insert(std::uint32_t(frame.pixels[i]) << 16 | std::uint32_t(frame.pixels[i + 1]) << 8 | frame.pixels[i + 2]);
  int greys = 0;
  for (const auto& [rgb, n] : window_counts)
    if (n * 1000 >= window.pixels.size() / 4) {
      ++greys;
      INFO("grey " << std::hex << rgb);
      CHECK(in_frame.count(rgb) == 1);
    }
  CHECK(greys >= 8);
  fs::remove(gif);
  fs::remove(png);
}

TEST_CASE("render --present records a lesson as presentation mode shows it: light, large text, the header, no buttons") {
  const std::string plain = temp_path("plain.gif"), presented = temp_path("presented.gif");
  const std::string args = "render --animate lesson --lesson positional-encodings --from 12 --to 12 --frames 1 "
                           "--width 1280 --height 720 --out ";
  REQUIRE(run_gui(args + plain).code == 0);
  REQUIRE(run_gui(args + presented + " --present").code == 0);
  const RgbaImage a = gif_frame(plain, 0), b = gif_frame(presented, 0);
  REQUIRE(b.width == 1280);
  REQUIRE(b.height == 720);
  const auto luma = [](const RgbaImage& img, int x, int y) {
    const std::uint8_t* p = &img.pixels[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4];
    return (p[0] + p[1] + p[2]) / 3;
  };
  CHECK(luma(a, 2, 2) < 100);   // the default theme: dark
  CHECK(luma(b, 2, 2) > 200);   // presenting: light, unless --theme says otherwise
  // The header's large type: rows of the first 60 pixels holding dark text ink.
  const auto dark_ink_rows = [&](const RgbaImage& img) {
    int rows = 0;
    for (int y = 0; y < 60; ++y) {
      bool ink = false;
      for (int x = 0; x < img.width / 3 && !ink; ++x) ink = luma(img, x, y) < 80;
      rows += ink;
    }
    return rows;
  };
  CHECK(dark_ink_rows(b) >= 20);
  // Slide-clean: the window's own buttons (Controls, Leave; the lesson's Prev, Next, End) are left out, so the
  // header line's right quarter is bare background.
  int marked = 0;
  const std::uint8_t* bg = &b.pixels[(std::size_t(2) * std::size_t(b.width) + std::size_t(b.width - 3)) * 4];
  for (int y = 0; y < 50; ++y)
    for (int x = b.width * 3 / 4; x < b.width; ++x) {
      const std::uint8_t* p = &b.pixels[(std::size_t(y) * std::size_t(b.width) + std::size_t(x)) * 4];
      marked += p[0] != bg[0] || p[1] != bg[1] || p[2] != bg[2];
    }
  CHECK(marked == 0);  // "ALiBi · 8 heads ..." in presentation type: over 20 pixels tall
  fs::remove(plain);
  fs::remove(presented);
}

TEST_CASE("every declared page setting reaches the state render draws through --set, and a shared flag all of its name") {
  using nlohmann::json;
  for (const app::PageModel* page : app::page_models())
    for (const app::PageSetting& setting : page->settings) {
      const std::string name = std::string(page->name) + "." + setting.key;
      INFO(name);
      const auto v = peviz::test::other_setting_value(*page, setting);
      REQUIRE(v);
      const RunResult r = run_peviz("render --print-state --set '" + name + "=" + v->text + "'");
      REQUIRE(r.code == 0);
      CHECK(json::parse(r.out).at(page->json_key).at(setting.key) == v->value);
    }
  // --heads sets ALiBi's and the distance chart's; an out-of-range --set names the assignment.
  const RunResult heads = run_peviz("render --print-state --heads 12");
  REQUIRE(heads.code == 0);
  CHECK(json::parse(heads.out).at("alibi").at("heads") == 12);
  CHECK(json::parse(heads.out).at("distance").at("heads") == 12);
  const RunResult bad = run_peviz("render --print-state --set alibi.heads=100");
  CHECK(bad.code == 2);
  CHECK(bad.err == "peviz: --set: alibi.heads must be an integer in [1, 64], got 100\n");
}

TEST_CASE("every numeric flag of render refuses a value out of its range in one line of peviz's words") {
  // One Xvfb for every probe: a script runs them in turn, each writing its exit code and stderr to files.
  const RunResult help = run_peviz("render --help");
  const std::vector<NumericFlag> flags = numeric_flags(help.out);
  REQUIRE(flags.size() >= 15);
  const std::string dir = temp_path("render-flags");
  fs::create_directories(dir);
  std::string script;
  std::vector<std::pair<std::string, std::string>> probes;  // flag, value
  for (const NumericFlag& f : flags)
    for (const std::string& value : bad_values(f)) {
      const std::string i = std::to_string(probes.size());
      const bool sweep = f.flag == "--from" || f.flag == "--to" || f.flag == "--frames" || f.flag == "--fps";
      script += "timeout 60 " + std::string(peviz::test::peviz_binary) + " render --view rope-clocks " +
                (sweep ? "--animate position --out " + dir + "/x.gif " : "--out " + dir + "/x.png ") + f.flag + " " +
                value + " >/dev/null 2>" + dir + "/" + i + ".err; echo $? >" + dir + "/" + i + ".code\n";
      probes.push_back({f.flag, value});
    }
  std::ofstream(dir + "/probe.sh") << script;
  const RunResult r = run_shell("env XDG_CONFIG_HOME=" + dir + "/config xvfb-run -a sh " + dir + "/probe.sh");
  REQUIRE(r.code == 0);
  for (std::size_t i = 0; i < probes.size(); ++i) {
    INFO("render " << probes[i].first << " " << probes[i].second);
    const std::string code = slurp(dir + "/" + std::to_string(i) + ".code");
    REQUIRE_FALSE(code.empty());
    check_flag_refusal(probes[i].first, std::stoi(code), slurp(dir + "/" + std::to_string(i) + ".err"));
  }
  fs::remove_all(dir);
}
