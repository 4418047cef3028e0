// The window's state <-> JSON, validated through core (session, PNG metadata, presets, lessons).
#include "app/model/state_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <string>

#include "app/model/analysis_update.hpp"
#include "core/alibi.hpp"
#include "core/errors.hpp"
#include "core/shaw.hpp"
#include "core/t5_buckets.hpp"

namespace peviz::app {

using nlohmann::json;

namespace {

std::string_view pairing_name(RopePairing p) { return p == RopePairing::halves ? "halves" : "interleaved"; }

RopePairing parse_pairing(const std::string& name) {
  if (name == "halves") return RopePairing::halves;
  if (name == "interleaved") return RopePairing::interleaved;
  throw ParamError("pairing", "must be halves or interleaved, got " + name);
}

// Reads key `k` of object `o` into `v` when present. Numbers are checked before converting:
// nlohmann's get<int>() of 1e300 is undefined behaviour (found by state_json_fuzz).
template <class T>
void read(const json& o, const char* k, T& v) {
  if (!o.is_object() || !o.contains(k)) return;
  const json& x = o.at(k);
  const auto wrong = [&] { return ParamError(k, "has the wrong type: " + x.dump()); };
  if constexpr (std::is_same_v<T, bool>) {
    if (!x.is_boolean()) throw wrong();
    v = x.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!x.is_number()) throw wrong();
    const double d = x.get<double>();
    if (!(d >= double(std::numeric_limits<T>::min()) && d <= double(std::numeric_limits<T>::max())) ||
        d != std::floor(d))
      throw ParamError(k, "must be an integer in the parameter's range, got " + x.dump());
    if (x.is_number_unsigned()) v = T(x.get<std::uint64_t>());
    else if (x.is_number_integer()) v = T(x.get<std::int64_t>());
    else v = T(d);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!x.is_number()) throw wrong();
    const double d = x.get<double>();
    if (!std::isfinite(d) || std::abs(d) > double(std::numeric_limits<T>::max()))
      throw ParamError(k, "must be a finite number, got " + x.dump());
    v = T(d);
  } else {
    if (!x.is_string()) throw wrong();
    v = x.get<T>();
  }
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

void check_range(const char* key, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi))
    throw ParamError(key, "must be in [" + number(lo) + ", " + number(hi) + "], got " + number(v));
}

const json& section(const json& j, const char* name) {
  static const json empty = json::object();
  if (!j.contains(name)) return empty;
  if (!j.at(name).is_object()) throw ParamError(name, "must be a JSON object");
  return j.at(name);
}

void apply_params(const json& p, EncodingParams& e) {
  std::string encoding(to_string(e.encoding)), layout(to_string(e.layout));
  read(p, "encoding", encoding);
  read(p, "layout", layout);
  const auto enc = parse_encoding(encoding);
  if (!enc) throw ParamError("encoding", "must be sinusoidal, learned, binary, normalized or integer, got " + encoding);
  const auto lay = parse_layout(layout);
  if (!lay) throw ParamError("layout", "must be interleaved or halves, got " + layout);
  e.encoding = *enc;
  e.layout = *lay;
  read(p, "d_model", e.d_model);
  read(p, "seq_len", e.seq_len);
  read(p, "base", e.base);
  read(p, "seed", e.seed);
  read(p, "max_len", e.max_len);
  read(p, "signed_bits", e.signed_bits);
  // A table from a file cannot come back from JSON: fall back to the random table of that size.
  if (p.contains("d_model") || p.contains("max_len")) {
    e.learned_table.reset();
    e.learned_source.clear();
  }
  validate(e);
  check_range("d_model", e.d_model, 1, kGuiMaxDModel);
  check_range("seq_len", e.seq_len, 1, kGuiMaxSeqLen);
  check_range("base", e.base, kGuiMinBase, kGuiMaxBase);
  check_range("max_len", e.max_len, 1, kGuiMaxSeqLen);
}

