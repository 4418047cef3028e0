// The safetensors reader: header parsing with every offset checked, and loading one 2-D float tensor.
#include "core/io/safetensors.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/base/bit_cast.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz {

namespace {

[[noreturn]] void bad(const std::string& param, const std::string& why) { throw ParamError(param, why); }

// Bytes per element of every dtype in safetensors/src/tensor.rs `Dtype`; 0 = unknown.
std::uint64_t dtype_size(std::string_view d) {
  if (d == "BOOL" || d == "U8" || d == "I8" || d == "F8_E5M2" || d == "F8_E4M3") return 1;
  if (d == "I16" || d == "U16" || d == "F16" || d == "BF16") return 2;
  if (d == "I32" || d == "U32" || d == "F32") return 4;
  if (d == "I64" || d == "U64" || d == "F64") return 8;
  return 0;
}

std::uint64_t read_le(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

std::uint64_t json_u64(const nlohmann::json& v, const std::string& param, const std::string& what) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
    bad(param, what + " must be a non-negative integer");
  return v.get<std::uint64_t>();
}

SafetensorsTensor parse_entry(const std::string& name, const nlohmann::json& e, const std::string& param) {
  const std::string where = "tensor '" + name + "'";
  if (!e.is_object()) bad(param, where + " is not a JSON object");
  SafetensorsTensor t;
  t.name = name;
  const auto dt = e.find("dtype");
  if (dt == e.end() || !dt->is_string()) bad(param, where + " has no dtype string");
  t.dtype = dt->get<std::string>();
  const std::uint64_t esize = dtype_size(t.dtype);
  if (esize == 0) bad(param, where + " has unknown dtype '" + t.dtype + "'");
  const auto sh = e.find("shape");
  if (sh == e.end() || !sh->is_array()) bad(param, where + " has no shape array");
  std::uint64_t count = 1;
  for (const auto& d : *sh) {
    const std::uint64_t n = json_u64(d, param, where + ": every dimension");
    if (n != 0 && count > std::numeric_limits<std::uint64_t>::max() / esize / n)
      bad(param, where + " has a shape whose size overflows 64 bits");
    count *= n;
    t.shape.push_back(n);
  }
  const auto off = e.find("data_offsets");
  if (off == e.end() || !off->is_array() || off->size() != 2) bad(param, where + " needs data_offsets [begin, end]");
  t.begin = json_u64((*off)[0], param, where + ": data_offsets");
  t.end = json_u64((*off)[1], param, where + ": data_offsets");
  if (t.end < t.begin) bad(param, where + " has data_offsets with end before begin");
  if (count * esize != t.end - t.begin)
    bad(param, where + ": shape times " + t.dtype + " size is " + std::to_string(count * esize) +
                   " bytes but data_offsets span " + std::to_string(t.end - t.begin));
  return t;
}

}  // namespace

bool SafetensorsTensor::loadable_table() const {
  return shape.size() == 2 && shape[0] > 0 && shape[1] > 0 &&
         (dtype == "F32" || dtype == "F16" || dtype == "BF16" || dtype == "F64");
}

SafetensorsIndex parse_safetensors_index(std::string_view head, std::uint64_t file_size, const std::string& param) {
  if (file_size < 8 || head.size() < 8)
    bad(param, "file is " + std::to_string(file_size) + " bytes, too short for the 8-byte header length");
  const std::uint64_t n = read_le(head.data(), 8);
  if (n > file_size - 8)
    bad(param, "header length " + std::to_string(n) + " runs past the end of the file (" + std::to_string(file_size) +
                   " bytes)");
  if (n > kMaxSafetensorsHeader)
    bad(param, "header length " + std::to_string(n) + " is over the " + std::to_string(kMaxSafetensorsHeader) +
                   " byte limit");
  if (head.size() < 8 + n) bad(param, "header is truncated");
  const nlohmann::json header = nlohmann::json::parse(head.substr(8, n), nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded()) bad(param, "header is not valid JSON");
  if (!header.is_object()) bad(param, "header is not a JSON object");

  SafetensorsIndex idx;
  idx.data_start = 8 + n;
  idx.file_size = file_size;
  for (const auto& [key, value] : header.items()) {
    if (key == "__metadata__") {
      if (!value.is_object()) bad(param, "__metadata__ is not a JSON object");
      for (const auto& [mk, mv] : value.items())
        if (mv.is_string()) idx.metadata[mk] = mv.get<std::string>();
      continue;
    }
    idx.tensors.push_back(parse_entry(key, value, param));
  }
  // The reference reader requires the tensors to tile the data buffer exactly: no overlap, no hole,
  // nothing past the end (safetensors/src/tensor.rs, Metadata::validate).
  const std::uint64_t buffer = file_size - idx.data_start;
  std::vector<const SafetensorsTensor*> by_offset;
  for (const auto& t : idx.tensors) by_offset.push_back(&t);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const auto* a, const auto* b) { return a->begin != b->begin ? a->begin < b->begin : a->end < b->end; });
  std::uint64_t covered = 0;
  for (const SafetensorsTensor* t : by_offset) {
    if (t->end > buffer)
      bad(param, "tensor '" + t->name + "' claims bytes [" + std::to_string(t->begin) + ", " + std::to_string(t->end) +
                     ") but the data buffer has only " + std::to_string(buffer) + " bytes");
    if (t->begin < covered) bad(param, "tensor '" + t->name + "' overlaps another tensor's bytes");
    if (t->begin > covered) bad(param, "the data buffer has a hole before tensor '" + t->name + "'");
    covered = t->end;
  }
  if (covered != buffer)
    bad(param, "the data buffer is " + std::to_string(buffer) + " bytes but the tensors cover " + std::to_string(covered));
  std::sort(idx.tensors.begin(), idx.tensors.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return idx;
}

