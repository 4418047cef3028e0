// The RoPE decay page: RoFormer's relative score and bound against distance (§3.4.3, Figure 2) for three bases.
#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"

namespace peviz::app {

namespace rope_decay_local {  // this page's own names (the pages share a unity batch)
namespace {

constexpr PageSetting kSettings[] = {
    {.key = "head_dim", .help = "Channels per attention head d (even)",
     .access = member<&PageStates::rope_decay, &RopeDecayOptions::head_dim>(), .limit = &limits::head_dim,
     .full_range = true, .shared_flag = true, .knob = true},
    {.key = "max_distance", .help = "The plots' relative distances 0..max",
     .access = member<&PageStates::rope_decay, &RopeDecayOptions::max_distance>(), .limit = &limits::decay_max_distance,
     .full_range = true},
    {.key = "models", .help = "Compare the shipped models' RoPE instead of three bases",
     .access = member<&PageStates::rope_decay, &RopeDecayOptions::models>()},
};

// Score / score(0) and the bound per r, from a decay table.
void decay_series(const Matrix& d, std::vector<float>& score, std::vector<float>& bound) {
  score.resize(d.rows);
  bound.resize(d.rows);
  for (std::size_t r = 0; r < d.rows; ++r) {
    score[r] = d.at(r, 1) / d.at(0, 1);
    bound[r] = d.at(r, 2);  // RoFormer's Figure 2 plots it as is
  }
}

void take_model(PageStates& a) {
  a.rope_decay.head_dim = single_rope(a.rope_model).head_dim;
  a.rope_decay.from_model = true;
}

// The flag, and head_dim still the model's (a knob moved on a page not updated since counts too).
bool follows_model(const PageStates& a) {
  return a.rope_decay.from_model && a.rope_decay.head_dim == single_rope(a.rope_model).head_dim;
}

void update_models(AppState& s) {
  RopeDecayOptions& o = s.pages.rope_decay;
  ContextExtensionOptions& ext = s.pages.context_extension;
  ensure_comparison(s.pages);
  o.model_names.clear();
  o.model_score.assign(ext.compared.size(), {});
  o.model_bound.assign(ext.compared.size(), {});
  for (std::size_t k = 0; k < ext.compared.size(); ++k) {
    const ComparedModel& c = ext.compared[k];
    const ModelRope r = model_rope(*c.model, c.layer_type);
    o.model_names.push_back(compared_name(c));
    decay_series(rope_decay(r.scaled.inv_freq, r.rope.head_dim, o.max_distance), o.model_score[k], o.model_bound[k]);
  }
}

void update(AppState& s) {
  RopeDecayOptions& o = s.pages.rope_decay;
  check_int(limits::decay_max_distance, o.max_distance);
  const RopeParams model = single_rope(s.pages.rope_model);
  o.from_model = follows_model(s.pages);  // the head_dim knob moved: custom from now on
  if (o.models) return update_models(s);
  for (std::size_t b = 0; b < 3; ++b) {
    RopeParams p;
    p.head_dim = o.head_dim;
    p.base = kDecayBases[b];
    decay_series(rope_decay(rope_inv_freq(p), p.head_dim, o.max_distance), o.score[b], o.bound[b]);
  }
  o.model_base_score.clear();
  o.model_base_bound.clear();
  o.model_label.clear();
  if (!o.from_model) return;
  decay_series(rope_decay(rope_inv_freq(model), model.head_dim, o.max_distance), o.model_base_score, o.model_base_bound);
  o.model_label = rope_model_label(s.pages.rope_model) + ", base " + caption_number(model.base);
}

// Columns: r, then score / score(0) and the relative upper bound per base 1e4, 5e5, 1e6 and the loaded model's base
// while the page follows it (or per compared model).
NdArray export_data(const AppState& s) {
  const RopeDecayOptions& o = s.pages.rope_decay;
  std::vector<std::vector<float>> cols(1);
  if (o.models) {
    if (o.model_score.empty()) throw ParamError("out", "no models compared yet");
    for (std::size_t r = 0; r < o.model_score[0].size(); ++r) cols[0].push_back(float(r));
    for (std::size_t k = 0; k < o.model_score.size(); ++k) {
      cols.push_back(o.model_score[k]);
      cols.push_back(o.model_bound[k]);
    }
    return data_columns(cols);
  }
  for (std::size_t r = 0; r < o.score[0].size(); ++r) cols[0].push_back(float(r));
  for (std::size_t b = 0; b < 3; ++b) {
    cols.push_back(o.score[b]);
    cols.push_back(o.bound[b]);
  }
  if (!o.model_base_score.empty()) {
    cols.push_back(o.model_base_score);
    cols.push_back(o.model_base_bound);
  }
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const RopeDecayOptions& o = s.pages.rope_decay;
  const std::string dot = kCaptionDot;
  if (o.models) {
    std::string text = "RoPE decay";
    for (const std::string& name : o.model_names) text += dot + name;
    return text + dot + "r \u2264 " + std::to_string(o.max_distance);
  }
  const bool follows = follows_model(s.pages);
  const std::string model_base =
      follows ? " and " + caption_number(single_rope(s.pages.rope_model).base) : std::string();
  return "RoPE decay" + dot + rope_model_caption(s.pages, follows) + "head_dim " + std::to_string(o.head_dim) +
         dot + "bases 1e4, 5e5, 1e6" + model_base + dot + "r \u2264 " + std::to_string(o.max_distance);
}

bool read_extra(const nlohmann::json& j, PageStates& a) {
  return read_model_knobs(j, a, knob_keys(kSettings), take_model, a.rope_decay.from_model);
}

void write_extra(const PageStates& a, nlohmann::json& j) { write_rope_model_json(j, a, follows_model(a)); }

void check(const PageStates& a) {
  RopeParams rope;
  rope.head_dim = a.rope_decay.head_dim;
  validate(rope);
}

}  // namespace
}  // namespace rope_decay_local

extern const PageModel rope_decay_page{.name = "rope-decay", .title = "RoPE decay", .json_key = "rope_decay",
                                       .update = rope_decay_local::update, .export_data = rope_decay_local::export_data,
                                       .caption = rope_decay_local::caption, .settings = rope_decay_local::kSettings,
                                       .read_extra = rope_decay_local::read_extra,
                                       .write_extra = rope_decay_local::write_extra, .extra_keys = kRopeModelKeys, .check = rope_decay_local::check,
                                       .take_rope_model = rope_decay_local::take_model,
                                       .follows_rope_model = rope_decay_local::follows_model,
                                       .parts = kRopeDecayParts};

}  // namespace peviz::app