void apply_view(const json& v, AppState& s) {
  std::string theme = s.theme == Theme::light ? "light" : "dark";
  read(v, "theme", theme);
  if (theme != "light" && theme != "dark") throw ParamError("theme", "must be dark or light, got " + theme);
  s.theme = theme == "light" ? Theme::light : Theme::dark;
  read(v, "ui_zoom", s.ui_zoom);
  check_range("ui_zoom", s.ui_zoom, 0.5, 3.0);
  read(v, "sidebar_width", s.layout.sidebar_width);
  check_range("sidebar_width", s.layout.sidebar_width, 50, 4000);
  read(v, "split_x", s.layout.split_x);
  read(v, "split_y", s.layout.split_y);
  check_range("split_x", s.layout.split_x, 0.15, 0.85);
  check_range("split_y", s.layout.split_y, 0.15, 0.85);
  read(v, "highlight", s.highlight_position);
  s.highlight_position = std::clamp(s.highlight_position, 0, std::max(s.params.seq_len - 1, 0));
  read(v, "channels", s.waves.channels_text);
  read(v, "waves_first", s.waves.first_position);
  read(v, "waves_last", s.waves.last_position);
  s.waves.first_position = std::max(0, s.waves.first_position);
  s.waves.last_position = std::max(-1, s.waves.last_position);
  if (v.contains("waves_first") || v.contains("waves_last")) s.waves.range_changed = true;
  std::string metric(to_string(s.similarity_view.metric));
  read(v, "metric", metric);
  const auto m = parse_metric(metric);
  if (!m) throw ParamError("metric", "must be dot or cosine, got " + metric);
  s.similarity_view.metric = *m;
  read(v, "compare_offset", s.similarity_view.compare_offset);
  check_range("compare_offset", s.similarity_view.compare_offset, -512, 512);
  read(v, "encoding_colormap", s.encoding_view.colormap_choice);
  read(v, "similarity_colormap", s.similarity_view.colormap_choice);
  check_range("encoding_colormap", s.encoding_view.colormap_choice, 0, plot::kColormapCount);
  check_range("similarity_colormap", s.similarity_view.colormap_choice, 0, plot::kColormapCount);
  read(v, "binary_positions", s.binary_view.positions);
  check_range("binary_positions", s.binary_view.positions, 2, 256);
  read(v, "binary_morph", s.binary_view.morph);
  check_range("binary_morph", s.binary_view.morph, 0, 1);
}

void apply_rope(const json& o, RopeParams& r) {
  read(o, "head_dim", r.head_dim);
  read(o, "rotary_dim", r.rotary_dim);
  read(o, "base", r.base);
  std::string pairing(pairing_name(r.pairing));
  read(o, "pairing", pairing);
  r.pairing = parse_pairing(pairing);
  validate(r);
}

