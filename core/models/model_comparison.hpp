// Real models side by side: each RoPE model's wavelengths per pair, its contexts, and the theory's bounds.
//
// One summary per model (and layer type) read from its config.json (core/models/model_config.hpp):
//  - wavelengths 2 pi / inv_freq per pair, unscaled (base^(-2j/R)) and with the model's own rope_scaling as
//    transformers computes it at the extended context (core/rope/rope_scaling.hpp; dynamic NTK and LongRoPE
//    evaluated at seq_len = the extended context, so LongRoPE uses its long factors);
//  - how many pairs complete a turn (wavelength <= context) inside the original and the extended context;
//  - Liu et al. 2023's critical dimension for the original context and Men et al. 2024's smallest base for
//    the longest distance the model's RoPE layers see (the extended context, or their window or chunk when
//    every one of them slides or attends in chunks) (core/rope/rope_bounds.hpp), both over the R rotating channels.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/models/model_config.hpp"
#include "core/rope/rope.hpp"
#include "core/rope/rope_bounds.hpp"
#include "core/rope/rope_scaling.hpp"

namespace peviz {

inline constexpr int kMaxComparedModels = 4;  // models side by side on the context-extension page

struct RopeModelSummary {
  std::string name;                       // the model's name, "name (layer type)" when it has several
  int head_dim = 0;
  int rotary_dim = 0;                     // R: the channels that rotate
  double base = 0;                        // rope_theta of this layer type
  RopeScaling scaling = RopeScaling::none;
  double factor = 1.0;                    // the scaling's factor (1 without scaling)
  double attention_factor = 1.0;          // multiplies cos and sin (YaRN, LongRoPE)
  int original_len = 0;                   // the context the model was trained on
  int extended_len = 0;                   // max_position_embeddings when above the original, else original x factor
  std::vector<double> wavelength;         // per pair, unscaled
  std::vector<double> scaled_wavelength;  // per pair, with the model's scaling at the extended context
  int pairs_turning_original = 0;         // unscaled wavelength <= original_len
  int pairs_turning_extended = 0;         // scaled wavelength <= extended_len
  int critical_dim = 0;                   // Liu et al. d_extra for original_len, in channels (0..R)
  int span = 0;                           // the longest distance a layer with this RoPE sees: extended_len, or
                                          // less where every such layer slides or attends in chunks (Llama 4: 8192)
  int layers = 0;                         // the model's layers (0: the config does not say)
  int nope_layers = 0;                    // layers that attend without positional encoding
  int positionless_layers = 0;            // layers that are not attention (linear attention)
  std::optional<double> min_base;         // Men et al.'s smallest base for `span` (nullopt: none found)
  // The first m < span with B(m) < 0 at the model's own base; nullopt: B(m) >= 0 for every m < span (the base
  // holds). One walk, since a base above min_base can fail again (rope_holding_bases).
  std::optional<long long> fails_at;
};

// The scan for the bases that hold over the model's span, from min_base up to limits::bounds_islands_listed x it
// (done at once when there is no min_base); stepped by the caller (the window spreads it over frames).
HoldingBaseScan holding_base_scan(const RopeModelSummary& m);

// A model's RoPE as it runs at its extended context: its head, its contexts and its scaled frequencies.
struct ModelRope {
  RopeParams rope;          // head_dim, rotary_dim, base of the layer type
  ScaledRope scaled;        // inv_freq with the model's scaling (dynamic NTK and LongRoPE at the extended context)
  int original_len = 0;
  int extended_len = 0;
  int span = 0;             // the longest distance its RoPE layers see (RopeModelSummary::span)
};
ModelRope model_rope(const ModelConfig& model, std::string_view layer_type = "");

// ParamError("layer-type") for an unknown layer type, ParamError("config") for a model without RoPE.
RopeModelSummary summarize_rope_model(const ModelConfig& model, std::string_view layer_type = "");

// The comparison table's columns, in order, declared once: `key` names the column in `peviz export
// models-compared`, `title` heads it on the Context extension page (short, so that the table fits 1280 pixels),
// `meaning` says what it holds (the header's hover, the export's legend).
struct ComparisonColumn {
  const char* key;
  const char* title;
  const char* meaning;
};
extern const ComparisonColumn kComparisonColumns[13];

}  // namespace peviz
