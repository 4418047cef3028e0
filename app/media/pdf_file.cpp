// Drawing a display list on a cairo PDF surface.
#include "app/media/pdf_file.hpp"

#include <cmath>
#include <memory>
#include <ostream>

#include <cairo-pdf.h>
#include <cairo.h>

#include "app/plot/vector_metadata.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

namespace peviz::media {

namespace {

using namespace peviz::plot;

void set_color(cairo_t* cr, Rgba c) {
  cairo_set_source_rgba(cr, red(c) / 255.0, green(c) / 255.0, blue(c) / 255.0, alpha(c) / 255.0);
}

void rect_path(cairo_t* cr, Point min, Point max, float rounding) {
  const double w = std::max(0.0f, max.x - min.x), h = std::max(0.0f, max.y - min.y);
  const double r = std::min({double(rounding), 0.5 * w, 0.5 * h});
  if (r <= 0) {
    cairo_rectangle(cr, min.x, min.y, w, h);
    return;
  }
  cairo_new_sub_path(cr);
  cairo_arc(cr, min.x + w - r, min.y + r, r, -M_PI / 2, 0);
  cairo_arc(cr, min.x + w - r, min.y + h - r, r, 0, M_PI / 2);
  cairo_arc(cr, min.x + r, min.y + h - r, r, M_PI / 2, M_PI);
  cairo_arc(cr, min.x + r, min.y + r, r, M_PI, 1.5 * M_PI);
  cairo_close_path(cr);
}

void points_path(cairo_t* cr, const std::vector<Point>& pts) {
  cairo_move_to(cr, pts[0].x, pts[0].y);
  for (std::size_t i = 1; i < pts.size(); ++i) cairo_line_to(cr, pts[i].x, pts[i].y);
}

// Draws the items; PushClip is cairo_save + clip, PopClip the matching restore.
struct CairoPainter {
  cairo_t* cr;
  int open_clips = 0;

  void operator()(const Polyline& l) {
    if (l.points.size() < 2) return;
    points_path(cr, l.points);
    if (l.closed) cairo_close_path(cr);
    set_color(cr, l.color);
    cairo_set_line_width(cr, l.thickness);
    cairo_stroke(cr);
  }
  void operator()(const FilledRect& r) {
    rect_path(cr, r.min, r.max, r.rounding);
    set_color(cr, r.color);
    cairo_fill(cr);
  }
  void operator()(const StrokedRect& r) {  // inset by half a pixel, as ImGui strokes it
    rect_path(cr, {r.min.x + 0.5f, r.min.y + 0.5f}, {r.max.x - 0.5f, r.max.y - 0.5f}, r.rounding);
    set_color(cr, r.color);
    cairo_set_line_width(cr, r.thickness);
    cairo_stroke(cr);
  }
  void operator()(const GradientRect& g) {  // vertical when the top corners agree, else horizontal
    const bool vertical = g.top_left == g.top_right && g.bottom_left == g.bottom_right;
    cairo_pattern_t* p = vertical ? cairo_pattern_create_linear(0, g.min.y, 0, g.max.y)
                                  : cairo_pattern_create_linear(g.min.x, 0, g.max.x, 0);
    const Rgba from = g.top_left, to = vertical ? g.bottom_left : g.top_right;
    cairo_pattern_add_color_stop_rgba(p, 0, red(from) / 255.0, green(from) / 255.0, blue(from) / 255.0, alpha(from) / 255.0);
    cairo_pattern_add_color_stop_rgba(p, 1, red(to) / 255.0, green(to) / 255.0, blue(to) / 255.0, alpha(to) / 255.0);
    rect_path(cr, g.min, g.max, 0);
    cairo_set_source(cr, p);
    cairo_fill(cr);
    cairo_pattern_destroy(p);
  }
  void operator()(const FilledPolygon& p) {
    if (p.points.size() < 3) return;
    points_path(cr, p.points);
    cairo_close_path(cr);
    set_color(cr, p.color);
    cairo_fill(cr);
  }
  void operator()(const Circle& c) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, c.center.x, c.center.y, c.radius, 0, 2 * M_PI);
    set_color(cr, c.color);
    if (c.filled) {
      cairo_fill(cr);
    } else {
      cairo_set_line_width(cr, c.thickness);
      cairo_stroke(cr);
    }
  }
  void operator()(const Text& t) {
    const std::string s = sanitize_utf8(t.text);
    if (s.empty()) return;
    cairo_select_font_face(cr, kFontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, em_size(t.size));
    cairo_text_extents_t e;
    cairo_text_extents(cr, s.c_str(), &e);
    const double shift = t.h == HAlign::left ? 0.0 : t.h == HAlign::center ? 0.5 * e.x_advance : e.x_advance;
    cairo_move_to(cr, t.position.x - shift, t.position.y + baseline_offset(t));
    set_color(cr, t.color);
    cairo_show_text(cr, s.c_str());
    cairo_new_path(cr);
  }
  void operator()(const HeatmapRect& h) {
    const HeatmapPicture pic = resolve_heatmap(h);
    const int w = pic.image.width, hgt = pic.image.height;
    if (w == 0 || hgt == 0) return;
    cairo_surface_t* img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, hgt);
    cairo_surface_flush(img);
    unsigned char* data = cairo_image_surface_get_data(img);
    const int stride = cairo_image_surface_get_stride(img);
    for (int y = 0; data && y < hgt; ++y)
      for (int x = 0; x < w; ++x) {  // ARGB32 is native-endian premultiplied; the picture is opaque
        const std::uint8_t* p = &pic.image.pixels[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
        reinterpret_cast<std::uint32_t*>(data + std::size_t(y) * std::size_t(stride))[x] =
            0xFF000000u | std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | p[2];
      }
    cairo_surface_mark_dirty(img);
    cairo_save(cr);
    rect_path(cr, h.min, h.max, 0);
    cairo_clip(cr);
    cairo_translate(cr, pic.min.x, pic.min.y);
    cairo_scale(cr, (pic.max.x - pic.min.x) / w, (pic.max.y - pic.min.y) / hgt);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);  // /Interpolate false
    cairo_rectangle(cr, 0, 0, w, hgt);
    cairo_fill(cr);
    cairo_restore(cr);
    cairo_surface_destroy(img);
  }
  void operator()(const PushClip& c) {
    cairo_save(cr);
    rect_path(cr, c.min, c.max, 0);
    cairo_clip(cr);
    ++open_clips;
  }
  void operator()(const PopClip&) {
    if (open_clips == 0) return;  // unbalanced: ignore
    cairo_restore(cr);
    --open_clips;
  }
};