void apply_analysis(const json& j, AnalysisState& a) {
  const json& clocks = section(j, "rope_clocks");
  apply_rope(clocks, a.clocks.rope);
  read(clocks, "position", a.clocks.position);
  check_range("position", a.clocks.position, 0, 1e9);

  const json& decay = section(j, "rope_decay");
  read(decay, "head_dim", a.decay.head_dim);
  read(decay, "max_distance", a.decay.max_distance);
  RopeParams decay_rope;
  decay_rope.head_dim = a.decay.head_dim;
  validate(decay_rope);
  check_range("max_distance", a.decay.max_distance, 1, 100000);

  const json& ext = section(j, "context_extension");
  ContextExtensionParams& c = a.extension.params;
  apply_rope(ext, c.rope);
  read(ext, "factor", c.factor);
  read(ext, "original_len", c.original_len);
  read(ext, "target_len", c.target_len);
  read(ext, "beta_fast", c.beta_fast);
  read(ext, "beta_slow", c.beta_slow);
  read(ext, "low_freq_factor", c.low_freq_factor);
  read(ext, "high_freq_factor", c.high_freq_factor);
  read(ext, "preset", a.extension.preset);
  check_range("preset", a.extension.preset, -1, double(rope_model_presets().size()) - 1);
  compare_context_extensions(c);  // validates every knob together (factor, lengths, betas, llama3)

  const json& alibi = section(j, "alibi");
  read(alibi, "heads", a.alibi.heads);
  read(alibi, "seq_len", a.alibi.seq_len);
  read(alibi, "bidirectional", a.alibi.bidirectional);
  read(alibi, "head", a.alibi.head);
  check_range("heads", a.alibi.heads, 1, 64);
  validate_alibi_heads(a.alibi.heads);
  check_range("seq_len", a.alibi.seq_len, 1, 1024);
  a.alibi.head = std::clamp(a.alibi.head, 0, a.alibi.heads - 1);

  const json& ts = section(j, "t5_shaw");
  read(ts, "seq_len", a.t5_shaw.seq_len);
  read(ts, "num_buckets", a.t5_shaw.num_buckets);
  read(ts, "max_distance", a.t5_shaw.max_distance);
  read(ts, "causal", a.t5_shaw.causal);
  read(ts, "max_relative", a.t5_shaw.max_relative);
  check_range("seq_len", a.t5_shaw.seq_len, 1, 1024);
  T5BucketParams t5;
  t5.query_len = t5.key_len = a.t5_shaw.seq_len;
  t5.num_buckets = a.t5_shaw.num_buckets;
  t5.max_distance = a.t5_shaw.max_distance;
  t5.bidirectional = !a.t5_shaw.causal;
  validate(t5);
  ShawParams shaw;
  shaw.query_len = shaw.key_len = a.t5_shaw.seq_len;
  shaw.max_relative = a.t5_shaw.max_relative;
  validate(shaw);

  const json& dist = section(j, "distance");
  DistanceSeriesParams& d = a.distance.params;
  read(dist, "seq_len", d.seq_len);
  read(dist, "d_model", d.d_model);
  read(dist, "sinusoid_base", d.sinusoid_base);
  read(dist, "rope_head_dim", d.rope.head_dim);
  read(dist, "rope_base", d.rope.base);
  read(dist, "heads", d.heads);
  read(dist, "causal", d.causal);
  read(dist, "num_buckets", d.num_buckets);
  read(dist, "max_distance", d.max_distance);
  read(dist, "max_relative", d.max_relative);
  check_range("seq_len", d.seq_len, 1, kGuiMaxSeqLen);
  check_range("d_model", d.d_model, 1, kGuiMaxDModel);
  check_range("sinusoid_base", d.sinusoid_base, kGuiMinBase, kGuiMaxBase);
  validate(d.rope);
  check_range("heads", d.heads, 1, 64);
  if (dist.contains("heads")) a.distance.shown.clear();  // the series list changes: legend toggles reset

  const json& shift = section(j, "linear_shift");
  read(shift, "p", a.shift.p);
  read(shift, "k", a.shift.k);
  check_range("p", a.shift.p, 0, kGuiMaxSeqLen);
  check_range("k", a.shift.k, 0, kGuiMaxSeqLen);

  const json& crit = section(j, "criteria");
  read(crit, "length_a", a.criteria.length_a);
  read(crit, "length_b", a.criteria.length_b);
  check_range("length_a", a.criteria.length_a, 2, 8192);
  check_range("length_b", a.criteria.length_b, 2, 8192);

  const json& prec = section(j, "precision");
  read(prec, "use_rope", a.precision.use_rope);
  read(prec, "head_dim", a.precision.head_dim);
  read(prec, "base", a.precision.base);
  read(prec, "max_position_log2", a.precision.max_position_log2);
  RopeParams prec_rope;
  prec_rope.head_dim = a.precision.head_dim;
  prec_rope.base = a.precision.base;
  validate(prec_rope);
  check_range("max_position_log2", a.precision.max_position_log2, 1, 30);
}

}  // namespace

