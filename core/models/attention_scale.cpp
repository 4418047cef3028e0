// Each method's logit scale against position, the needle's weight, and a model's own scale per group of layers
// (core/models/attention_scale.hpp states the formulas and their sources).
#include "core/models/attention_scale.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/errors.hpp"
#include "core/models/rope_test_vectors.hpp"

namespace peviz {

namespace {

struct MethodRow {
  ScaleMethod method;
  std::string_view name, display;
};
constexpr MethodRow kMethodRows[] = {{ScaleMethod::none, "none", "none"},
                                     {ScaleMethod::ssmax, "ssmax", "SSMax"},
                                     {ScaleMethod::logn, "logn", "log-n"},
                                     {ScaleMethod::yarn, "yarn", "YaRN"},
                                     {ScaleMethod::llama4, "llama4", "Llama 4"}};

const MethodRow& method_row(ScaleMethod m) {
  for (const MethodRow& r : kMethodRows)
    if (r.method == m) return r;
  return kMethodRows[0];
}

nlohmann::json method_params_json(ScaleMethod m, const ScaleMethodParams& p) {
  switch (m) {
    case ScaleMethod::none: return nlohmann::json::object();
    case ScaleMethod::ssmax: return {{"s", p.ssmax_s}};
    case ScaleMethod::logn: return {{"train_length", p.train_length}};
    case ScaleMethod::yarn: return {{"factor", p.factor}};
    case ScaleMethod::llama4: return {{"attn_scale", p.attn_scale}, {"floor_scale", p.floor_scale}};
  }
  return nlohmann::json::object();
}

// logit_scale and needle_weight at every position, from a scale function of the position.
template <class Scale>
void fill_curves(nlohmann::json& j, std::span<const long long> positions, double margin, double spread, Scale scale) {
  std::vector<double> logit_scale, weight;
  for (long long p : positions) {
    const double c = scale(double(p));
    logit_scale.push_back(c);
    weight.push_back(needle_weight(c, margin, spread, double(p) + 1));
  }
  j["logit_scale"] = logit_scale;
  j["needle_weight"] = weight;
}

void check_needle(double margin, double spread) {
  check_real(limits::needle_margin, margin);
  check_real(limits::needle_spread, spread);
}

}  // namespace

std::string_view to_string(ScaleMethod m) { return method_row(m).name; }
std::string_view display_name(ScaleMethod m) { return method_row(m).display; }

ScaleMethod parse_scale_method(std::string_view name) {
  std::string names;
  for (const MethodRow& r : kMethodRows) {
    if (r.name == name) return r.method;
    names += (names.empty() ? "" : ", ") + std::string(r.name);
  }
  throw ParamError("method", "must be one of " + names + ", got '" + std::string(name) + "'");
}

void validate(const ScaleMethodParams& p) {
  check_real(limits::ssmax_s, p.ssmax_s);
  check_real(limits::train_length, p.train_length);
  check_real(limits::factor, p.factor);
  check_real(limits::attn_scale, p.attn_scale);
  check_real(limits::floor_scale, p.floor_scale);
}

double logit_scale_at(ScaleMethod m, const ScaleMethodParams& p, double position) {
  const double n = position + 1;  // keys the query sees
  switch (m) {
    case ScaleMethod::none: return 1;
    case ScaleMethod::ssmax: return p.ssmax_s * std::log(n);
    case ScaleMethod::logn: return n > p.train_length ? std::log(n) / std::log(p.train_length) : 1;
    case ScaleMethod::yarn: {
      const double mscale = yarn_get_mscale(p.factor);
      return mscale * mscale;
    }
    case ScaleMethod::llama4: return query_scale_at({p.floor_scale, p.attn_scale}, position);
  }
  return 1;
}

double needle_weight(double c, double margin, double spread, double keys) {
  // 1 / (1 + (n - 1) e^x) with x = c^2 sigma^2 / 2 - c D, through the log so that no term overflows.
  if (keys <= 1) return 1;
  const double x = std::log(keys - 1) + c * c * spread * spread / 2 - c * margin;
  return x > 0 ? std::exp(-x) / (1 + std::exp(-x)) : 1 / (1 + std::exp(x));
}

std::vector<ScaleGroup> attention_scale_groups(const ModelConfig& c) {
  if (c.scheme != PositionScheme::rope)
    throw ParamError("config", "the model uses " + std::string(to_string(c.scheme)) +
                                   ", not RoPE: no length scale to read from it (its logits are unscaled: --method none)");
  const long long one_position = 0;
  const RopeTestVectors v = rope_test_vectors(c, std::span(&one_position, 1));
  std::vector<ScaleGroup> out;
  for (const RopeVectorGroup& rg : v.groups) {
    ScaleGroup g;
    g.layers = rg.layers;
    g.layer_type = rg.layer_type;
    g.rope = rg.rope;
    g.query_scaled = !rg.query_scale.empty();
    if (g.rope) {
      const LayerTypeRope& l = rope_of_layer(c, rg.layer_type);
      const ScaledRope scaled = rope_scaled_inv_freq(l.rope, l.scaling);
      g.rope_type = rg.rope_type;
      g.cos_sin_factor = scaled.attention_factor;
      // DeepseekV3Attention.__init__ (transformers models/deepseek_v3/modeling_deepseek_v3.py): with
      // mscale_all_dim, self.scaling *= get_mscale(factor, mscale_all_dim)^2, besides the factor on cos and sin.
      if (const double all_dim = l.scaling.mscale_all_dim.value_or(0); all_dim != 0) {
        const double m = yarn_get_mscale(l.scaling.factor.value_or(1), all_dim);
        g.softmax_factor = m * m;
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

double group_logit_scale_at(const ModelConfig& c, const ScaleGroup& g, double position) {
  const double query = g.query_scaled ? query_scale_at(c.query_scale, position) : 1;
  return g.cos_sin_factor * g.cos_sin_factor * g.softmax_factor * query;
}

std::vector<long long> default_scale_positions() {
  std::vector<long long> p = {0};
  for (long long x = 1; x <= (1 << 20); x *= 2) p.push_back(x);
  return p;
}

void check_scale_positions(std::span<const long long> positions) {
  if (positions.empty()) throw ParamError("positions", "must list at least one position");
  if (positions.size() > std::size_t(limits::scale_positions.max))
    throw ParamError("positions", "must list at most " + std::to_string(int(limits::scale_positions.max)) +
                                      " positions, got " + std::to_string(positions.size()));
  for (long long p : positions) check_int(limits::scale_position, p);
}

nlohmann::json attention_scale_json(std::span<const ScaleMethod> methods, const ScaleMethodParams& p,
                                    std::span<const long long> positions, double margin, double spread) {
  validate(p);
  check_scale_positions(positions);
  check_needle(margin, spread);
  nlohmann::json out = {{"positions", positions}, {"margin", margin}, {"spread", spread},
                        {"methods", nlohmann::json::array()}};
  for (ScaleMethod m : methods) {
    nlohmann::json j = {{"method", to_string(m)}, {"params", method_params_json(m, p)}};
    fill_curves(j, positions, margin, spread, [&](double pos) { return logit_scale_at(m, p, pos); });
    out["methods"].push_back(std::move(j));
  }
  return out;
}

nlohmann::json attention_scale_json(const ModelConfig& c, std::span<const long long> positions, double margin,
                                    double spread) {
  check_scale_positions(positions);
  check_needle(margin, spread);
  nlohmann::json out = {{"model", c.name}, {"model_type", c.model_type}, {"positions", positions},
                        {"margin", margin}, {"spread", spread}, {"groups", nlohmann::json::array()}};
  for (const ScaleGroup& g : attention_scale_groups(c)) {
    nlohmann::json j = {{"layers", g.layers}, {"layer_type", g.layer_type}, {"rope", g.rope},
                        {"rope_type", g.rope_type}};
    fill_curves(j, positions, margin, spread, [&](double pos) { return group_logit_scale_at(c, g, pos); });
    out["groups"].push_back(std::move(j));
  }
  return out;
}

}  // namespace peviz
