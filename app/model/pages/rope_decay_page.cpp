// The RoPE decay page: RoFormer's relative score and bound against distance (§3.4.3, Figure 2) for three bases.
#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"

namespace peviz::app {

namespace {

void update(AppState& s) {
  RopeDecayOptions& o = s.analysis.rope_decay;
  check_int(limits::decay_max_distance, o.max_distance);
  for (std::size_t b = 0; b < 3; ++b) {
    RopeParams p;
    p.head_dim = o.head_dim;
    p.base = kDecayBases[b];
    const Matrix d = rope_decay(rope_inv_freq(p), p.head_dim, o.max_distance);
    o.score[b].resize(d.rows);
    o.bound[b].resize(d.rows);
    for (std::size_t r = 0; r < d.rows; ++r) {
      o.score[b][r] = d.at(r, 1) / d.at(0, 1);
      o.bound[b][r] = d.at(r, 2);  // RoFormer's Figure 2 plots it as is
    }
  }
}

// Columns: r, then score / score(0) and the relative upper bound per base 1e4, 5e5, 1e6.
NdArray export_data(const AppState& s) {
  const RopeDecayOptions& o = s.analysis.rope_decay;
  std::vector<std::vector<float>> cols(1);
  for (std::size_t r = 0; r < o.score[0].size(); ++r) cols[0].push_back(float(r));
  for (std::size_t b = 0; b < 3; ++b) {
    cols.push_back(o.score[b]);
    cols.push_back(o.bound[b]);
  }
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const RopeDecayOptions& o = s.analysis.rope_decay;
  const std::string dot = kCaptionDot;
  return "RoPE decay" + dot + "head_dim " + std::to_string(o.head_dim) + dot + "bases 1e4, 5e5, 1e6" + dot + "r \u2264 " +
         std::to_string(o.max_distance);
}

void read_json(const nlohmann::json& j, AnalysisState& a) {
  RopeDecayOptions& o = a.rope_decay;
  read(j, "head_dim", o.head_dim);
  read_limited(j, "max_distance", limits::decay_max_distance, o.max_distance);
  RopeParams rope;
  rope.head_dim = o.head_dim;
  validate(rope);
}

nlohmann::json write_json(const AnalysisState& a) {
  return {{"head_dim", a.rope_decay.head_dim}, {"max_distance", a.rope_decay.max_distance}};
}

}  // namespace

extern const PageModel rope_decay_page{.name = "rope-decay", .title = "RoPE decay", .json_key = "rope_decay",
                                       .update = update, .export_data = export_data, .caption = caption,
                                       .read_json = read_json, .write_json = write_json};

}  // namespace peviz::app
