// The learned page's options and cached results (its update, export, caption and state JSON: learned_page.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/io/safetensors.hpp"
#include "core/base/matrix.hpp"

namespace peviz::app {

struct LearnedOptions {
  std::string directory;          // file dialog folder (empty = current directory)
  std::vector<std::string> entries;  // its sub-folders ("name/") then .npy and .safetensors files
  bool list_directory = true;     // re-read `directory` in the next update
  std::string path;               // chosen file
  std::vector<SafetensorsTensor> tensors;  // tensors of `path` when it is a .safetensors
  int tensor = -1;                // chosen tensor index
  std::string loaded_name;        // what the learned table came from, for display
  std::string error;              // last refusal, shown in the page
  bool load_requested = false;
  // The Lab's shipped trained table (its learned run, seed 0): asked for by the page's button, and shown once
  // when the page first opens while the sidebar has no learned table.
  bool shipped_requested = false, shipped_offered = false;
  // cache: row norms of the loaded table against position (NaN past its length)
  std::vector<float> row_norm;
};

}  // namespace peviz::app
