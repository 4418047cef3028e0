// PDF figures from a display list through cairo's PDF surface: text as real text (embedded DejaVu
// Sans subset with a ToUnicode map, so viewers select it and pdftotext finds it), lines as paths,
// heatmaps as images drawn without interpolation, and the figure's metadata in the document info.
#pragma once
#include <map>
#include <string>

#include "app/plot/display_list.hpp"

namespace peviz::media {

// One figure pixel is 0.75 pt (96 pixels per inch, as CSS and the SVG figures): a 1600 x 900
// figure is a 1200 x 675 pt page.
inline constexpr double kPointsPerPixel = 0.75;

// The PDF document: one page, `list` drawn in order; metadata "Title", "peviz" (state JSON) and
// "Software" go to /Title, /Subject and /Creator (plot::kPdfInfoKeys). Throws ParamError("out", ...)
// when cairo fails.
std::string encode_pdf(const plot::DisplayList& list, const std::map<std::string, std::string>& metadata);

// encode_pdf, written atomically (temporary file, rename). Throws ParamError(param, ...).
void write_pdf_file(const std::string& path, const plot::DisplayList& list,
                    const std::map<std::string, std::string>& metadata, const std::string& param = "out");

}  // namespace peviz::media
