// The context-extension comparison: every RoPE scaling at the same factor and lengths, per-pair wavelengths.
//
// One set of knobs (factor, original context, YaRN betas, Llama 3 frequency factors) drives every scaling of
// compared_scalings (rope_scaling.hpp's table: none, linear, dynamic NTK, YaRN and llama3) together, each computed by
// rope_scaled_inv_freq (HF transformers modeling_rope_utils.py), so they can be drawn side by
// side. The target context is original_len * factor unless given (Llama 3.1 scales 8192 by 8 but
// claims 131072); dynamic NTK is evaluated at the target length.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/limits.hpp"
#include "core/models/model_config.hpp"
#include "core/rope/rope.hpp"
#include "core/rope/rope_scaling.hpp"

namespace peviz {

struct ContextExtensionParams {
  RopeParams rope;                // head_dim, rotary_dim, base, pairing
  // The defaults and ranges are core's limits table's (limits::factor, original_len, beta_*, *_freq_factor).
  double factor = limits::factor.fallback;              // >= 1; target context = original_len * factor
  int original_len = int(limits::original_len.fallback);  // original_max_position_embeddings
  int target_len = 0;  // extended context (max_position_embeddings); 0 = original_len * factor
  double beta_fast = limits::beta_fast.fallback;  // YaRN: pairs with more turns than this in original_len are kept
  double beta_slow = limits::beta_slow.fallback;  // YaRN: pairs with fewer turns than this are interpolated
  // Llama 3: wavelengths above original_len / low are divided by factor, those below original_len / high kept.
  double low_freq_factor = limits::low_freq_factor.fallback;
  double high_freq_factor = limits::high_freq_factor.fallback;
  bool operator==(const ContextExtensionParams&) const = default;
};

struct ScalingWavelengths {
  RopeScaling kind = RopeScaling::none;
  ScaledRope scaled;                // inv_freq, attention factor, YaRN ramp
  std::vector<double> wavelength;   // 2 pi / inv_freq per pair, in positions
  int pairs_beyond_original = 0;    // pairs whose wavelength exceeds original_len
  int pairs_beyond_target = 0;      // pairs whose wavelength exceeds the target context
};

struct ContextExtension {
  double target_len = 0.0;                 // the target context used (given, or original_len * factor)
  std::vector<ScalingWavelengths> rows;    // one per compared_scalings(), in its order
};

// Validates (ParamError naming the flag: factor, original-max-len, beta-fast, ...) and computes every row.
ContextExtension compare_context_extensions(const ContextExtensionParams& p);
// One scaling's row from its scaled frequencies: the wavelength 2 pi / inv_freq per pair and the pairs past each
// context (the five above, and a model's own scaling as model_rope gives it).
ScalingWavelengths scaling_wavelengths(RopeScaling kind, ScaledRope scaled, double original_len, double target_len);

// A real model's RoPE settings, read from its config.json.
struct RopeModelPreset {
  std::string name;                               // the model's name (ModelConfig::name)
  std::string layer_type;                         // the layer type these settings are for
  ContextExtensionParams params;
  RopeScaling model_scaling = RopeScaling::none;  // the scaling the model itself ships with
  std::string note;                               // "rope_theta 500000, llama3 x8 from 8192; ..."
  std::shared_ptr<const ModelConfig> model;       // the config read (rope_model_presets only)
};
// One preset per shipped RoPE model (core/models/shipped_models.hpp: the published config.json files), its
// default layer type, in file order.
std::span<const RopeModelPreset> rope_model_presets();
// The preset of kDefaultRopeModel (core/models/shipped_models.hpp).
const RopeModelPreset& default_rope_model_preset();

// The page's knobs for a model read from its config.json (core/models/model_config.hpp), layer type `layer_type` ("" =
// the default one): its head_dim, rotary dim and base; its scaling's factor, original context and YaRN / llama3
// parameters where it has them (else the knobs' defaults); max_position_embeddings as the target when it
// exceeds the original context (linear scaling, which names no original: max_position_embeddings / factor). A model without scaling gets factor 1 (nothing stretched). Throws ParamError
// ("layer-type" for an unknown type, "config" for a model whose positions are not RoPE).
RopeModelPreset rope_model_preset(const ModelConfig& model, std::string_view layer_type = "");

}  // namespace peviz
