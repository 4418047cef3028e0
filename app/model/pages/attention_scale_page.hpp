// The attention-against-length page's options and cached results (its update, export, caption and state JSON:
// attention_scale_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/models/attention_scale.hpp"

namespace peviz::app {

struct AttentionScaleOptions {
  double margin = limits::needle_margin.fallback;  // the needle's logit margin D
  double spread = limits::needle_spread.fallback;  // the other keys' logits' standard deviation
  ScaleMethodParams params;                        // SSMax's s, log-n's L, YaRN's factor, Llama 4's a and F
  int max_position_log10 = int(limits::scale_max_log10.fallback);  // positions up to 10^this
  // Which methods are drawn (kAllScaleMethods' order), and the loaded model's own groups.
  bool show_none = true, show_ssmax = true, show_logn = true, show_yarn = true, show_llama4 = true;
  bool show_model = false;  // set when a model is loaded (PageModel::take_rope_model), as the other RoPE pages follow it
  // cache: x = log10 n (n = position + 1 keys), per method (kAllScaleMethods' order) the logit scale and the needle's
  // weight; per group of the model's layers the same, its label, and the model's trained and extended context.
  std::vector<float> log10_keys;
  std::array<std::vector<float>, 5> scale, weight;
  std::vector<std::string> model_labels;
  std::vector<std::vector<float>> model_scale, model_weight;
  int model_trained = 0, model_extended = 0;
};

// The page's samples along x: this many, evenly spaced in log10 n.
inline constexpr int kScaleSamples = 481;

// The parts a presented lesson step can name: notes, the scale plot, the needle plot.
inline constexpr const char *kScaleNotes = "notes", *kScalePlot = "scale", *kNeedlePlot = "needle";
inline constexpr std::array<const char*, 3> kAttentionScaleParts = {kScaleNotes, kScalePlot, kNeedlePlot};

}  // namespace peviz::app
