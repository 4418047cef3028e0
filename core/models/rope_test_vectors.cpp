// Reference RoPE test vectors per group of layers (core/models/rope_test_vectors.hpp states the conventions).
#include "core/models/rope_test_vectors.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/errors.hpp"
#include "core/io/safetensors.hpp"

namespace peviz {

namespace {

struct GroupKey {
  std::string layer_type;
  LayerPositions positions;
  bool query_scaled;
  bool operator==(const GroupKey&) const = default;
};

std::vector<float> score_vector(int head_dim, bool is_q) {
  std::vector<float> v(static_cast<std::size_t>(head_dim));
  for (int i = 0; i < head_dim; ++i) v[std::size_t(i)] = float(is_q ? i + 1 : head_dim - i) / float(head_dim);
  return v;
}

// The channels of pair j: (j, j + R/2) for halves, (2j, 2j + 1) for interleaved.
std::pair<int, int> pair_channels(RopePairing pairing, int rotary, int j) {
  return pairing == RopePairing::halves ? std::pair{j, j + rotary / 2} : std::pair{2 * j, 2 * j + 1};
}

void fill_rope(RopeVectorGroup& g, const LayerTypeRope& l, const RopeTestVectors& out) {
  RopeScalingParams s = l.scaling;
  if (scaling_reads(s.kind, ScalingField::seq_len)) s.seq_len = int(out.seq_len);
  const ScaledRope scaled = rope_scaled_inv_freq(l.rope, s);
  g.rotary_dim = rotary_dim(l.rope);
  g.pairing = l.rope.pairing;
  g.base = l.rope.base;
  g.factor = scaled.factor;
  g.rope_type = std::string(rope_scaling_row(s.kind).rope_type);
  g.attention_factor = float(scaled.attention_factor);
  for (double f : scaled.inv_freq) g.inv_freq.push_back(float(f));
  for (long long p : out.positions) {
    std::vector<float> c, sn;
    for (float f : g.inv_freq) {
      const float angle = float(p) * f;  // one float32 product, as the float32 matmul rounds it
      c.push_back(float(std::cos(double(angle))) * g.attention_factor);
      sn.push_back(float(std::sin(double(angle))) * g.attention_factor);
    }
    g.cos.push_back(std::move(c));
    g.sin.push_back(std::move(sn));
  }
}

// q' . k' with q at each of the n positions and k at position 0, from the group's own cos and sin (NoPE: q . k).
void fill_scores(RopeVectorGroup& g, std::size_t n) {
  const auto& q = g.q;
  const auto& k = g.k;
  const int pairs = g.rope ? g.rotary_dim / 2 : 0;
  double passthrough = 0;
  for (int i = 2 * pairs; i < g.head_dim; ++i) passthrough += double(q[std::size_t(i)]) * k[std::size_t(i)];
  for (std::size_t p = 0; p < n; ++p) {
    double rotated = 0;
    for (int j = 0; j < pairs; ++j) {
      const auto [a, b] = pair_channels(g.pairing, g.rotary_dim, j);
      const double qa = q[std::size_t(a)], qb = q[std::size_t(b)], ka = k[std::size_t(a)], kb = k[std::size_t(b)];
      rotated += double(g.cos[p][std::size_t(j)]) * (qa * ka + qb * kb) + double(g.sin[p][std::size_t(j)]) * (qa * kb - qb * ka);
    }
    g.scores.push_back((pairs ? double(g.attention_factor) * rotated : 0.0) + passthrough);
  }
}

void check_positions(std::span<const long long> positions) {
  if (positions.empty()) throw ParamError("positions", "must list at least one position");
  if (positions.size() > kMaxTestPositions)
    throw ParamError("positions", "must list at most " + std::to_string(kMaxTestPositions) + " positions, got " +
                                      std::to_string(positions.size()));
  for (long long p : positions) check_int(limits::rope_test_position, p);
}

RopeVectorGroup make_group(const ModelConfig& c, const GroupKey& key, const RopeTestVectors& out) {
  RopeVectorGroup g;
  g.layer_type = key.layer_type;
  g.rope = key.positions == LayerPositions::rope;
  g.attention = key.positions != LayerPositions::none;
  const LayerTypeRope& l = rope_of_layer(c, key.layer_type);
  g.head_dim = l.rope.head_dim;
  g.q = score_vector(g.head_dim, true);
  g.k = score_vector(g.head_dim, false);
  if (g.rope) {
    g.origins = l.origins;
    fill_rope(g, l, out);
  }
  if (g.attention) fill_scores(g, out.positions.size());
  if (key.query_scaled)
    for (long long p : out.positions) g.query_scale.push_back(query_scale_at(c.query_scale, double(p)));
  return g;
}

}  // namespace

const LayerTypeRope& rope_of_layer(const ModelConfig& c, const std::string& layer_type) {
  for (const LayerTypeRope& l : c.layer_types)
    if (l.layer_type == layer_type) return l;
  return layer_type_rope(c, "");
}

std::vector<long long> default_test_positions(const ModelConfig& c) {
  std::vector<long long> p = {0, 1, 2, 3};
  const long long end = c.max_position_embeddings > 0 ? c.max_position_embeddings : 1 << 17;
  for (long long x = 4; x < std::min(end, kMaxTestPosition); x *= 2) p.push_back(x);
  if (end - 1 > p.back() && end - 1 <= kMaxTestPosition) p.push_back(end - 1);
  return p;
}

RopeTestVectors rope_test_vectors(const ModelConfig& c, std::span<const long long> positions) {
  if (c.scheme != PositionScheme::rope)
    throw ParamError("config", "the model uses " + std::string(to_string(c.scheme)) + ", not RoPE: it has no rotary vectors");
  check_positions(positions);
  RopeTestVectors out;
  out.positions.assign(positions.begin(), positions.end());
  out.seq_len = *std::max_element(positions.begin(), positions.end()) + 1;
  std::vector<GroupKey> keys;
  const auto group_of = [&](const GroupKey& key) {
    const auto it = std::find(keys.begin(), keys.end(), key);
    if (it != keys.end()) return std::size_t(it - keys.begin());
    keys.push_back(key);
    out.groups.push_back(make_group(c, key, out));
    return keys.size() - 1;
  };
  if (c.layers.empty())
    for (const LayerTypeRope& l : c.layer_types) group_of({l.layer_type, LayerPositions::rope, false});
  for (std::size_t i = 0; i < c.layers.size(); ++i) {
    const ModelLayer& layer = c.layers[i];
    out.groups[group_of({layer.layer_type, layer.positions, layer.query_scaled})].layers.push_back(int(i));
  }
  return out;
}

namespace {

nlohmann::json origins_json(const std::vector<ValueOrigin>& origins) {
  nlohmann::json out = nlohmann::json::array();
  for (const ValueOrigin& o : origins) {
    const char* kind = o.origin == Origin::read ? "read" : o.origin == Origin::class_default ? "default" : "derived";
    out.push_back({{"value", o.value}, {"origin", kind}, {"source", o.source}});
  }
  return out;
}

// A group's keys other than its arrays.
nlohmann::json group_header(const RopeVectorGroup& g) {
  nlohmann::json j = {{"layers", g.layers}, {"layer_type", g.layer_type}, {"rope", g.rope}, {"head_dim", g.head_dim}};
  if (g.rope) {
    j["rotary_dim"] = g.rotary_dim;
    j["layout"] = to_string(g.pairing);
    j["rope_type"] = g.rope_type;
    j["attention_factor"] = g.attention_factor;
  }
  j["origins"] = origins_json(g.origins);
  return j;
}

nlohmann::json file_header(const ModelConfig& c, const RopeTestVectors& v) {
  return {{"model", c.name}, {"model_type", c.model_type}, {"positions", v.positions}, {"seq_len", v.seq_len},
          {"origins", origins_json(c.origins)}};
}

std::vector<float> flat(const std::vector<std::vector<float>>& rows) {
  std::vector<float> out;
  for (const auto& r : rows) out.insert(out.end(), r.begin(), r.end());
  return out;
}

std::vector<float> narrowed(const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); }

}  // namespace