SafetensorsIndex read_safetensors_index(const std::string& path, const std::string& param) {
  std::ifstream is(path, std::ios::binary);
  if (!is) bad(param, "cannot open " + path + ": " + std::strerror(errno));
  is.seekg(0, std::ios::end);
  const std::streamoff size = is.tellg();
  if (size < 0) bad(param, "cannot read " + path);
  is.seekg(0);
  std::string head(std::min<std::uint64_t>(std::uint64_t(size), 8), '\0');
  if (!is.read(head.data(), std::streamsize(head.size()))) bad(param, "cannot read " + path);
  if (head.size() == 8) {
    const std::uint64_t n = read_le(head.data(), 8);
    if (n <= std::uint64_t(size) - 8 && n <= kMaxSafetensorsHeader) {
      head.resize(8 + n);
      if (!is.read(head.data() + 8, std::streamsize(n))) bad(param, "cannot read " + path);
    }
  }
  return parse_safetensors_index(head, std::uint64_t(size), param);
}

float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const int exp = (h >> 10) & 0x1f;
  const std::uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return peviz::bit_cast<float>(sign | 0x7f800000u | (man << 13));   // inf, NaN
  if (exp == 0) {                                                                   // zero, subnormal
    const float v = std::ldexp(float(man), -24);
    return sign ? -v : v;
  }
  return peviz::bit_cast<float>(sign | std::uint32_t(exp - 15 + 127) << 23 | (man << 13));
}

float bf16_bits_to_float(std::uint16_t b) { return peviz::bit_cast<float>(std::uint32_t(b) << 16); }

namespace {

const SafetensorsTensor& find_table(const SafetensorsIndex& idx, const std::string& name, const std::string& param) {
  const auto it = std::find_if(idx.tensors.begin(), idx.tensors.end(), [&](const auto& t) { return t.name == name; });
  if (it == idx.tensors.end()) {
    std::string names;
    for (const auto& t : idx.tensors)
      if (t.loadable_table()) names += (names.empty() ? "" : ", ") + t.name;
    bad(param, "no tensor named '" + name + "'" + (names.empty() ? std::string(" (the file has no 2-D float tensor)")
                                                                 : "; 2-D float tensors: " + names));
  }
  const SafetensorsTensor& t = *it;
  if (t.shape.size() != 2)
    bad(param, "tensor '" + name + "' must be 2-D [positions, channels], got " + std::to_string(t.shape.size()) + "-D");
  if (t.dtype != "F32" && t.dtype != "F16" && t.dtype != "BF16" && t.dtype != "F64")
    bad(param, "tensor '" + name + "' has dtype " + t.dtype + "; a table must be F32, F16, BF16 or F64");
  if (t.shape[0] < 1 || t.shape[0] > std::uint64_t(limits::max_len.max) || t.shape[1] < 1 ||
      t.shape[1] > std::uint64_t(limits::d_model.max))
    bad(param, "tensor '" + name + "' is " + std::to_string(t.shape[0]) + " x " + std::to_string(t.shape[1]) +
                   "; a table must have " + range_text(limits::max_len) + " rows and " + range_text(limits::d_model) +
                   " columns");
  return t;
}

// `data` holds exactly the tensor's bytes.
Matrix convert(const SafetensorsTensor& t, std::string_view data, const std::string& param) {
  Matrix m(t.shape[0], t.shape[1]);
  const int esize = int(dtype_size(t.dtype));
  for (std::size_t i = 0; i < m.data.size(); ++i) {
    const std::uint64_t bits = read_le(data.data() + i * std::size_t(esize), esize);
    double v = 0.0;
    if (t.dtype == "F32") v = peviz::bit_cast<float>(std::uint32_t(bits));
    else if (t.dtype == "F64") v = peviz::bit_cast<double>(bits);
    else if (t.dtype == "F16") v = half_bits_to_float(std::uint16_t(bits));
    else v = bf16_bits_to_float(std::uint16_t(bits));
    if (!std::isfinite(v) || !std::isfinite(float(v)))
      bad(param, "tensor '" + t.name + "' value at row " + std::to_string(i / m.cols) + ", column " +
                     std::to_string(i % m.cols) + " is not finite");
    m.data[i] = float(v);
  }
  return m;
}

}  // namespace

Matrix parse_safetensors_matrix(std::string_view bytes, const std::string& name, const std::string& param) {
  const SafetensorsIndex idx = parse_safetensors_index(bytes, bytes.size(), param);
  const SafetensorsTensor& t = find_table(idx, name, param);
  return convert(t, bytes.substr(idx.data_start + t.begin, t.end - t.begin), param);
}

Matrix read_safetensors_matrix(const std::string& path, const std::string& name, const std::string& param) {
  const SafetensorsIndex idx = read_safetensors_index(path, param);
  const SafetensorsTensor& t = find_table(idx, name, param);
  std::ifstream is(path, std::ios::binary);
  if (!is) bad(param, "cannot open " + path + ": " + std::strerror(errno));
  std::string data(t.end - t.begin, '\0');
  is.seekg(std::streamoff(idx.data_start + t.begin));
  if (!is.read(data.data(), std::streamsize(data.size())))
    bad(param, "cannot read tensor '" + name + "' from " + path + " (file changed while reading?)");
  return convert(t, data, param);
}

}  // namespace peviz
