// PNG figures: pixels and text chunks round-trip; the chunk reader refuses damaged files.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/base/errors.hpp"
#include "core/io/png_file.hpp"

using namespace peviz;

namespace {

RgbaImage gradient(int w, int h) {
  RgbaImage img{w, h, std::vector<std::uint8_t>(std::size_t(w) * h * 4)};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = img.pixels.data() + (std::size_t(y) * w + x) * 4;
      p[0] = std::uint8_t(x * 7), p[1] = std::uint8_t(y * 13), p[2] = std::uint8_t(x ^ y), p[3] = std::uint8_t(255 - x);
    }
  return img;
}

std::string refusal(const std::string& bytes) {
  try {
    read_png_text(bytes);
  } catch (const ParamError& e) {
    return e.rule;
  }
  return "accepted";
}

}  // namespace

TEST_CASE("PNG pixels and text chunks round-trip exactly") {
  const RgbaImage img = gradient(37, 23);
  const std::string json = R"({"params": {"d_model": 128, "base": 10000}, "view": "encoding"})";
  const std::string bytes = encode_png(img, {{"peviz", json}, {"Title", "sinusoidal \xc2\xb7 d_model 128"}});
  const RgbaImage back = decode_png(bytes);
  CHECK(back.width == 37);
  CHECK(back.height == 23);
  CHECK(back.pixels == img.pixels);
  const auto text = read_png_text(bytes);
  REQUIRE(text.size() == 2);
  CHECK(text.at("peviz") == json);
  CHECK(text.at("Title") == "sinusoidal \xc2\xb7 d_model 128");
}

TEST_CASE("write_png_file is atomic: a failed write leaves nothing behind") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("peviz-png-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  write_png_file((dir / "ok.png").string(), gradient(4, 4), {{"peviz", "{}"}});
  CHECK(fs::file_size(dir / "ok.png") > 60);
  CHECK_THROWS_AS(write_png_file((dir / "missing" / "x.png").string(), gradient(4, 4), {}), ParamError);
  CHECK_THROWS_AS(write_png_file((dir / "bad.png").string(), RgbaImage{0, 0, {}}, {}), ParamError);
  CHECK_THROWS_AS(write_png_file((dir / "bad.png").string(), gradient(4, 4), {{"", "no keyword"}}), ParamError);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 1);  // only ok.png: no temporary or partial files
  fs::remove_all(dir);
}

TEST_CASE("the chunk reader refuses damaged PNGs with a reason") {
  const std::string good = encode_png(gradient(8, 8), {{"peviz", "{\"a\": 1}"}});
  CHECK(refusal(good) == "accepted");
  CHECK(refusal("GIF89a....") .find("signature") != std::string::npos);
  CHECK(refusal(good.substr(0, good.size() - 12)).find("IEND") != std::string::npos);   // IEND cut off
  CHECK(refusal(good.substr(0, 50)).find("past the end") != std::string::npos);           // truncated mid-chunk
  std::string crc = good;
  crc[20] ^= 0x40;  // a byte inside IHDR's data
  CHECK(refusal(crc).find("CRC") != std::string::npos);
  std::string huge = good;
  huge[8] = char(0xff);  // IHDR length 0xff00000d: over 2^31
  CHECK(refusal(huge).find("2^31") != std::string::npos);
  CHECK(refusal(good.substr(0, 40)).find("truncated") != std::string::npos);  // inside a chunk header
  CHECK_THROWS_AS(decode_png("not a png"), ParamError);
}
