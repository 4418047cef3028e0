// Where a config's RoPE is known to be read differently by common inference frameworks than by transformers.
//
// Each note says what differs and cites what was read (a file and function of the framework's source, or an issue
// or pull request of its repository); where a framework's behaviour could not be confirmed the note says so. The
// notes describe versions read in 2026 and change with those frameworks: they say where to look, not a verdict on
// a given release.
#pragma once
#include <string_view>
#include <vector>

#include "core/models/model_config.hpp"

namespace peviz {

struct FrameworkNote {
  std::string_view topic;   // "YaRN attention factor"
  std::string_view text;    // what differs, one or two sentences
  std::string_view source;  // what it rests on: repository, file and function, or issue / pull request
};

// The notes that apply to `c` (a RoPE model; none otherwise), in a fixed order.
std::vector<const FrameworkNote*> framework_notes(const ModelConfig& c);

}  // namespace peviz
