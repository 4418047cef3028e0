// app/media/ffmpeg_api: FFmpeg is loaded on first use, with every function peviz calls.
#include <catch2/catch.hpp>

#include <cerrno>
#include <string>

#include "app/media/ffmpeg_api.hpp"

using namespace peviz::media;

TEST_CASE("ffmpeg() loads every function peviz calls, once, and they are FFmpeg's own") {
  const FfmpegApi& ff = ffmpeg();
#define PEVIZ_CHECK_LOADED(library, function) CHECK(ff.function != nullptr);
  PEVIZ_FFMPEG_FUNCTIONS(PEVIZ_CHECK_LOADED)
#undef PEVIZ_CHECK_LOADED
  CHECK(&ffmpeg() == &ff);
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  REQUIRE(ff.av_strerror(AVERROR(EINVAL), text, sizeof text) == 0);
  CHECK(std::string(text) == "Invalid argument");
  const AVCodec* h264 = ff.avcodec_find_encoder(AV_CODEC_ID_H264);
  REQUIRE(h264 != nullptr);
  CHECK(h264->id == AV_CODEC_ID_H264);
}