json state_to_json(const AppState& s) {
  const EncodingParams& e = s.params;
  const AnalysisState& a = s.analysis;
  json j;
  j["params"] = {{"encoding", std::string(to_string(e.encoding))}, {"layout", std::string(to_string(e.layout))},
                 {"d_model", e.d_model}, {"seq_len", e.seq_len}, {"base", e.base}, {"seed", e.seed},
                 {"max_len", e.max_len}, {"signed_bits", e.signed_bits}};
  if (e.learned_table) j["learned_file"] = a.learned.loaded_name;
  j["page"] = page_name(a.page);
  j["view"] = {{"theme", s.theme == Theme::light ? "light" : "dark"},
               {"ui_zoom", s.ui_zoom},
               {"sidebar_width", s.layout.sidebar_width},
               {"split_x", s.layout.split_x},
               {"split_y", s.layout.split_y},
               {"highlight", s.highlight_position},
               {"channels", s.waves.channels_text},
               {"waves_first", s.waves.first_position},
               {"waves_last", s.waves.last_position},
               {"metric", std::string(to_string(s.similarity_view.metric))},
               {"compare_offset", s.similarity_view.compare_offset},
               {"encoding_colormap", s.encoding_view.colormap_choice},
               {"similarity_colormap", s.similarity_view.colormap_choice},
               {"binary_positions", s.binary_view.positions},
               {"binary_morph", s.binary_view.morph}};
  const RopeParams& cr = a.clocks.rope;
  j["rope_clocks"] = {{"head_dim", cr.head_dim}, {"rotary_dim", cr.rotary_dim}, {"base", cr.base},
                      {"pairing", pairing_name(cr.pairing)}, {"position", a.clocks.position}};
  j["rope_decay"] = {{"head_dim", a.decay.head_dim}, {"max_distance", a.decay.max_distance}};
  const ContextExtensionParams& c = a.extension.params;
  j["context_extension"] = {{"head_dim", c.rope.head_dim}, {"rotary_dim", c.rope.rotary_dim},
                            {"base", c.rope.base}, {"pairing", pairing_name(c.rope.pairing)},
                            {"factor", c.factor}, {"original_len", c.original_len}, {"target_len", c.target_len},
                            {"beta_fast", c.beta_fast}, {"beta_slow", c.beta_slow},
                            {"low_freq_factor", c.low_freq_factor}, {"high_freq_factor", c.high_freq_factor},
                            {"preset", a.extension.preset}};
  j["alibi"] = {{"heads", a.alibi.heads}, {"seq_len", a.alibi.seq_len}, {"bidirectional", a.alibi.bidirectional},
                {"head", a.alibi.head}};
  j["t5_shaw"] = {{"seq_len", a.t5_shaw.seq_len}, {"num_buckets", a.t5_shaw.num_buckets},
                  {"max_distance", a.t5_shaw.max_distance}, {"causal", a.t5_shaw.causal},
                  {"max_relative", a.t5_shaw.max_relative}};
  const DistanceSeriesParams& d = a.distance.params;
  j["distance"] = {{"seq_len", d.seq_len}, {"d_model", d.d_model}, {"sinusoid_base", d.sinusoid_base},
                   {"rope_head_dim", d.rope.head_dim}, {"rope_base", d.rope.base}, {"heads", d.heads},
                   {"causal", d.causal}, {"num_buckets", d.num_buckets}, {"max_distance", d.max_distance},
                   {"max_relative", d.max_relative}};
  j["linear_shift"] = {{"p", a.shift.p}, {"k", a.shift.k}};
  j["criteria"] = {{"length_a", a.criteria.length_a}, {"length_b", a.criteria.length_b}};
  j["precision"] = {{"use_rope", a.precision.use_rope}, {"head_dim", a.precision.head_dim},
                    {"base", a.precision.base}, {"max_position_log2", a.precision.max_position_log2}};
  return j;
}

namespace {

// Applies `j` to the inputs of `s`; throws on the first bad key (leaving `s` partly changed).
void apply_inputs(const json& j, AppState& s) {
  if (!j.is_object()) throw ParamError("state", "must be a JSON object");
  apply_params(section(j, "params"), s.params);
  apply_view(section(j, "view"), s);
  if (j.contains("page")) {
    if (!j.at("page").is_string()) throw ParamError("page", "must be a page name");
    const auto p = parse_page(j.at("page").get<std::string>());
    if (!p) throw ParamError("page", "must be one of " + page_names() + ", got " + j.at("page").get<std::string>());
    s.analysis.page = *p;
  }
  apply_analysis(j, s.analysis);
}

}  // namespace

void apply_state_json(const json& j, AppState& s) {
  // Dry run on a copy of the inputs (not the big cached results): an error leaves `s` untouched.
  AppState trial;
  trial.params = s.params;
  trial.theme = s.theme;
  trial.ui_zoom = s.ui_zoom;
  trial.layout = s.layout;
  trial.highlight_position = s.highlight_position;
  trial.waves = s.waves;
  trial.similarity_view = s.similarity_view;
  trial.encoding_view = s.encoding_view;
  trial.binary_view = s.binary_view;
  trial.analysis = s.analysis;
  apply_inputs(j, trial);

  const Theme theme = s.theme;
  const float zoom = s.ui_zoom;
  apply_inputs(j, s);  // cannot fail now: same JSON, same starting values
  s.dirty = DirtyFlags{};  // everything recomputes: cheap next to loading a file, and always right
  s.analysis.dirty.fill(true);
  if (s.theme != theme || s.ui_zoom != zoom) s.fonts_dirty = true;
}

}  // namespace peviz::app
