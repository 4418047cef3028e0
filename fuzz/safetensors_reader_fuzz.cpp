// libFuzzer target: the safetensors reader must refuse any byte string with ParamError, never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/base/errors.hpp"
#include "core/io/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const peviz::SafetensorsIndex index = peviz::parse_safetensors_index(bytes, size);
    for (const peviz::SafetensorsTensor& t : index.tensors) {
      if (t.end < t.begin || index.data_start + t.end > size) __builtin_trap();  // the checks must hold
      if (!t.loadable_table()) continue;
      try {
        const peviz::Matrix m = peviz::parse_safetensors_matrix(bytes, t.name);
        if (m.data.size() != m.rows * m.cols) __builtin_trap();
      } catch (const peviz::ParamError&) {
      }
    }
  } catch (const peviz::ParamError&) {
  }
  return 0;
}