cairo_status_t append_to_string(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void set_info(cairo_surface_t* surface, const std::map<std::string, std::string>& metadata) {
  for (const auto& [pdf_key, entry] : kPdfInfoKeys) {
    const auto it = metadata.find(entry);
    if (it == metadata.end()) continue;
    const std::string_view key = pdf_key;
    const cairo_pdf_metadata_t which = key == "Title" ? CAIRO_PDF_METADATA_TITLE
                                       : key == "Subject" ? CAIRO_PDF_METADATA_SUBJECT
                                                          : CAIRO_PDF_METADATA_CREATOR;
    cairo_pdf_surface_set_metadata(surface, which, sanitize_utf8(it->second).c_str());
  }
}

}  // namespace

std::string encode_pdf(const DisplayList& list, const std::map<std::string, std::string>& metadata) {
  if (!(list.width >= 1 && list.height >= 1 && list.width <= kMaxPngSide && list.height <= kMaxPngSide))
    throw ParamError("out", "a PDF figure must be 1 to " + std::to_string(kMaxPngSide) + " pixels per side");
  std::string pdf;
  cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(append_to_string, &pdf, list.width * kPointsPerPixel,
                                                                 list.height * kPointsPerPixel);
  set_info(surface, metadata);
  cairo_t* cr = cairo_create(surface);
  cairo_scale(cr, kPointsPerPixel, kPointsPerPixel);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
  if (alpha(list.background) > 0) {
    set_color(cr, list.background);
    cairo_paint(cr);
  }
  CairoPainter painter{cr};
  for (const DrawItem& item : list.items) std::visit(painter, item);
  for (; painter.open_clips > 0; --painter.open_clips) cairo_restore(cr);
  cairo_status_t status = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(surface);  // writes the document
  if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS) throw ParamError("out", std::string("cairo could not write the PDF: ") + cairo_status_to_string(status));
  return pdf;
}

void write_pdf_file(const std::string& path, const DisplayList& list, const std::map<std::string, std::string>& metadata,
                    const std::string& param) {
  const std::string pdf = encode_pdf(list, metadata);
  write_file_atomically(path, [&](std::ostream& out) { out.write(pdf.data(), std::streamsize(pdf.size())); }, param);
}

}  // namespace peviz::media
