// The context extension page's options and cached results (its update, export, caption and state JSON: context_extension_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/context_extension.hpp"
#include "core/matrix.hpp"

namespace peviz::app {

struct ContextExtensionOptions {
  ContextExtensionParams params = rope_model_presets()[1].params;  // Llama-3.1 8B
  int preset = 1;                 // index into rope_model_presets(), -1 = custom
  std::array<bool, 5> shown{true, true, true, true, true};  // none, linear, dynamic, yarn, llama3
  // cache
  ContextExtension result;
  std::array<std::vector<float>, 5> log10_wavelength;
  std::vector<float> ramp;        // YaRN ramp per pair
};

}  // namespace peviz::app
