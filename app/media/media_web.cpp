// The browser build's stand-ins for the desktop's PDF (cairo), GIF (giflib) and MP4 (FFmpeg) writers: each
// refuses with one line naming the format, and the menus do not offer them there (gfx::cannot_write).
#include <string>

#include "app/media/gif_file.hpp"
#include "app/media/mp4_file.hpp"
#include "app/media/pdf_file.hpp"
#include "core/base/errors.hpp"

namespace peviz::media {

namespace {
[[noreturn]] void unavailable(const std::string& param, const char* format) {
  throw ParamError(param, std::string(format) + " files are written by the desktop app only; the browser saves PNG and SVG");
}
}  // namespace

std::string encode_pdf(const plot::DisplayList&, const std::map<std::string, std::string>&) { unavailable("out", "PDF"); }
void write_pdf_file(const std::string&, const plot::DisplayList&, const std::map<std::string, std::string>&,
                    const std::string& param) {
  unavailable(param, "PDF");
}

GifWriter::GifWriter(int width, int height, int fps, std::vector<Ramp>) : width_(width), height_(height), fps_(fps) { unavailable("out", "GIF"); }
void GifWriter::add_frame(const RgbaImage&) { unavailable("out", "GIF"); }
void GifWriter::write(const std::string&, const std::string& param) { unavailable(param, "GIF"); }
std::string GifWriter::encode() { unavailable("out", "GIF"); }

struct Mp4Writer::Codec {};
std::string h264_encoder_name() { return ""; }
Mp4Writer::Mp4Writer(int, int, int) { unavailable("out", "MP4"); }
Mp4Writer::~Mp4Writer() = default;
void Mp4Writer::add_frame(const RgbaImage&) { unavailable("out", "MP4"); }
int Mp4Writer::frame_count() const { return 0; }
void Mp4Writer::write(const std::string&, const std::string& param) { unavailable(param, "MP4"); }

}  // namespace peviz::media
