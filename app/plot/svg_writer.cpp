// Writing a display list as SVG 1.1 text.
#include "app/plot/svg_writer.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

namespace peviz::plot {

namespace {

// Coordinates with two decimals at most (a hundredth of a pixel), trailing zeros dropped.
std::string num(double v) {
  if (!std::isfinite(v)) v = 0.0;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string hex_color(Rgba c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", red(c), green(c), blue(c));
  return buf;
}

// ` fill="#rrggbb"` plus fill-opacity when not opaque (prefix "fill" or "stroke" or "stop-color").
std::string paint(const char* what, Rgba c) {
  std::string s = std::string(" ") + what + "=\"" + hex_color(c) + "\"";
  if (alpha(c) < 255) {
    const std::string opacity = std::string(what) == "stop-color" ? "stop-opacity" : std::string(what) + "-opacity";
    s += " " + opacity + "=\"" + num(alpha(c) / 255.0) + "\"";
  }
  return s;
}

std::string points_attr(const std::vector<Point>& pts) {
  std::string s;
  for (const Point& p : pts) s += (s.empty() ? "" : " ") + num(p.x) + "," + num(p.y);
  return s;
}

std::string rect_attrs(Point min, Point max) {
  return " x=\"" + num(min.x) + "\" y=\"" + num(min.y) + "\" width=\"" + num(std::max(0.0f, max.x - min.x)) +
         "\" height=\"" + num(std::max(0.0f, max.y - min.y)) + "\"";
}

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 3; ++k) v = v << 8 | (k < n ? std::uint8_t(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[v >> (18 - 6 * k) & 63] : '=';
  }
  return out;
}

// Emits the SVG elements; clip paths and gradients get ids from one counter.
struct SvgEmitter {
  std::string out;
  int next_id = 0;
  int open_clips = 0;

  std::string clip_group(Point min, Point max) {
    const std::string id = "clip" + std::to_string(next_id++);
    out += "<clipPath id=\"" + id + "\"><rect" + rect_attrs(min, max) + "/></clipPath>\n";
    return "<g clip-path=\"url(#" + id + ")\">\n";
  }

