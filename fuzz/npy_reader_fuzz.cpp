// libFuzzer target: the .npy readers must refuse any byte string with ParamError, never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/base/errors.hpp"
#include "core/io/nd_array.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const peviz::Matrix m = peviz::parse_npy_matrix(bytes);
    if (m.rows == 0 || m.cols == 0 || m.data.size() != m.rows * m.cols) __builtin_trap();
  } catch (const peviz::ParamError&) {
  }
  try {
    const peviz::NdArray a = peviz::parse_npy(bytes);
    if (a.size() != (a.dtype == peviz::DType::f32 ? a.f32.size() : a.i32.size())) __builtin_trap();
  } catch (const peviz::ParamError&) {
  }
  return 0;
}
