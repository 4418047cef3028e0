// The precision page: phase error of t·θ in fp32 / bf16 / fp16 against t (core/rope/precision).
#include <cmath>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/encodings/absolute_encodings.hpp"

namespace peviz::app {

namespace precision_local {  // this page's own names (the pages share a unity batch)
namespace {

constexpr PageSetting kSettings[] = {
    {.key = "use_rope", .help = "RoPE's frequencies (head_dim, base) instead of the sidebar's sinusoid",
     .access = member<&PageStates::precision, &PrecisionOptions::use_rope>()},
    {.key = "head_dim", .help = "Channels per attention head d (even)",
     .access = member<&PageStates::precision, &PrecisionOptions::head_dim>(), .limit = &limits::head_dim,
     .full_range = true, .shared_flag = true, .knob = true},
    {.key = "base", .help = "RoPE's base (rope_theta)", .access = member<&PageStates::precision, &PrecisionOptions::base>(),
     .limit = &limits::rope_base, .full_range = true, .shared_flag = true, .knob = true},
    {.key = "max_position_log2", .help = "Positions 1 .. 2^this",
     .access = member<&PageStates::precision, &PrecisionOptions::max_position_log2>(),
     .limit = &limits::precision_max_position_log2},
};

RopeParams rope_params(const PrecisionOptions& o) {
  RopeParams p;
  p.head_dim = o.head_dim;
  p.base = o.base;
  return p;
}

void take_model(PageStates& a) {
  PrecisionOptions& o = a.precision;
  const RopeParams r = single_rope(a.rope_model);
  o.head_dim = r.head_dim;
  o.base = r.base;
  o.use_rope = true;
  o.from_model = true;
}

// The flag, and the knobs still the model's (a knob moved on a page not updated since counts too).
bool follows_model(const PageStates& a) {
  const RopeParams model = single_rope(a.rope_model);
  return a.precision.from_model && a.precision.head_dim == model.head_dim && a.precision.base == model.base;
}

void update(AppState& s) {
  const BasicsOptions& basics = s.pages.basics;
  PrecisionOptions& o = s.pages.precision;
  o.from_model = follows_model(s.pages);  // a knob moved: custom from now on
  check_int(limits::precision_max_position_log2, o.max_position_log2);
  std::vector<double> freq;
  if (o.use_rope) {
    freq = rope_inv_freq(rope_params(o));
  } else {
    validate(basics.computed);
    freq = sinusoid_frequencies(basics.computed.d_model, basics.computed.base, basics.computed.layout);
  }
  // 8 points per octave: x = i/8 on the log2 axis, position round(2^(i/8)) (repeats at small t).
  std::vector<double> t;
  for (int i = 0; i <= 8 * o.max_position_log2; ++i) t.push_back(std::round(std::exp2(i / 8.0)));
  const Matrix err = rope_phase_error(freq, t);
  o.log2_position.resize(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) o.log2_position[i] = float(std::log2(t[i]));
  for (std::size_t f = 0; f < 3; ++f) {
    o.error[f].resize(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) o.error[f][i] = err.at(i, f + 1);
    o.indistinguishable[f] = first_indistinguishable_position(FloatFormat(f));
  }
}

// Columns: log2 t, phase error in fp32, bf16, fp16 (rad).
NdArray export_data(const AppState& s) {
  const PrecisionOptions& o = s.pages.precision;
  return data_columns({o.log2_position, o.error[0], o.error[1], o.error[2]});
}

std::string caption(const AppState& s) {
  const PrecisionOptions& o = s.pages.precision;
  if (!o.use_rope) return absolute_caption(s.params);
  const std::string dot = kCaptionDot;
  return "RoPE" + dot + rope_model_caption(s.pages, follows_model(s.pages)) + "head_dim " +
         std::to_string(o.head_dim) + dot + "base " + caption_number(o.base) + dot + "t to 2^" +
         std::to_string(o.max_position_log2);
}

bool read_extra(const nlohmann::json& j, PageStates& a) {
  return read_model_knobs(j, a, knob_keys(kSettings), take_model, a.precision.from_model);
}

void write_extra(const PageStates& a, nlohmann::json& j) { write_rope_model_json(j, a, follows_model(a)); }

void check(const PageStates& a) { validate(rope_params(a.precision)); }

}  // namespace
}  // namespace precision_local

extern const PageModel precision_page{.name = "precision", .title = "Precision", .json_key = "precision",
                                      .follows_params = true, .update = precision_local::update,
                                      .export_data = precision_local::export_data, .caption = precision_local::caption,
                                      .settings = precision_local::kSettings, .read_extra = precision_local::read_extra,
                                      .write_extra = precision_local::write_extra, .extra_keys = kRopeModelKeys, .check = precision_local::check,
                                      .take_rope_model = precision_local::take_model,
                                      .follows_rope_model = precision_local::follows_model};

}  // namespace peviz::app
