// The Basics page (the 2 x 2 grid of waves, encoding, similarity and binary views): its options live
// in AppState itself (waves, encoding_view, similarity_view, binary_view), so this struct is empty.
#pragma once

namespace peviz::app {

struct BasicsOptions {};

}  // namespace peviz::app
