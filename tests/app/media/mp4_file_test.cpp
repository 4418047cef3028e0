// MP4 files read back with libavformat/libavcodec: container and codec, frame count, size, exact
// frame rate, and decoded colours close to the frames written (H.264 is lossy; flat areas survive).
#include <catch2/catch.hpp>

#include <filesystem>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include "app/media/mp4_file.hpp"
#include "core/base/errors.hpp"
#include "tests/temp_path.hpp"

using namespace peviz;
using namespace peviz::media;

namespace {

// Frame f: four flat quadrants (red, green, blue, a grey that brightens by 8 per frame).
RgbaImage quadrants(int w, int h, int f) {
  RgbaImage img{w, h, std::vector<std::uint8_t>(std::size_t(w) * std::size_t(h) * 4, 255)};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = &img.pixels[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
      const int q = (y >= h / 2) * 2 + (x >= w / 2);
      const std::uint8_t grey = std::uint8_t(40 + 8 * f);
      const std::uint8_t rgb[4][3] = {{220, 30, 30}, {30, 200, 60}, {40, 60, 210}, {grey, grey, grey}};
      p[0] = rgb[q][0], p[1] = rgb[q][1], p[2] = rgb[q][2];
    }
  return img;
}

struct Decoded {
  int width = 0, height = 0, frames = 0;
  AVRational frame_rate{0, 1};
  std::string codec;
  std::vector<RgbaImage> images;
};

// Decodes every frame of `path` to RGBA with the same libraries.
Decoded decode_all(const std::string& path) {
  Decoded out;
  AVFormatContext* fmt = nullptr;
  REQUIRE(avformat_open_input(&fmt, path.c_str(), nullptr, nullptr) == 0);
  REQUIRE(avformat_find_stream_info(fmt, nullptr) >= 0);
  REQUIRE(fmt->nb_streams == 1);
  AVStream* st = fmt->streams[0];
  out.frame_rate = st->avg_frame_rate;
  const AVCodec* codec = avcodec_find_decoder(st->codecpar->codec_id);
  REQUIRE(codec);
  out.codec = codec->name;
  AVCodecContext* dec = avcodec_alloc_context3(codec);
  avcodec_parameters_to_context(dec, st->codecpar);
  REQUIRE(avcodec_open2(dec, codec, nullptr) == 0);
  out.width = dec->width;
  out.height = dec->height;
  AVPacket* pkt = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  SwsContext* sws = nullptr;
  auto drain = [&] {
    while (avcodec_receive_frame(dec, frame) == 0) {
      ++out.frames;
      sws = sws_getCachedContext(sws, frame->width, frame->height, AVPixelFormat(frame->format), frame->width, frame->height,
                                 AV_PIX_FMT_RGBA, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr, nullptr, nullptr);
      sws_setColorspaceDetails(sws, sws_getCoefficients(SWS_CS_ITU709), 0, sws_getCoefficients(SWS_CS_ITU709), 1, 0, 1 << 16, 1 << 16);
      RgbaImage img{frame->width, frame->height, std::vector<std::uint8_t>(std::size_t(frame->width) * std::size_t(frame->height) * 4)};
      std::uint8_t* dst[1] = {img.pixels.data()};
      const int stride[1] = {4 * frame->width};
      sws_scale(sws, frame->data, frame->linesize, 0, frame->height, dst, stride);
      out.images.push_back(std::move(img));
    }
  };
  while (av_read_frame(fmt, pkt) >= 0) {
    avcodec_send_packet(dec, pkt);
    av_packet_unref(pkt);
    drain();
  }
  avcodec_send_packet(dec, nullptr);
  drain();
  sws_freeContext(sws);
  av_frame_free(&frame);
  av_packet_free(&pkt);
  avcodec_free_context(&dec);
  avformat_close_input(&fmt);
  return out;
}

}  // namespace

TEST_CASE("this libavcodec has an H.264 encoder") { CHECK(h264_encoder_name() == "libx264"); }

TEST_CASE("an MP4 reads back with its frame count, size, exact frame rate and colours") {
  const int w = 320, h = 180, n = 30, fps = 24;
  Mp4Writer mp4(w, h, fps);
  for (int f = 0; f < n; ++f) mp4.add_frame(quadrants(w, h, f));
  CHECK(mp4.frame_count() == n);
  const std::string path = unique_temp_path("mp4-test-clip.mp4");
  mp4.write(path);
  const Decoded d = decode_all(path);
  CHECK(d.codec == "h264");
  CHECK(d.width == w);
  CHECK(d.height == h);
  CHECK(d.frames == n);
  CHECK(d.frame_rate.num == fps * d.frame_rate.den);
  REQUIRE(d.images.size() == std::size_t(n));
  for (int f : {0, n / 2, n - 1}) {
    const RgbaImage want = quadrants(w, h, f);
    for (auto [x, y] : {std::pair{w / 4, h / 4}, std::pair{3 * w / 4, h / 4}, std::pair{w / 4, 3 * h / 4}, std::pair{3 * w / 4, 3 * h / 4}}) {
      const std::size_t i = (std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4;
      INFO("frame " << f << " at " << x << ", " << y);
      for (int c = 0; c < 3; ++c) CHECK(std::abs(int(d.images[std::size_t(f)].pixels[i + std::size_t(c)]) - int(want.pixels[i + std::size_t(c)])) <= 6);
    }
  }
  std::filesystem::remove(path);
}

TEST_CASE("the MP4 writer refuses odd sizes, bad rates and mismatched frames, leaving no file") {
  CHECK_THROWS_WITH(Mp4Writer(321, 180, 30), Catch::Contains("even size"));
  CHECK_THROWS_AS(Mp4Writer(320, 0, 30), ParamError);
  CHECK_THROWS_AS(Mp4Writer(320, 180, 0), ParamError);
  CHECK_THROWS_AS(Mp4Writer(320, 180, 121), ParamError);
  Mp4Writer mp4(64, 64, 10);
  CHECK_THROWS_AS(mp4.add_frame(quadrants(32, 64, 0)), ParamError);
  const std::string path = unique_temp_path("mp4-test-none.mp4");
  CHECK_THROWS_AS(mp4.write(path), ParamError);  // no frames
  CHECK_FALSE(std::filesystem::exists(path));
  Mp4Writer ok(64, 64, 10);
  ok.add_frame(quadrants(64, 64, 0));
  CHECK_THROWS_AS(ok.write("/nonexistent-folder/x.mp4"), ParamError);
}
