// libFuzzer target: the model config reader must refuse any text with ParamError, never crash; a config it
// accepts must give frequencies for every layer type (the reader validates what it returns).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/base/errors.hpp"
#include "core/models/model_config.hpp"

namespace {

void check_rope(const peviz::ModelConfig& c) {
  if (c.layer_types.empty()) __builtin_trap();
  (void)peviz::layer_type_rope(c, "");
  for (const peviz::LayerTypeRope& l : c.layer_types) {
    peviz::RopeScalingParams s = l.scaling;
    if (s.kind == peviz::RopeScaling::longrope && s.original_max_len && *s.original_max_len < (1 << 30))
      s.seq_len = *s.original_max_len + 1;  // the long factors too
    try {
      const peviz::ScaledRope r = peviz::rope_scaled_inv_freq(l.rope, s);
      if (r.inv_freq.size() != std::size_t(peviz::rotary_dim(l.rope) / 2)) __builtin_trap();
    } catch (const peviz::ParamError&) {
      __builtin_trap();  // accepted by the reader, refused by core: the reader missed a check
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const peviz::ModelConfig c = peviz::read_model_config(text, "fuzz");
    if (c.scheme == peviz::PositionScheme::rope) check_rope(c);
  } catch (const peviz::ParamError&) {
  }
  return 0;
}
