// The one list of the window's pages, in tab order.
//
// Adding a page: its model file app/model/pages/<id>_page.{hpp,cpp} (the options struct, and
// `const PageModel <id>_page` with its update, export, caption and state JSON), its view file
// app/ui/views/<id>_view.cpp (`void draw_<id>_view(AppState&)`), and its entry here: the include and
// one PAGE line. The Page enum, PageStates's members, the model registry and the views' table are
// all generated from this list (docs/architecture.md).
#pragma once
#include "app/model/pages/alibi_page.hpp"
#include "app/model/pages/attention_scale_page.hpp"
#include "app/model/pages/basics_page.hpp"
#include "app/model/pages/context_extension_page.hpp"
#include "app/model/pages/criteria_page.hpp"
#include "app/model/pages/lab_page.hpp"
#include "app/model/pages/distance_chart_page.hpp"
#include "app/model/pages/learned_page.hpp"
#include "app/model/pages/linear_shift_page.hpp"
#include "app/model/pages/mrope_page.hpp"
#include "app/model/pages/precision_page.hpp"
#include "app/model/pages/rope_clocks_page.hpp"
#include "app/model/pages/rope_decay_page.hpp"
#include "app/model/pages/t5_shaw_page.hpp"

// PAGE(id, Options): `id` names the enum value, the PageStates member, `<id>_page` and `draw_<id>_view`.
#define PEVIZ_PAGES(PAGE)                           \
  PAGE(basics, BasicsOptions)                       \
  PAGE(rope_clocks, RopeClocksOptions)              \
  PAGE(rope_decay, RopeDecayOptions)                \
  PAGE(context_extension, ContextExtensionOptions)  \
  PAGE(attention_scale, AttentionScaleOptions)      \
  PAGE(mrope, MropeOptions)                         \
  PAGE(alibi, AlibiOptions)                         \
  PAGE(t5_shaw, T5ShawOptions)                      \
  PAGE(distance_chart, DistanceChartOptions)        \
  PAGE(linear_shift, LinearShiftOptions)            \
  PAGE(criteria, CriteriaOptions)                   \
  PAGE(learned, LearnedOptions)                     \
  PAGE(precision, PrecisionOptions)                 \
  PAGE(lab, LabOptions)
