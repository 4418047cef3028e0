// Writing `.safetensors` files of float32 tensors with string metadata (the format of core/io/safetensors.hpp).
#include <cstring>
#include <ostream>

#include <nlohmann/json.hpp>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/io/safetensors.hpp"

namespace peviz {

std::uint16_t float_to_half_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (exp == 0xff) return std::uint16_t(sign | 0x7c00u | (man ? 0x200u : 0u));  // inf, NaN
  const int e = int(exp) - 127 + 15;                                            // the half's biased exponent
  if (e >= 31) return std::uint16_t(sign | 0x7c00u);                            // too large: infinity
  if (e <= 0) {                                                                  // subnormal half, or zero
    if (e < -10) return std::uint16_t(sign);
    const std::uint32_t m = man | 0x800000u;  // with the implicit bit
    const int shift = 14 - e;
    std::uint32_t h = m >> shift;
    const std::uint32_t rest = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
    return std::uint16_t(sign | h);
  }
  std::uint32_t h = (std::uint32_t(e) << 10) | (man >> 13);
  const std::uint32_t rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is still right
  return std::uint16_t(sign | h);
}

std::string safetensors_bytes(const std::vector<SafetensorsF32>& tensors,
                              const std::map<std::string, std::string>& metadata) {
  nlohmann::json header = nlohmann::json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::uint64_t offset = 0;
  for (const SafetensorsF32& t : tensors) {
    std::uint64_t count = 1;
    for (std::uint64_t d : t.shape) count *= d;
    if (count != t.data.size()) throw std::invalid_argument("safetensors: shape does not match data of " + t.name);
    const std::uint64_t bytes = (t.half ? 2 : 4) * count;
    header[t.name] = {{"dtype", t.half ? "F16" : "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  std::string text = header.dump();
  text.resize((text.size() + 7) / 8 * 8, ' ');
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[std::size_t(i)] = char((std::uint64_t(text.size()) >> (8 * i)) & 0xff);
  out += text;
  for (const SafetensorsF32& t : tensors) {
    const std::size_t at = out.size(), width = t.half ? 2 : 4;
    out.resize(at + width * t.data.size());
    for (std::size_t i = 0; i < t.data.size(); ++i) {  // little-endian regardless of the host
      std::uint32_t bits = float_to_half_bits(t.data[i]);
      if (!t.half) std::memcpy(&bits, &t.data[i], 4);
      for (std::size_t b = 0; b < width; ++b) out[at + width * i + b] = char((bits >> (8 * b)) & 0xff);
    }
  }
  return out;
}

void write_safetensors(const std::string& path, const std::vector<SafetensorsF32>& tensors,
                       const std::map<std::string, std::string>& metadata, const std::string& param) {
  const std::string bytes = safetensors_bytes(tensors, metadata);
  write_file_atomically(path, [&](std::ostream& os) { os.write(bytes.data(), std::streamsize(bytes.size())); }, param);
}

}  // namespace peviz
