// Reading a figure's text metadata back from SVG and PDF files (and PNG, by its signature), so that
// opening any figure peviz wrote restores its state. Pure parsing: no XML or PDF library; every
// index is checked, and anything unexpected is one ParamError, never a crash.
#pragma once
#include <map>
#include <string>
#include <string_view>

namespace peviz::plot {

// PDF document-information keys for the figure's entries (figure_metadata's "peviz", "Title",
// "Software"). cairo 1.16 can set only the standard keys (cairo_pdf_surface_set_metadata: title,
// author, subject, keywords, creator, dates; custom keys came in 1.18), so the state JSON goes in
// /Subject.
inline constexpr std::pair<const char*, const char*> kPdfInfoKeys[] = {
    {"Title", "Title"}, {"Subject", "peviz"}, {"Creator", "Software"}};

// The <peviz:entry key="K">V</peviz:entry> elements of an SVG written by encode_svg (key -> text,
// XML entities decoded). Throws ParamError(param, ...) when `bytes` is not an SVG document.
std::map<std::string, std::string> read_svg_text(std::string_view bytes, const std::string& param = "open");

// The document information of a PDF (the trailer's /Info dictionary), keys mapped through
// kPdfInfoKeys, strings decoded to UTF-8 (UTF-16BE with a byte-order mark, else PDFDocEncoding
// taken as Latin-1). Throws ParamError(param, ...) for a file that is not a PDF or has no readable
// /Info dictionary.
std::map<std::string, std::string> read_pdf_text(std::string_view bytes, const std::string& param = "open");

// read_png_text, read_svg_text or read_pdf_text by the file's first bytes.
std::map<std::string, std::string> read_figure_text(std::string_view bytes, const std::string& param = "open");

// The body of a PDF string object, `(literal)` or `<hex>`, starting at bytes[pos]; decoded to its
// raw bytes. `pos` moves past it. Throws ParamError(param, ...) when malformed or unterminated.
std::string parse_pdf_string(std::string_view bytes, std::size_t& pos, const std::string& param = "open");

}  // namespace peviz::plot
