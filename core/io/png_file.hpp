// PNG files for figures: encoding RGBA pixels with text metadata (libpng), reading the metadata back
// (our own chunk walker, every length and CRC checked) and decoding pixels (libpng).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace peviz {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 4, top row first, straight (not premultiplied) alpha
};

// The largest figure side peviz writes or reads (7680 x 4320 is the biggest figure; the rest is margin).
inline constexpr int kMaxPngSide = 16384;

// Encodes `image` as an 8-bit RGBA PNG with one tEXt chunk per entry of `text` (keyword: 1..79
// Latin-1 characters, PNG spec 11.3.4.3). Throws ParamError(param, ...) on a bad size or keyword.
std::string encode_png(const RgbaImage& image, const std::map<std::string, std::string>& text,
                       const std::string& param = "out");

// encode_png, then write_file_atomically: no partial file on any failure (ParamError(param, ...)).
void write_png_file(const std::string& path, const RgbaImage& image,
                    const std::map<std::string, std::string>& text, const std::string& param = "out");

// The tEXt chunks of a PNG held in `bytes` (keyword -> text). Walks the chunks itself: refuses
// (ParamError(param, ...)) a missing signature, a chunk running past the end, a bad CRC, a chunk
// longer than 2^31 - 1, or a file without IHDR first / IEND last.
std::map<std::string, std::string> read_png_text(std::string_view bytes, const std::string& param = "open");

// Decodes any PNG to 8-bit RGBA (libpng's simplified API). Throws ParamError(param, ...).
RgbaImage decode_png(std::string_view bytes, const std::string& param = "open");

}  // namespace peviz
