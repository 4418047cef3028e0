// MP4 (H.264) files through libavcodec/libavformat/libswscale: frames in as RGBA buffers, encoded as
// they arrive (libx264, yuv420p, BT.709, constant frame rate), muxed into memory, written atomically.
#pragma once
#include <memory>
#include <string>

#include "core/io/png_file.hpp"

namespace peviz::media {

inline constexpr int kMaxMp4Fps = 120;
// The encoded file is held in memory until write(): refuse to grow past this.
inline constexpr std::size_t kMaxMp4Bytes = std::size_t(1) << 30;

// The H.264 encoder used: "libx264" (Debian's libavcodec has it; the others it lists need
// hardware: nvenc, qsv, vaapi, v4l2m2m, omx). Empty when none is available.
std::string h264_encoder_name();

class Mp4Writer {
 public:
  // Throws ParamError: "width" / "height" for odd sizes (yuv420p halves both) or sizes outside
  // [2, kMaxPngSide], "fps" outside [1, kMaxMp4Fps], "out" when no H.264 encoder opens.
  Mp4Writer(int width, int height, int fps);
  ~Mp4Writer();
  Mp4Writer(const Mp4Writer&) = delete;
  Mp4Writer& operator=(const Mp4Writer&) = delete;
  // Converts and encodes one frame (frame i lasts [i / fps, (i + 1) / fps)). Throws
  // ParamError("frames", ...) for a frame of another size.
  void add_frame(const RgbaImage& frame);
  int frame_count() const;
  // Flushes the encoder, finishes the file and writes it atomically. Throws ParamError(param, ...).
  void write(const std::string& path, const std::string& param = "out");

 private:
  struct Codec;
  std::unique_ptr<Codec> c_;
};

}  // namespace peviz::media