nlohmann::json rope_test_vectors_json(const ModelConfig& c, const RopeTestVectors& v) {
  nlohmann::json j = file_header(c, v);
  nlohmann::json groups = nlohmann::json::array();
  for (const RopeVectorGroup& g : v.groups) {
    nlohmann::json one = group_header(g);
    if (g.rope) {
      one["inv_freq"] = g.inv_freq;
      one["cos"] = g.cos;
      one["sin"] = g.sin;
    }
    if (g.attention) {
      one["q"] = g.q;
      one["k"] = g.k;
      one["scores"] = g.scores;
    }
    if (!g.query_scale.empty()) one["query_scale"] = g.query_scale;
    groups.push_back(std::move(one));
  }
  j["groups"] = std::move(groups);
  return j;
}

std::string rope_test_vectors_safetensors(const ModelConfig& c, const RopeTestVectors& v) {
  std::vector<std::vector<float>> keep;  // the tensors' data, alive until the bytes are built
  std::vector<SafetensorsF32> tensors;
  const auto add = [&](std::string name, std::vector<std::uint64_t> shape, std::vector<float> data) {
    keep.push_back(std::move(data));
    tensors.push_back({std::move(name), std::move(shape), keep.back(), false});
  };
  keep.reserve(1 + 7 * v.groups.size());
  std::vector<float> positions(v.positions.begin(), v.positions.end());  // exact: every position is <= 2^24
  add("positions", {positions.size()}, positions);
  nlohmann::json headers = nlohmann::json::array();
  for (std::size_t i = 0; i < v.groups.size(); ++i) {
    const RopeVectorGroup& g = v.groups[i];
    const std::string prefix = "group" + std::to_string(i) + ".";
    const std::uint64_t n = v.positions.size(), pairs = g.inv_freq.size(), d = std::uint64_t(g.head_dim);
    if (g.rope) {
      add(prefix + "inv_freq", {pairs}, g.inv_freq);
      add(prefix + "cos", {n, pairs}, flat(g.cos));
      add(prefix + "sin", {n, pairs}, flat(g.sin));
    }
    if (g.attention) {
      add(prefix + "q", {d}, g.q);
      add(prefix + "k", {d}, g.k);
      add(prefix + "scores", {n}, narrowed(g.scores));
    }
    if (!g.query_scale.empty()) add(prefix + "query_scale", {n}, narrowed(g.query_scale));
    headers.push_back(group_header(g));
  }
  std::map<std::string, std::string> metadata;
  const nlohmann::json header = file_header(c, v);
  for (auto it = header.begin(); it != header.end(); ++it) metadata[it.key()] = it.value().dump();
  metadata["groups"] = headers.dump();
  return safetensors_bytes(tensors, metadata);
}

std::string layer_ranges(const std::vector<int>& layers) {
  std::string text;
  for (std::size_t i = 0; i < layers.size();) {
    std::size_t j = i;
    while (j + 1 < layers.size() && layers[j + 1] == layers[j] + 1) ++j;
    text += (text.empty() ? "" : ", ") + std::to_string(layers[i]);
    if (j > i) text += (j == i + 1 ? ", " : "-") + std::to_string(layers[j]);
    i = j + 1;
  }
  return text;
}

}  // namespace peviz
