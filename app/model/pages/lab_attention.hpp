// The Lab page's attention panel: one run's attention on the chosen test sequence, or two runs' side by side on the
// same sequence (the rows of one query, stacked into one picture), recomputed by the update step when they change.
#pragma once

#include "app/model/pages/lab_page.hpp"

namespace peviz::app {

// Brings o.attention, o.beside and o.pair_rows up to date with the runs, the chosen encodings, length and sample.
void refresh_lab_attention(LabOptions& o);

}  // namespace peviz::app
