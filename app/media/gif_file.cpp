// Encoding animated GIFs with giflib's streaming API into memory, then one atomic write.
#include "app/media/gif_file.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include <gif_lib.h>
#include <zlib.h>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

namespace peviz::media {

namespace {

int gif_write(GifFileType* gif, const GifByteType* data, int length) {
  static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(data), std::size_t(length));
  return length;
}

void check(int result, GifFileType* gif, const char* what) {
  if (result != GIF_OK) throw ParamError("out", std::string("giflib could not ") + what + ": " + GifErrorString(gif->Error));
}

std::string deflate_frame(const RgbaImage& f) {
  uLongf size = compressBound(uLong(f.pixels.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, f.pixels.data(), uLong(f.pixels.size()), 1) != Z_OK)
    throw ParamError("frames", "could not compress a frame (out of memory?)");
  out.resize(size);
  return out;
}

void inflate_frame(const std::string& deflated, std::vector<std::uint8_t>& rgba) {
  uLongf size = uLongf(rgba.size());
  if (uncompress(rgba.data(), &size, reinterpret_cast<const Bytef*>(deflated.data()), uLong(deflated.size())) != Z_OK ||
      size != rgba.size())
    throw ParamError("out", "a stored frame did not decompress");
}

// The bounding box of the pixels where `a` and `b` differ; x1 < x0 when none do.
struct Rect {
  int x0, y0, x1, y1;  // inclusive
};
Rect changed_rect(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b, int w, int h) {
  Rect r{w, h, -1, -1};
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* pa = &a[std::size_t(y) * std::size_t(w)];
    const std::uint8_t* pb = &b[std::size_t(y) * std::size_t(w)];
    if (std::equal(pa, pa + w, pb)) continue;
    r.y0 = std::min(r.y0, y);
    r.y1 = y;
    int x = 0;
    while (pa[x] == pb[x]) ++x;
    r.x0 = std::min(r.x0, x);
    x = w - 1;
    while (pa[x] == pb[x]) --x;
    r.x1 = std::max(r.x1, x);
  }
  return r;
}

void put_frame(GifFileType* gif, const std::vector<std::uint8_t>& indices, int width, Rect r, int delay) {
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;  // later frames draw over this one: only the change is stored
  gcb.UserInputFlag = false;
  gcb.DelayTime = delay;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const std::size_t n = EGifGCBToExtension(&gcb, ext);
  check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, int(n), ext), gif, "write a frame delay");
  check(EGifPutImageDesc(gif, r.x0, r.y0, r.x1 - r.x0 + 1, r.y1 - r.y0 + 1, false, nullptr), gif, "start a frame");
  std::vector<GifPixelType> line(std::size_t(r.x1 - r.x0 + 1));
  for (int y = r.y0; y <= r.y1; ++y) {
    std::copy_n(&indices[std::size_t(y) * std::size_t(width) + std::size_t(r.x0)], line.size(), line.begin());
    check(EGifPutLine(gif, line.data(), int(line.size())), gif, "write a frame");
  }
}

// NETSCAPE2.0 application extension: loop count 0 = forever.
void put_loop_forever(GifFileType* gif) {
  check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), gif, "start the loop extension");
  check(EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0"), gif, "write the loop extension");
  const unsigned char loop[3] = {1, 0, 0};
  check(EGifPutExtensionBlock(gif, 3, loop), gif, "write the loop count");
  check(EGifPutExtensionTrailer(gif), gif, "end the loop extension");
}

}  // namespace

int gif_frame_delay(int index, int fps) {
  const auto at = [&](int i) { return std::lround(100.0 * i / fps); };
  return int(at(index + 1) - at(index));
}

GifWriter::GifWriter(int width, int height, int fps, std::vector<Ramp> ramps)
    : width_(width), height_(height), fps_(fps), ramps_(std::move(ramps)) {
  if (width < 1 || width > kMaxPngSide) throw ParamError("width", "a GIF is 1 to " + std::to_string(kMaxPngSide) + " pixels wide, got " + std::to_string(width));
  if (height < 1 || height > kMaxPngSide) throw ParamError("height", "a GIF is 1 to " + std::to_string(kMaxPngSide) + " pixels high, got " + std::to_string(height));
  if (fps < 1 || fps > kMaxGifFps)
    throw ParamError("fps", "a GIF plays 1 to " + std::to_string(kMaxGifFps) + " frames per second (delays are whole hundredths, viewers slow shorter ones), got " + std::to_string(fps));
}

void GifWriter::add_frame(const RgbaImage& frame) {
  if (frame.width != width_ || frame.height != height_ || frame.pixels.size() != std::size_t(width_) * std::size_t(height_) * 4)
    throw ParamError("frames", "frame " + std::to_string(frames_.size()) + " is " + std::to_string(frame.width) + " x " +
                                   std::to_string(frame.height) + ", the GIF is " + std::to_string(width_) + " x " + std::to_string(height_));
  counts_.add(frame.pixels.data(), std::size_t(width_) * std::size_t(height_));
  frames_.push_back(deflate_frame(frame));
}

std::string GifWriter::encode() {
  if (frames_.empty()) throw ParamError("frames", "a GIF needs at least one frame");
  PaletteLookup lookup(build_palette(counts_, 256, ramps_));
  // GIF colour tables have 2^k entries: pad with black.
  int table = 2;
  while (table < int(lookup.palette().size())) table *= 2;
  std::vector<GifColorType> colors(std::size_t(table), GifColorType{0, 0, 0});
  for (std::size_t i = 0; i < lookup.palette().size(); ++i)
    colors[i] = {lookup.palette()[i][0], lookup.palette()[i][1], lookup.palette()[i][2]};

  std::string out;
  int error = 0;
  GifFileType* gif = EGifOpen(&out, gif_write, &error);
  if (!gif) throw ParamError("out", std::string("giflib could not start a GIF: ") + GifErrorString(error));
  ColorMapObject* map = GifMakeMapObject(table, colors.data());
  try {
    EGifSetGifVersion(gif, true);  // GIF89a: delays and the loop extension
    check(EGifPutScreenDesc(gif, width_, height_, 8, 0, map), gif, "write the screen descriptor");
    put_loop_forever(gif);
    const std::size_t pixels = std::size_t(width_) * std::size_t(height_);
    std::vector<std::uint8_t> rgba(pixels * 4), indices(pixels), previous;
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      inflate_frame(frames_[f], rgba);
      for (std::size_t i = 0; i < pixels; ++i) indices[i] = lookup.index(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]);
      Rect r{0, 0, width_ - 1, height_ - 1};
      if (f > 0) {
        r = changed_rect(previous, indices, width_, height_);
        if (r.x1 < r.x0) r = {0, 0, 0, 0};  // nothing changed: one pixel, to keep the frame and its delay
      }
      put_frame(gif, indices, width_, r, gif_frame_delay(int(f), fps_));
      previous.swap(indices);
      indices.resize(pixels);
    }
  } catch (...) {
    GifFreeMapObject(map);
    EGifCloseFile(gif, &error);
    throw;
  }
  GifFreeMapObject(map);
  if (EGifCloseFile(gif, &error) != GIF_OK) throw ParamError("out", std::string("giflib could not finish the GIF: ") + GifErrorString(error));
  return out;
}

void GifWriter::write(const std::string& path, const std::string& param) {
  std::string gif;
  try {
    gif = encode();
  } catch (const ParamError& e) {
    throw ParamError(param, e.rule);
  }
  write_file_atomically(path, [&](std::ostream& os) { os.write(gif.data(), std::streamsize(gif.size())); }, param);
}

}  // namespace peviz::media
