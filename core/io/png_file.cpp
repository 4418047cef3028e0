// PNG encode (libpng, with tEXt chunks), tEXt read-back (own chunk walker), decode (libpng simplified API).
#include "core/io/png_file.hpp"

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <ostream>

#include <png.h>
#include <zlib.h>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

namespace peviz {

namespace {

constexpr unsigned char kSignature[8] = {137, 80, 78, 71, 13, 10, 26, 10};

std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

void check_size(int width, int height, std::size_t pixels, const std::string& param) {
  if (width < 1 || height < 1 || width > kMaxPngSide || height > kMaxPngSide)
    throw ParamError(param, "image size must be 1.." + std::to_string(kMaxPngSide) + " on each side, got " +
                                std::to_string(width) + " x " + std::to_string(height));
  if (pixels != std::size_t(width) * std::size_t(height) * 4)
    throw ParamError(param, "pixel buffer does not match the image size");
}

// libpng reports errors through longjmp; this state is what the callbacks need.
struct WriteContext {
  std::string out;
  std::jmp_buf jump;
  char message[200] = "";
};

void on_png_error(png_structp png, png_const_charp text) {
  auto* c = static_cast<WriteContext*>(png_get_error_ptr(png));
  std::snprintf(c->message, sizeof c->message, "%s", text);
  std::longjmp(c->jump, 1);
}
void on_png_warning(png_structp, png_const_charp) {}
void on_png_write(png_structp png, png_bytep data, png_size_t size) {
  static_cast<WriteContext*>(png_get_io_ptr(png))->out.append(reinterpret_cast<const char*>(data), size);
}
void on_png_flush(png_structp) {}

}  // namespace

std::string encode_png(const RgbaImage& image, const std::map<std::string, std::string>& text,
                       const std::string& param) {
  check_size(image.width, image.height, image.pixels.size(), param);
  for (const auto& [key, value] : text)
    if (key.empty() || key.size() > 79 || key.front() == ' ' || key.back() == ' ')
      throw ParamError(param, "PNG text keyword must be 1..79 characters without outer spaces, got '" + key + "'");
  // Row pointers and text entries live outside the setjmp scope (no C++ objects are skipped by longjmp).
  std::vector<png_bytep> rows(std::size_t(image.height));
  for (int y = 0; y < image.height; ++y)
    rows[std::size_t(y)] = const_cast<png_bytep>(image.pixels.data() + std::size_t(y) * std::size_t(image.width) * 4);
  std::vector<png_text> entries;
  for (const auto& [key, value] : text) {
    png_text t{};
    t.compression = PNG_TEXT_COMPRESSION_NONE;
    t.key = const_cast<png_charp>(key.c_str());
    t.text = const_cast<png_charp>(value.c_str());
    t.text_length = value.size();
    entries.push_back(t);
  }
  WriteContext ctx;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_png_error, on_png_warning);
  if (!png) throw ParamError(param, "libpng could not start");
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(ctx.jump)) {
    png_destroy_write_struct(&png, &info);
    throw ParamError(param, std::string("PNG encoding failed: ") + ctx.message);
  }
  png_set_write_fn(png, &ctx, on_png_write, on_png_flush);
  png_set_IHDR(png, info, png_uint_32(image.width), png_uint_32(image.height), 8, PNG_COLOR_TYPE_RGBA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 6);
  if (!entries.empty()) png_set_text(png, info, entries.data(), int(entries.size()));
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return std::move(ctx.out);
}

void write_png_file(const std::string& path, const RgbaImage& image, const std::map<std::string, std::string>& text,
                    const std::string& param) {
  const std::string bytes = encode_png(image, text, param);
  write_file_atomically(path, [&](std::ostream& out) { out.write(bytes.data(), std::streamsize(bytes.size())); },
                        param);
}

std::map<std::string, std::string> read_png_text(std::string_view bytes, const std::string& param) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  if (n < 8 || std::memcmp(p, kSignature, 8) != 0) throw ParamError(param, "not a PNG file (no PNG signature)");
  std::map<std::string, std::string> text;
  std::size_t at = 8;
  bool first = true, ended = false;
  while (at < n) {
    if (n - at < 12) throw ParamError(param, "PNG truncated inside a chunk header at byte " + std::to_string(at));
    const std::uint32_t length = be32(p + at);
    if (length > 0x7fffffffu) throw ParamError(param, "PNG chunk length over 2^31 - 1 at byte " + std::to_string(at));
    if (std::size_t(length) > n - at - 12)
      throw ParamError(param, "PNG chunk at byte " + std::to_string(at) + " runs past the end of the file");
    const std::string type(reinterpret_cast<const char*>(p + at + 4), 4);
    const unsigned char* data = p + at + 8;
    const std::uint32_t crc = be32(data + length);
    if (std::uint32_t(crc32(crc32(0, nullptr, 0), p + at + 4, length + 4)) != crc)
      throw ParamError(param, "PNG chunk " + type + " at byte " + std::to_string(at) + " has a bad CRC");
    if (first && type != "IHDR") throw ParamError(param, "PNG does not start with IHDR");
    first = false;
    if (type == "tEXt") {
      const auto* nul = static_cast<const unsigned char*>(std::memchr(data, 0, length));
      if (!nul || nul == data || nul - data > 79) throw ParamError(param, "PNG tEXt chunk has no valid keyword");
      text[std::string(reinterpret_cast<const char*>(data), std::size_t(nul - data))] =
          std::string(reinterpret_cast<const char*>(nul + 1), std::size_t(data + length - nul - 1));
    }
    at += std::size_t(length) + 12;
    if (type == "IEND") {
      ended = true;
      break;
    }
  }
  if (!ended) throw ParamError(param, "PNG has no IEND chunk (truncated file)");
  return text;
}

RgbaImage decode_png(std::string_view bytes, const std::string& param) {
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&img, bytes.data(), bytes.size()))
    throw ParamError(param, std::string("cannot read the PNG: ") + img.message);
  if (int(img.width) > kMaxPngSide || int(img.height) > kMaxPngSide || img.width == 0 || img.height == 0) {
    png_image_free(&img);
    throw ParamError(param, "PNG size " + std::to_string(img.width) + " x " + std::to_string(img.height) +
                                " is outside 1.." + std::to_string(kMaxPngSide));
  }
  img.format = PNG_FORMAT_RGBA;
  RgbaImage out;
  out.width = int(img.width);
  out.height = int(img.height);
  out.pixels.resize(PNG_IMAGE_SIZE(img));
  if (!png_image_finish_read(&img, nullptr, out.pixels.data(), 0, nullptr)) {
    png_image_free(&img);
    throw ParamError(param, std::string("cannot decode the PNG: ") + img.message);
  }
  return out;
}

}  // namespace peviz
