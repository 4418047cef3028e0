// SVG figures from a display list: lines as paths, text as <text>, heatmaps as embedded PNGs at cell
// resolution, and the figure's metadata (state JSON) in <metadata>.
//
// Why not cairo's SVG surface: cairo 1.16 (Debian 12) writes every glyph as an outline in <symbol>
// and places it with <use>, so an SVG reader finds no <text> and Inkscape cannot edit the labels
// (checked: cairo_show_text on an SVG surface gives <symbol id="glyph0-1"><path d=...>). SVG is
// plain XML, so this writer emits it directly.
#pragma once
#include <map>
#include <string>

#include "app/plot/display_list.hpp"

namespace peviz::plot {

// The namespace of peviz's metadata elements: <peviz:entry key="peviz">{json}</peviz:entry>, one
// per entry, inside the SVG's <metadata>; the "Title" entry is also the SVG's <title>.
inline constexpr const char* kSvgMetadataNamespace = "https://peviz.invalid/figure-metadata";

// The SVG document: width x height pixels (CSS px, so 96 per inch), `list` drawn in order.
std::string encode_svg(const DisplayList& list, const std::map<std::string, std::string>& metadata);

// encode_svg, written atomically (temporary file, rename). Throws ParamError(param, ...).
void write_svg_file(const std::string& path, const DisplayList& list,
                    const std::map<std::string, std::string>& metadata, const std::string& param = "out");

// Text made safe for XML 1.0 character data and attribute values: & < > " ' escaped, invalid
// UTF-8 replaced by U+FFFD, control characters other than tab and newline dropped.
std::string xml_escape(std::string_view text);

}  // namespace peviz::plot
