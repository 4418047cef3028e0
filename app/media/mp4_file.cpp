// Encoding H.264 into an MP4 held in memory (a seekable custom AVIOContext: the muxer patches sizes
// and writes the index at the end), then one atomic write. Follows FFmpeg's doc/examples/mux.c.
#include "app/media/mp4_file.hpp"

#include <cstring>
#include <ostream>

#include "app/media/ffmpeg_api.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

namespace peviz::media {

namespace {

std::string av_message(int err) {
  const FfmpegApi& ff = ffmpeg();
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  ff.av_strerror(err, buf, sizeof buf);
  return buf;
}

// The file being muxed, and where the muxer's next write goes.
struct MemoryFile {
  std::string bytes;
  std::size_t pos = 0;
};

int memory_write(void* opaque, std::uint8_t* buf, int size) {  // lavf 59: non-const buffer
  auto* f = static_cast<MemoryFile*>(opaque);
  if (f->pos + std::size_t(size) > kMaxMp4Bytes) return AVERROR(EFBIG);
  if (f->pos + std::size_t(size) > f->bytes.size()) f->bytes.resize(f->pos + std::size_t(size));
  std::memcpy(f->bytes.data() + f->pos, buf, std::size_t(size));
  f->pos += std::size_t(size);
  return size;
}

std::int64_t memory_seek(void* opaque, std::int64_t offset, int whence) {
  auto* f = static_cast<MemoryFile*>(opaque);
  if (whence & AVSEEK_SIZE) return std::int64_t(f->bytes.size());
  const std::int64_t base = (whence & 3) == SEEK_CUR ? std::int64_t(f->pos) : (whence & 3) == SEEK_END ? std::int64_t(f->bytes.size()) : 0;
  const std::int64_t to = base + offset;
  if (to < 0 || std::size_t(to) > kMaxMp4Bytes) return AVERROR(EINVAL);
  f->pos = std::size_t(to);
  return to;
}

const AVCodec* find_h264() {
  const FfmpegApi& ff = ffmpeg();
  if (const AVCodec* c = ff.avcodec_find_encoder_by_name("libx264")) return c;
  return ff.avcodec_find_encoder(AV_CODEC_ID_H264);
}

}  // namespace

struct Mp4Writer::Codec {
  const FfmpegApi& ff = ffmpeg();  // first: loads FFmpeg, or throws before anything is allocated
  int width = 0, height = 0, frames = 0;
  MemoryFile file;
  AVFormatContext* format = nullptr;
  AVIOContext* io = nullptr;
  AVCodecContext* encoder = nullptr;
  AVStream* stream = nullptr;
  SwsContext* sws = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;

  ~Codec() {
    ff.av_packet_free(&packet);
    ff.av_frame_free(&frame);
    ff.sws_freeContext(sws);
    ff.avcodec_free_context(&encoder);
    if (io) ff.av_freep(&io->buffer);
    ff.avio_context_free(&io);
    ff.avformat_free_context(format);
  }

  void fail(const std::string& what, int err, const std::string& param = "out") const {
    throw ParamError(param, what + (err < 0 ? ": " + av_message(err) : std::string()));
  }

  void open_muxer();
  void open_encoder(const AVCodec* codec, int fps);
  void open_converter();

