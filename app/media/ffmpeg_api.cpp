// Loading FFmpeg's libraries by soname with dlopen, and its functions with dlsym.
#include "app/media/ffmpeg_api.hpp"

#include <dlfcn.h>

#include <string>

#include "core/base/errors.hpp"

namespace peviz::media {

namespace {

// The soname of the library the headers describe: the same major version the build was checked against.
std::string soname(const char* library, int major) {
  return "lib" + std::string(library) + ".so." + std::to_string(major);
}

struct Libraries {
  void* avutil = nullptr;
  void* avcodec = nullptr;
  void* avformat = nullptr;
  void* swscale = nullptr;
};

void* open_library(const char* library, int major) {
  const std::string name = soname(library, major);
  void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw ParamError("out", "MP4 needs " + name + ", which cannot be loaded: " + ::dlerror());
  return handle;  // kept for the life of the process
}

FfmpegApi load() {
  Libraries l;
  l.avutil = open_library("avutil", LIBAVUTIL_VERSION_MAJOR);
  l.avcodec = open_library("avcodec", LIBAVCODEC_VERSION_MAJOR);
  l.avformat = open_library("avformat", LIBAVFORMAT_VERSION_MAJOR);
  l.swscale = open_library("swscale", LIBSWSCALE_VERSION_MAJOR);
  FfmpegApi api;
#define PEVIZ_FFMPEG_LOAD(library, function)                                                          \
  api.function = reinterpret_cast<decltype(api.function)>(::dlsym(l.library, #function));            \
  if (!api.function) throw ParamError("out", "lib" #library " has no " #function " (a different FFmpeg?)");
  PEVIZ_FFMPEG_FUNCTIONS(PEVIZ_FFMPEG_LOAD)
#undef PEVIZ_FFMPEG_LOAD
  return api;
}

}  // namespace

const FfmpegApi& ffmpeg() {
  static const FfmpegApi api = load();  // a failed load throws and is tried again on the next call
  return api;
}

}  // namespace peviz::media
