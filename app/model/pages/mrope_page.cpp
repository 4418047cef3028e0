// The multimodal RoPE page: get_rope_index's t, h, w ids of text + image + text, the score of an offset along each
// axis, and an image patch's scores with the others under M-RoPE and under 1D RoPE (core/models/mrope.hpp).
#include <algorithm>
#include <string>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/rope/rope.hpp"
#include "core/models/shipped_models.hpp"

namespace peviz::app {

std::vector<std::shared_ptr<const ModelConfig>> mrope_models(const PageStates& a) {
  std::vector<std::shared_ptr<const ModelConfig>> out;
  const ModelConfig& loaded = *a.rope_model.model;
  if (!loaded.pair_axis.empty() && !find_shipped_model(loaded.name)) out.push_back(a.rope_model.model);
  for (const auto& m : shipped_models())
    if (!m->pair_axis.empty()) out.push_back(m);
  return out;
}

bool mrope_keeps_own_model(const PageStates& a) {
  const LoadedRopeModel& loaded = a.rope_model;
  const bool chosen = !loaded.path.empty() || loaded.model != default_rope_model_preset().model;
  return chosen && loaded.model->pair_axis.empty();
}

namespace mrope_local {  // this page's own names (the pages share a unity batch)
namespace {

const ModelConfig& shown_model(MropeOptions& o) {
  if (!o.model) o.model = find_shipped_model(kDefaultMropeModel);
  return *o.model;
}

void take_model(PageStates& a) {
  if (!a.rope_model.model->pair_axis.empty()) a.mrope.model = a.rope_model.model;
}

bool follows_model(const PageStates& a) { return a.mrope.model == a.rope_model.model; }

void update_scores(MropeOptions& o, const ModelConfig& m) {
  const std::vector<double> f = rope_inv_freq(m.rope);
  for (RopeAxis a : {RopeAxis::t, RopeAxis::h, RopeAxis::w}) {
    const std::vector<double> score = mrope_axis_score(f, m.pair_axis, a, o.max_offset);
    o.axis_score[std::size_t(a)].assign(score.begin(), score.end());
    o.axis_pairs[std::size_t(a)] = int(std::count(m.pair_axis.begin(), m.pair_axis.end(), a));
  }
  o.pair_split = describe_pair_axis(m.pair_axis);
  o.patch_row = std::clamp(o.patch_row, 0, o.sequence.grid_h - 1);
  o.patch_col = std::clamp(o.patch_col, 0, o.sequence.grid_w - 1);
  o.patch_score = mrope_patch_scores(f, m.pair_axis, o.sequence, o.patch_row, o.patch_col, false);
  o.flat_score = mrope_patch_scores(f, m.pair_axis, o.sequence, o.patch_row, o.patch_col, true);
  // One scale for both: the lowest score of either up to 1 at the patch itself (a 1 x 1 image: [0, 1]).
  const auto low = [](const Matrix& s) { return double(*std::min_element(s.data.begin(), s.data.end())); };
  double lo = std::min(low(o.patch_score), low(o.flat_score));
  if (!(lo < 1.0)) lo = 0.0;
  set_heatmap(o.patch_image, o.patch_score, plot::Colormap::viridis, lo, 1.0);
  set_heatmap(o.flat_image, o.flat_score, plot::Colormap::viridis, lo, 1.0);
}

void update(AppState& s) {
  MropeOptions& o = s.pages.mrope;
  check_int(limits::mrope_max_offset, o.max_offset);
  const ModelConfig& m = shown_model(o);
  if (m.pair_axis.empty()) throw ParamError("config", m.name + " has no multimodal RoPE (no mrope_section)");
  const MropePositions p = mrope_position_ids(o.sequence);
  for (std::size_t a = 0; a < 3; ++a) o.ids[a].clear();
  for (std::size_t i = 0; i < p.t.size(); ++i) {
    o.ids[0].push_back(float(p.t[i]));
    o.ids[1].push_back(float(p.h[i]));
    o.ids[2].push_back(float(p.w[i]));
  }
  const float begin = float(o.sequence.text_before);
  o.image_begin_end = {begin, begin + float(o.sequence.grid_h * o.sequence.grid_w)};
  update_scores(o, m);
}

// Columns: token, t, h, w (get_rope_index's ids); then d and the t, h, w axis scores (NaN past the shorter column
// and for an axis without pairs).
NdArray export_data(const AppState& s) {
  const MropeOptions& o = s.pages.mrope;
  std::vector<std::vector<float>> cols(5);
  for (std::size_t i = 0; i < o.ids[0].size(); ++i) cols[0].push_back(float(i));
  for (std::size_t a = 0; a < 3; ++a) cols[1 + a] = o.ids[a];
  for (int d = 0; d <= o.max_offset; ++d) cols[4].push_back(float(d));
  for (std::size_t a = 0; a < 3; ++a) cols.push_back(o.axis_score[a]);
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const MropeOptions& o = s.pages.mrope;
  const MropeSequence& q = o.sequence;
  const std::string dot = kCaptionDot;
  return "Multimodal RoPE" + dot + (o.model ? o.model->name : std::string(kDefaultMropeModel)) + dot +
         std::to_string(q.text_before) + " text + " + std::to_string(q.grid_h) + " x " + std::to_string(q.grid_w) +
         " image + " + std::to_string(q.text_after) + " text" + dot + "patch (" + std::to_string(o.patch_row) + ", " +
         std::to_string(o.patch_col) + ")" + dot + "offsets to " + std::to_string(o.max_offset);
}

// The M-RoPE model: the loaded one (named as every RoPE page names it) or a shipped one by name.
// The keys read_extra reads besides the settings table's (PageModel::extra_keys).
inline constexpr const char* kExtraKeys[] = {"mrope_model"};

bool read_extra(const nlohmann::json& j, PageStates& a) {
  if (read_rope_model_json(j, a, {}) == RopeKnobSource::model) take_model(a);
  std::string name;
  read(j, "mrope_model", name);
  if (!name.empty()) {
    const std::shared_ptr<const ModelConfig> m = find_shipped_model(name);
    if (!m || m->pair_axis.empty()) throw ParamError("mrope_model", "names no shipped M-RoPE model: " + name);
    a.mrope.model = m;
  }
  return false;
}

void write_extra(const PageStates& a, nlohmann::json& j) {
  if (follows_model(a)) write_rope_model_json(j, a, true);
  else if (a.mrope.model) j["mrope_model"] = a.mrope.model->name;
}


void heatmaps(PageStates& a, std::vector<plot::HeatmapImage*>& out) {
  out.push_back(&a.mrope.patch_image);
  out.push_back(&a.mrope.flat_image);
}

}  // namespace

constexpr PageSetting kSettings[] = {
    {.key = "text_before", .help = "Text tokens before the image", .access = member<&PageStates::mrope, &MropeOptions::sequence, &MropeSequence::text_before>(),
     .limit = &limits::mrope_text_before, .full_range = true},
    {.key = "grid_h", .help = "The image's rows of tokens (after spatial merging)", .access = member<&PageStates::mrope, &MropeOptions::sequence, &MropeSequence::grid_h>(),
     .limit = &limits::mrope_grid_h, .full_range = true},
    {.key = "grid_w", .help = "The image's columns of tokens", .access = member<&PageStates::mrope, &MropeOptions::sequence, &MropeSequence::grid_w>(),
     .limit = &limits::mrope_grid_w, .full_range = true},
    {.key = "text_after", .help = "Text tokens after the image", .access = member<&PageStates::mrope, &MropeOptions::sequence, &MropeSequence::text_after>(),
     .limit = &limits::mrope_text_after, .full_range = true},
    {.key = "patch_row", .help = "The patch scored against the others: its row", .access = member<&PageStates::mrope, &MropeOptions::patch_row>(),
     .limit = &limits::mrope_patch_row, .full_range = true},
    {.key = "patch_col", .help = "The patch scored against the others: its column", .access = member<&PageStates::mrope, &MropeOptions::patch_col>(),
     .limit = &limits::mrope_patch_col, .full_range = true},
    {.key = "max_offset", .help = "The score plots' offsets 0..max", .access = member<&PageStates::mrope, &MropeOptions::max_offset>(),
     .limit = &limits::mrope_max_offset, .full_range = true},
};
}  // namespace mrope_local

extern const PageModel mrope_page{.name = "mrope", .title = "Multimodal RoPE", .json_key = "mrope",
                                  .update = mrope_local::update, .export_data = mrope_local::export_data,
                                  .caption = mrope_local::caption, .settings = mrope_local::kSettings,
                                  .read_extra = mrope_local::read_extra, .write_extra = mrope_local::write_extra, .extra_keys = mrope_local::kExtraKeys,
                                  .take_rope_model = mrope_local::take_model,
                                  .follows_rope_model = mrope_local::follows_model, .heatmaps = mrope_local::heatmaps};

}  // namespace peviz::app
