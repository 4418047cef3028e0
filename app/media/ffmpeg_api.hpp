// FFmpeg's functions, loaded (dlopen) when the first MP4 is made rather than linked: linked, libavcodec
// and libavformat cost every peviz process about 22 MiB of resident memory at start (their relocations),
// which `peviz export` and the window never use unless they record an MP4.
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace peviz::media {

// X(library, function) for every FFmpeg function peviz calls; the library is avutil, avcodec,
// avformat or swscale, loaded by the soname of the headers built against (libavcodec.so.59, ...).
#define PEVIZ_FFMPEG_FUNCTIONS(X)                                                                         \
  X(avutil, av_strerror) X(avutil, av_log_set_level) X(avutil, av_malloc) X(avutil, av_free)              \
  X(avutil, av_freep) X(avutil, av_opt_set) X(avutil, av_frame_alloc) X(avutil, av_frame_free)           \
  X(avutil, av_frame_get_buffer) X(avutil, av_frame_make_writable)                                        \
  X(avcodec, avcodec_find_encoder_by_name) X(avcodec, avcodec_find_encoder) X(avcodec, avcodec_alloc_context3) \
  X(avcodec, avcodec_open2) X(avcodec, avcodec_free_context) X(avcodec, avcodec_parameters_from_context) \
  X(avcodec, avcodec_send_frame) X(avcodec, avcodec_receive_packet) X(avcodec, av_packet_alloc)          \
  X(avcodec, av_packet_free) X(avcodec, av_packet_rescale_ts)                                             \
  X(avformat, avformat_alloc_output_context2) X(avformat, avformat_new_stream)                            \
  X(avformat, avformat_write_header) X(avformat, avformat_free_context) X(avformat, av_interleaved_write_frame) \
  X(avformat, av_write_trailer) X(avformat, avio_alloc_context) X(avformat, avio_context_free)           \
  X(avformat, avio_flush)                                                                                 \
  X(swscale, sws_getContext) X(swscale, sws_setColorspaceDetails) X(swscale, sws_getCoefficients)        \
  X(swscale, sws_scale) X(swscale, sws_freeContext)

// One pointer per function, typed from FFmpeg's own declarations.
struct FfmpegApi {
#define PEVIZ_FFMPEG_POINTER(library, function) decltype(&::function) function = nullptr;
  PEVIZ_FFMPEG_FUNCTIONS(PEVIZ_FFMPEG_POINTER)
#undef PEVIZ_FFMPEG_POINTER
};

// Loads the four libraries on first use (thread-safe) and returns their functions. Throws
// ParamError("out", ...) naming the library or function when one cannot be loaded.
const FfmpegApi& ffmpeg();

}  // namespace peviz::media
