// Writing `.safetensors` files of float32 tensors with string metadata (the format of core/safetensors.hpp).
#include <cstring>
#include <ostream>

#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/safetensors.hpp"

namespace peviz {

std::string safetensors_bytes(const std::vector<SafetensorsF32>& tensors,
                              const std::map<std::string, std::string>& metadata) {
  nlohmann::json header = nlohmann::json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::uint64_t offset = 0;
  for (const SafetensorsF32& t : tensors) {
    std::uint64_t count = 1;
    for (std::uint64_t d : t.shape) count *= d;
    if (count != t.data.size()) throw std::invalid_argument("safetensors: shape does not match data of " + t.name);
    header[t.name] = {{"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + 4 * count}}};
    offset += 4 * count;
  }
  std::string text = header.dump();
  text.resize((text.size() + 7) / 8 * 8, ' ');
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[std::size_t(i)] = char((std::uint64_t(text.size()) >> (8 * i)) & 0xff);
  out += text;
  for (const SafetensorsF32& t : tensors) {
    const std::size_t at = out.size();
    out.resize(at + 4 * t.data.size());
    for (std::size_t i = 0; i < t.data.size(); ++i) {  // little-endian regardless of the host
      std::uint32_t bits;
      std::memcpy(&bits, &t.data[i], 4);
      for (int b = 0; b < 4; ++b) out[at + 4 * i + std::size_t(b)] = char((bits >> (8 * b)) & 0xff);
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
