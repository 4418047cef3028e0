// The line that names the loaded RoPE model on a RoPE page (or offers it, when the page's knobs are custom).
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// On a page that follows the loaded model: its name, rotary dim and base, and its layer types when it has
// several; on a custom page: a button that puts the model's knobs back. Nothing in a figure (the caption names it).
void draw_rope_model_line(AppState& s, Page page);
// The loaded model's layer types (Gemma 3: full and sliding attention) as a combo, when it has more than one:
// choosing one moves every page that follows the model to it.
void rope_layer_combo(AppState& s);
// The model's layer map as a strip, one cell per layer coloured by how it sees position and over what span (hover:
// the layer), then each group's count and kind, then the positional fields the map does not model; nothing when
// the config gives no layer count.
void draw_layer_strip(const ModelConfig& m);

}  // namespace peviz::app