  void operator()(const Polyline& l) {
    if (l.points.size() < 2) return;
    out += std::string(l.closed ? "<polygon" : "<polyline") + " points=\"" + points_attr(l.points) + "\" fill=\"none\"" +
           paint("stroke", l.color) + " stroke-width=\"" + num(l.thickness) + "\" stroke-linejoin=\"miter\"/>\n";
  }
  void operator()(const FilledRect& r) {
    out += "<rect" + rect_attrs(r.min, r.max) + (r.rounding > 0 ? " rx=\"" + num(r.rounding) + "\"" : "") +
           paint("fill", r.color) + "/>\n";
  }
  void operator()(const StrokedRect& r) {  // ImGui strokes the rectangle inset by half a pixel
    const Point min{r.min.x + 0.5f, r.min.y + 0.5f}, max{r.max.x - 0.5f, r.max.y - 0.5f};
    out += "<rect" + rect_attrs(min, max) + (r.rounding > 0 ? " rx=\"" + num(r.rounding) + "\"" : "") + " fill=\"none\"" +
           paint("stroke", r.color) + " stroke-width=\"" + num(r.thickness) + "\"/>\n";
  }
  void operator()(const GradientRect& g) {
    // Vertical when the top corners agree (the colourbar), else horizontal from the left edge's
    // mean to the right edge's: SVG has no four-corner gradient.
    const bool vertical = g.top_left == g.top_right && g.bottom_left == g.bottom_right;
    const std::string id = "grad" + std::to_string(next_id++);
    const Rgba from = g.top_left, to = vertical ? g.bottom_left : g.top_right;
    out += "<linearGradient id=\"" + id + "\" x1=\"0\" y1=\"0\" x2=\"" + (vertical ? "0" : "1") + "\" y2=\"" +
           (vertical ? "1" : "0") + "\"><stop offset=\"0\"" + paint("stop-color", from) + "/><stop offset=\"1\"" +
           paint("stop-color", to) + "/></linearGradient>\n";
    out += "<rect" + rect_attrs(g.min, g.max) + " fill=\"url(#" + id + ")\"/>\n";
  }
  void operator()(const FilledPolygon& p) {
    if (p.points.size() < 3) return;
    out += "<polygon points=\"" + points_attr(p.points) + "\"" + paint("fill", p.color) + "/>\n";
  }
  void operator()(const Circle& c) {
    out += "<circle cx=\"" + num(c.center.x) + "\" cy=\"" + num(c.center.y) + "\" r=\"" + num(c.radius) + "\"" +
           (c.filled ? paint("fill", c.color) : " fill=\"none\"" + paint("stroke", c.color) + " stroke-width=\"" + num(c.thickness) + "\"") +
           "/>\n";
  }
  void operator()(const Text& t) {
    if (t.text.empty()) return;
    static constexpr const char* kAnchor[] = {"start", "middle", "end"};
    out += "<text x=\"" + num(t.position.x) + "\" y=\"" + num(t.position.y + baseline_offset(t)) + "\" font-family=\"" +
           kFontFamily + ", sans-serif\" font-size=\"" + num(em_size(t.size)) + "\" text-anchor=\"" + kAnchor[int(t.h)] +
           "\"" + paint("fill", t.color) + " xml:space=\"preserve\">" + xml_escape(t.text) + "</text>\n";
  }
  void operator()(const HeatmapRect& h) {
    const HeatmapPicture pic = resolve_heatmap(h);
    if (pic.image.width == 0 || pic.image.height == 0) return;
    // One image pixel per cell, scaled up without smoothing: SVG 1.1's optimizeSpeed, then the CSS
    // values (crisp-edges, pixelated) for readers that know them (the last one understood wins).
    out += clip_group(h.min, h.max);
    out += "<image" + rect_attrs(pic.min, pic.max) +
           " preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" style=\"image-rendering:optimizeSpeed;"
           "image-rendering:crisp-edges;image-rendering:pixelated\" xlink:href=\"data:image/png;base64," +
           base64(encode_png(pic.image, {})) + "\"/>\n</g>\n";
  }
  void operator()(const PushClip& c) {
    out += clip_group(c.min, c.max);
    ++open_clips;
  }
  void operator()(const PopClip&) {
    if (open_clips == 0) return;  // unbalanced: ignore
    out += "</g>\n";
    --open_clips;
  }
};

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : sanitize_utf8(text)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += "&#10;"; break;  // survives attribute-value normalisation too
      case '\t': out += "&#9;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string encode_svg(const DisplayList& list, const std::map<std::string, std::string>& metadata) {
  if (!(list.width >= 1 && list.height >= 1 && list.width <= kMaxPngSide && list.height <= kMaxPngSide))
    throw ParamError("out", "an SVG figure must be 1 to " + std::to_string(kMaxPngSide) + " pixels per side");
  SvgEmitter e;
  e.out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
          "xmlns:xlink=\"http://www.w3.org/1999/xlink\" xmlns:peviz=\"" + std::string(kSvgMetadataNamespace) +
          "\" version=\"1.1\" width=\"" + num(list.width) + "\" height=\"" + num(list.height) + "\" viewBox=\"0 0 " +
          num(list.width) + " " + num(list.height) + "\">\n";
  if (const auto t = metadata.find("Title"); t != metadata.end()) e.out += "<title>" + xml_escape(t->second) + "</title>\n";
  e.out += "<metadata>\n";
  for (const auto& [key, value] : metadata)
    e.out += "<peviz:entry key=\"" + xml_escape(key) + "\">" + xml_escape(value) + "</peviz:entry>\n";
  e.out += "</metadata>\n";
  if (alpha(list.background) > 0) e.out += "<rect width=\"100%\" height=\"100%\"" + paint("fill", list.background) + "/>\n";
  for (const DrawItem& item : list.items) std::visit(e, item);
  for (; e.open_clips > 0; --e.open_clips) e.out += "</g>\n";
  e.out += "</svg>\n";
  return e.out;
}

void write_svg_file(const std::string& path, const DisplayList& list, const std::map<std::string, std::string>& metadata,
                    const std::string& param) {
  const std::string svg = encode_svg(list, metadata);
  write_file_atomically(path, [&](std::ostream& out) { out.write(svg.data(), std::streamsize(svg.size())); }, param);
}

}  // namespace peviz::plot