  // Sends `f` (null: flush) and muxes every packet the encoder gives back.
  void encode(AVFrame* f) {
    int err = ff.avcodec_send_frame(encoder, f);
    if (err < 0) fail("the H.264 encoder refused a frame", err);
    for (;;) {
      err = ff.avcodec_receive_packet(encoder, packet);
      if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return;
      if (err < 0) fail("the H.264 encoder failed", err);
      ff.av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
      packet->stream_index = stream->index;
      err = ff.av_interleaved_write_frame(format, packet);  // takes the packet's data
      if (err < 0) fail("the MP4 muxer failed", err);
    }
  }
};

std::string h264_encoder_name() {
  try {
    const AVCodec* c = find_h264();
    return c ? c->name : "";
  } catch (const ParamError&) {  // FFmpeg cannot be loaded
    return "";
  }
}

namespace {

void check_mp4_size(int width, int height, int fps) {
  for (auto [name, v] : {std::pair{"width", width}, std::pair{"height", height}}) {
    if (v < 2 || v > kMaxPngSide) throw ParamError(name, std::string("an MP4 is 2 to ") + std::to_string(kMaxPngSide) + " pixels " + (name[0] == 'w' ? "wide" : "high") + ", got " + std::to_string(v));
    if (v % 2) throw ParamError(name, "H.264 in yuv420p needs an even size (colour is stored per 2 x 2 pixels), got " + std::to_string(v));
  }
  if (fps < 1 || fps > kMaxMp4Fps) throw ParamError("fps", "an MP4 plays 1 to " + std::to_string(kMaxMp4Fps) + " frames per second, got " + std::to_string(fps));
}

}  // namespace

// The MP4 muxer, writing into the memory file.
void Mp4Writer::Codec::open_muxer() {
  int err = ff.avformat_alloc_output_context2(&format, nullptr, "mp4", nullptr);
  if (err < 0) fail("libavformat has no MP4 muxer", err);
  const int io_size = 1 << 16;
  auto* io_buffer = static_cast<unsigned char*>(ff.av_malloc(io_size));
  io = ff.avio_alloc_context(io_buffer, io_size, 1, &file, nullptr, memory_write, memory_seek);
  if (!io) {
    ff.av_free(io_buffer);
    fail("out of memory", 0);
  }
  format->pb = io;
}

// The H.264 encoder (BT.709, limited range, CRF 18) and its stream; writes the MP4's header.
void Mp4Writer::Codec::open_encoder(const AVCodec* codec, int fps) {
  encoder = ff.avcodec_alloc_context3(codec);
  AVCodecContext* e = encoder;
  e->width = width;
  e->height = height;
  e->time_base = AVRational{1, fps};
  e->framerate = AVRational{fps, 1};
  e->pix_fmt = AV_PIX_FMT_YUV420P;
  e->gop_size = 2 * fps;
  e->color_primaries = AVCOL_PRI_BT709;
  e->color_trc = AVCOL_TRC_BT709;
  e->colorspace = AVCOL_SPC_BT709;
  e->color_range = AVCOL_RANGE_MPEG;
  if (format->oformat->flags & AVFMT_GLOBALHEADER) e->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  // CRF 18 is "visually lossless" in x264's documentation; veryfast keeps a 720p frame near 10 ms.
  ff.av_opt_set(e->priv_data, "preset", "veryfast", 0);
  ff.av_opt_set(e->priv_data, "crf", "18", 0);
  int err = ff.avcodec_open2(e, codec, nullptr);
  if (err < 0) fail(std::string("could not open the H.264 encoder ") + codec->name, err);
  stream = ff.avformat_new_stream(format, nullptr);
  if (!stream) fail("out of memory", 0);
  stream->time_base = e->time_base;
  stream->avg_frame_rate = e->framerate;
  ff.avcodec_parameters_from_context(stream->codecpar, e);
  err = ff.avformat_write_header(format, nullptr);
  if (err < 0) fail("could not start the MP4", err);
}

// RGBA to yuv420p (full-range RGB in, limited-range BT.709 out: what players assume for HD video), and the frame.
void Mp4Writer::Codec::open_converter() {
  sws = ff.sws_getContext(width, height, AV_PIX_FMT_RGBA, width, height, AV_PIX_FMT_YUV420P,
                          SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr, nullptr, nullptr);
  if (!sws) fail("libswscale cannot convert RGBA to yuv420p", 0);
  ff.sws_setColorspaceDetails(sws, ff.sws_getCoefficients(SWS_CS_ITU709), 1, ff.sws_getCoefficients(SWS_CS_ITU709), 0, 0,
                              1 << 16, 1 << 16);
  frame = ff.av_frame_alloc();
  packet = ff.av_packet_alloc();
  if (!frame || !packet) fail("out of memory", 0);
  frame->format = AV_PIX_FMT_YUV420P;
  frame->width = width;
  frame->height = height;
  frame->color_range = AVCOL_RANGE_MPEG;
  frame->colorspace = AVCOL_SPC_BT709;
  const int err = ff.av_frame_get_buffer(frame, 0);
  if (err < 0) fail("out of memory", err);
}

Mp4Writer::Mp4Writer(int width, int height, int fps) {
  check_mp4_size(width, height, fps);
  c_ = std::make_unique<Codec>();
  Codec& c = *c_;
  c.width = width;
  c.height = height;
  c.ff.av_log_set_level(AV_LOG_ERROR);  // no x264 banner on stderr
  const AVCodec* codec = find_h264();
  if (!codec) c.fail("this libavcodec has no H.264 encoder", 0);
  c.open_muxer();
  c.open_encoder(codec, fps);
  c.open_converter();
}

Mp4Writer::~Mp4Writer() = default;

int Mp4Writer::frame_count() const { return c_->frames; }

void Mp4Writer::add_frame(const RgbaImage& image) {
  Codec& c = *c_;
  const FfmpegApi& ff = c.ff;
  if (image.width != c.width || image.height != c.height || image.pixels.size() != std::size_t(c.width) * std::size_t(c.height) * 4)
    throw ParamError("frames", "frame " + std::to_string(c.frames) + " is " + std::to_string(image.width) + " x " +
                                   std::to_string(image.height) + ", the MP4 is " + std::to_string(c.width) + " x " + std::to_string(c.height));
  const int err = ff.av_frame_make_writable(c.frame);  // the encoder may still hold the last one
  if (err < 0) c.fail("out of memory", err);
  const std::uint8_t* src[1] = {image.pixels.data()};
  const int stride[1] = {4 * c.width};
  ff.sws_scale(c.sws, src, stride, 0, c.height, c.frame->data, c.frame->linesize);
  c.frame->pts = c.frames++;
  c.encode(c.frame);
}

void Mp4Writer::write(const std::string& path, const std::string& param) {
  Codec& c = *c_;
  const FfmpegApi& ff = c.ff;
  try {
    if (c.frames == 0) c.fail("an MP4 needs at least one frame", 0, "frames");
    c.encode(nullptr);
    const int err = ff.av_write_trailer(c.format);
    if (err < 0) c.fail("could not finish the MP4", err);
    ff.avio_flush(c.io);
  } catch (const ParamError& e) {
    throw ParamError(param, e.rule);
  }
  write_file_atomically(path, [&](std::ostream& os) { os.write(c.file.bytes.data(), std::streamsize(c.file.bytes.size())); }, param);
}

}  // namespace peviz::media
