// libFuzzer target: a lab run file (safetensors with peviz's training metadata) is read or refused with ParamError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/base/errors.hpp"
#include "core/train/run_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto run = peviz::train::run_from_bytes(std::string_view(reinterpret_cast<const char*>(data), size));
    const peviz::train::TrainSnapshot s = run->snapshot();
    if (s.step != int(s.loss.size())) __builtin_trap();  // the loaded curve is the run's progress
    if (run->parameters().size() != run->parameter_count()) __builtin_trap();
  } catch (const peviz::ParamError&) {
  }
  return 0;
}
