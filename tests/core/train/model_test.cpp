// The whole model's gradient, for each lab position encoding, against finite differences in double.
#include "core/train/model.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "gradient_check.hpp"

using namespace peviz::train;

namespace {

ModelConfig tiny_config(PositionEncoding pe) {
  ModelConfig c;
  c.vocab = 13;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 8;
  c.pe = pe;
  c.learned_len = 9;
  c.max_positions = 9;
  c.t5_buckets = 4;  // small enough that distances up to 8 reach the logarithmic buckets
  c.t5_max_distance = 6;
  return c;
}

// Encodings with sampled ids see ids in [0, 16): the tables grow to 16 rows and the batch carries such ids.
constexpr int kTinyRange = 16;

ModelConfig tiny_config_for(PositionEncoding pe) {
  ModelConfig c = tiny_config(pe);
  if (sampler_of(pe) != PositionSampler::contiguous) c.position_range = kTinyRange;
  return c;
}

PackedBatch tiny_batch(PositionEncoding pe = PositionEncoding::rope) {
  PackedBatch b;
  std::mt19937_64 rng(5);
  const PositionSampler s = sampler_of(pe);
  b.append({10, 3, 1, 4, 11, 3, 1, 4, 12}, 4, training_positions(s, Task::copy, 3, kTinyRange, rng));
  b.append({10, 7, 5, 11, 5, 7, 12}, 3, training_positions(s, Task::reverse, 2, kTinyRange, rng));
  return b;
}

}  // namespace

TEST_CASE("whole-model gradient matches finite differences for every encoding", "[train][model]") {
  for (PositionEncoding pe : kAllPositionEncodings) {
    INFO(to_string(pe));
    const ModelConfig c = tiny_config_for(pe);
    const PackedBatch b = tiny_batch(pe);
    if (sampler_of(pe) != PositionSampler::contiguous)  // the ids really are not 0..L-1
      CHECK(b.positions != std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6});
    Model<double> m = make_model<double>(c, b.n_tokens(), std::size_t(attention_offsets(b, c.heads).back()), 7);
    // Larger weights than GPT-2's 0.02 so every path (biases, position terms) carries a visible gradient.
    for (std::size_t i = 0; i < m.params.size(); ++i) m.params[i] += 0.3 * std::sin(double(i) * 1.7);
    model_forward(m, b);
    model_backward(m, b);
    const std::vector<double> analytic = m.grads;
    check_gradient(m.params, analytic, [&] { return model_forward(m, b); });
    std::vector<Param> position_params;  // the position parameters really are trained
    if (mechanism_of(pe) == PositionMechanism::trainable_bias) position_params = {Param::t5_bias};
    if (mechanism_of(pe) == PositionMechanism::trainable_table) position_params = {Param::wpe};
    if (mechanism_of(pe) == PositionMechanism::interpolated_bias)
      position_params = {Param::fire_w1, Param::fire_b1, Param::fire_w2, Param::fire_c, Param::fire_threshold};
    for (Param p : position_params) {
      INFO(param_name(p));
      double norm = 0;
      for (std::size_t i = m.layout.offset[int(p)]; i < m.layout.offset[int(p) + 1]; ++i) norm += std::abs(analytic[i]);
      // FIRE's threshold L only moves the scores of queries whose id is below it: with randomized ids (rand-fire)
      // few of the tiny batch's are, so its gradient is small, yet not zero.
      const bool few_below_threshold = p == Param::fire_threshold && sampler_of(pe) == PositionSampler::randomized;
      CHECK(norm > (few_below_threshold ? 1e-8 : 1e-6));
    }
  }
}

TEST_CASE("whole-model gradient matches finite differences with dropout on (a fixed step's masks)", "[train][model]") {
  for (PositionEncoding pe : kAllPositionEncodings) {
    INFO(to_string(pe));
    const ModelConfig c = tiny_config_for(pe);
    const PackedBatch b = tiny_batch(pe);
    Model<double> m = make_model<double>(c, b.n_tokens(), std::size_t(attention_offsets(b, c.heads).back()), 7);
    for (std::size_t i = 0; i < m.params.size(); ++i) m.params[i] += 0.3 * std::sin(double(i) * 1.7);
    const double plain = model_forward(m, b);
    m.dropout = training_dropout(0.3, 11, 2);
    const double dropped = model_forward(m, b);
    CHECK(dropped != plain);
    CHECK(model_forward(m, b) == dropped);  // the same step: the same masks
    model_backward(m, b);
    const std::vector<double> analytic = m.grads;
    check_gradient(m.params, analytic, [&] { return model_forward(m, b); });
    m.dropout = {};
    CHECK(model_forward(m, b) == plain);
  }
}

TEST_CASE("whole-model gradient matches finite differences with SSMax and log-n on every encoding", "[train][model]") {
  // learned_len 4: the tiny batch's sequences (9 and 7 tokens) pass it, so log-n scales their later rows.
  for (LengthScale scale : {LengthScale::ssmax, LengthScale::logn})
    for (PositionEncoding pe : {PositionEncoding::nope, PositionEncoding::rope, PositionEncoding::alibi,
                                PositionEncoding::t5, PositionEncoding::fire}) {
      INFO(to_string(scale) << " " << to_string(pe));
      ModelConfig c = tiny_config_for(pe);
      c.length_scale = scale;
      c.learned_len = 4;
      const PackedBatch b = tiny_batch(pe);
      Model<double> m = make_model<double>(c, b.n_tokens(), std::size_t(attention_offsets(b, c.heads).back()), 7);
      if (scale == LengthScale::ssmax) {
        REQUIRE(m.layout.size(Param::ssmax_s) == 4);  // layers x heads
        CHECK(m.param(Param::ssmax_s)[3] == Approx(1 / std::log(double(c.learned_len))));
      }
      for (std::size_t i = 0; i < m.params.size(); ++i) m.params[i] += 0.3 * std::sin(double(i) * 1.7);
      const double scaled = model_forward(m, b);
      model_backward(m, b);
      const std::vector<double> analytic = m.grads;
      check_gradient(m.params, analytic, [&] { return model_forward(m, b); });
      if (scale == LengthScale::ssmax) {  // s really is trained
        double norm = 0;
        for (std::size_t i = m.layout.offset[int(Param::ssmax_s)]; i < m.layout.offset[int(Param::ssmax_s) + 1]; ++i)
          norm += std::abs(analytic[i]);
        CHECK(norm > 1e-6);
      }
      ModelConfig plain = c;  // the same weights without the scale give another loss
      plain.length_scale = LengthScale::none;
      Model<double> p = make_model<double>(plain, b.n_tokens(), std::size_t(attention_offsets(b, c.heads).back()), 7);
      for (std::size_t i = 0; i < p.params.size(); ++i) p.params[i] = m.params[i];
      CHECK(model_forward(p, b) != scaled);
    }
}

TEST_CASE("whole-model gradient matches finite differences with a layer schedule (NoPE every 2nd layer)", "[train][model]") {
  for (PositionEncoding pe : {PositionEncoding::rope, PositionEncoding::alibi, PositionEncoding::t5, PositionEncoding::fire}) {
    INFO(to_string(pe));
    ModelConfig c = tiny_config_for(pe);
    c.nope_every = 2;  // layer 1 of 2 without positions
    CHECK(c.positions_in_layer(0));
    CHECK_FALSE(c.positions_in_layer(1));
    const PackedBatch b = tiny_batch(pe);
    const std::size_t att = std::size_t(attention_offsets(b, c.heads).back());
    Model<double> m = make_model<double>(c, b.n_tokens(), att, 7);
    for (std::size_t i = 0; i < m.params.size(); ++i) m.params[i] += 0.3 * std::sin(double(i) * 1.7);
    const double scheduled = model_forward(m, b);
    model_backward(m, b);
    const std::vector<double> analytic = m.grads;
    check_gradient(m.params, analytic, [&] { return model_forward(m, b); });
    ModelConfig every = c;  // the same weights with positions in every layer give another loss
    every.nope_every = 0;
    Model<double> e = make_model<double>(every, b.n_tokens(), att, 7);
    e.params = m.params;
    CHECK(model_forward(e, b) != scheduled);
  }
}

TEST_CASE("DroPE's dropped positions: RoPE reads as rotation by 0, a bias as none", "[train][model]") {
  for (PositionEncoding pe : {PositionEncoding::rope, PositionEncoding::alibi}) {
    INFO(to_string(pe));
    ModelConfig c = tiny_config_for(pe);
    c.positions_dropped = true;
    CHECK_FALSE(c.positions_in_layer(0));
    const PackedBatch b = tiny_batch(pe);
    const std::size_t att = std::size_t(attention_offsets(b, c.heads).back());
    Model<double> m = make_model<double>(c, b.n_tokens(), att, 7);
    const double dropped = model_forward(m, b);
    ModelConfig nope = c;  // the same weights with no position at all
    nope.positions_dropped = false;
    nope.pe = PositionEncoding::nope;
    Model<double> n = make_model<double>(nope, b.n_tokens(), att, 7);
    n.params = m.params;
    CHECK(model_forward(n, b) == dropped);
  }
}

TEST_CASE("length scale names round-trip and the model without one has no s", "[train][model]") {
  for (LengthScale s : {LengthScale::none, LengthScale::ssmax, LengthScale::logn}) {
    LengthScale back = LengthScale::none;
    CHECK(parse_length_scale(to_string(s), back));
    CHECK(back == s);
  }
  LengthScale out;
  CHECK_FALSE(parse_length_scale("temperature", out));
  CHECK(param_layout(tiny_config(PositionEncoding::rope)).size(Param::ssmax_s) == 0);
}

TEST_CASE("float and double models agree on the loss", "[train][model]") {
  for (PositionEncoding pe : kAllPositionEncodings) {
    const ModelConfig c = tiny_config_for(pe);
    const PackedBatch b = tiny_batch(pe);
    const std::size_t att = std::size_t(attention_offsets(b, c.heads).back());
    Model<double> md = make_model<double>(c, b.n_tokens(), att, 3);
    Model<float> mf = make_model<float>(c, b.n_tokens(), att, 3);
    // First-order float bound (tests/twin/parity_test.py's chain_length, the forward half): gamma_N with N the float
    // operations from an input to the loss, per layer 10 d + 2 T + 1, then 3 d and the vocabulary's softmax, and
    // the mean over the tokens; any SIMD path's summation order stays within it.
    const int T = 9, N = c.layers * (10 * c.d_model + 2 * T + 1) + 3 * c.d_model + c.vocab + b.n_tokens();
    const double gamma = N * 0x1p-24 / (1 - N * 0x1p-24);
    CHECK(model_forward(mf, b) == Approx(model_forward(md, b)).epsilon(gamma));
  }
}

TEST_CASE("parameter count and layout", "[train][model]") {
  ModelConfig c;  // defaults: 13 tokens, 2 layers, d 64
  c.pe = PositionEncoding::rope;
  // wte 13*64 + 2 * (ln 128 + qkv 12480 + proj 4160 + ln 128 + fc 16640 + fcproj 16448) + lnf 128 + head 845
  CHECK(parameter_count(c) == 832 + 2 * 49984 + 128 + 845);
  c.pe = PositionEncoding::learned;
  CHECK(parameter_count(c) == 832 + 2 * 49984 + 128 + 845 + 43 * 64);
  c.pe = PositionEncoding::t5;
  CHECK(parameter_count(c) == 832 + 2 * 49984 + 128 + 845 + 2 * 32);
  c.pe = PositionEncoding::fire;  // w1 32, b1 32, w2 2 x 32, c, L
  CHECK(parameter_count(c) == 832 + 2 * 49984 + 128 + 845 + 32 + 32 + 64 + 2);
  CHECK(param_name(Param::wpe) == "wpe");
}

TEST_CASE("learned table has no rows beyond learned_len", "[train][model]") {
  ModelConfig c = tiny_config(PositionEncoding::learned);
  c.learned_len = 8;
  const PackedBatch b = tiny_batch();  // a 9-token sequence
  Model<float> m = make_model<float>(c, b.n_tokens(), std::size_t(attention_offsets(b, c.heads).back()), 1);
  CHECK_THROWS_AS(model_forward(m, b), std::invalid_argument);
}

TEST_CASE("sampled ids: every table has position_range rows, and an id at or past it is refused", "[train][model]") {
  for (PositionEncoding pe : fix_encodings()) {
    if (sampler_of(pe) == PositionSampler::contiguous) continue;  // FIRE reads 0..L-1
    INFO(to_string(pe));
    ModelConfig c = tiny_config_for(pe);
    CHECK(c.position_rows() == kTinyRange);
    if (mechanism_of(pe) == PositionMechanism::trainable_table)
      CHECK(param_layout(c).size(Param::wpe) == std::size_t(kTinyRange * c.d_model));
    PackedBatch b = tiny_batch(pe);
    Model<float> m = make_model<float>(c, b.n_tokens(), std::size_t(attention_offsets(b, c.heads).back()), 1);
    b.positions[3] = kTinyRange - 1;
    CHECK_NOTHROW(model_forward(m, b));
    b.positions[3] = kTinyRange;
    CHECK_THROWS_AS(model_forward(m, b), std::invalid_argument);
  }
}

TEST_CASE("token embedding at the scale of the position signal added to it", "[train][model]") {
  ModelConfig c;  // defaults: 13 x 64 token embedding
  auto wte = [&](PositionEncoding pe) {
    c.pe = pe;
    Model<float> m = make_model<float>(c, 1, 1, 5);
    return std::vector<float>(m.param(Param::wte), m.param(Param::wte) + m.layout.size(Param::wte));
  };
  auto rms = [](const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += double(x) * x;
    return std::sqrt(s / double(v.size()));
  };
  const std::vector<float> gpt2 = wte(PositionEncoding::rope), sinusoid = wte(PositionEncoding::sinusoidal);
  CHECK(rms(gpt2) == Approx(0.02).epsilon(0.1));               // 832 draws: within 10%
  CHECK(rms(sinusoid) == Approx(std::sqrt(0.5)).epsilon(0.1));  // the sinusoidal table's own RMS
  CHECK(wte(PositionEncoding::learned) == gpt2);               // GPT-2: 0.02 beside the N(0, 0.02^2) table
  double worst = 0;  // the same draws, scaled
  for (std::size_t i = 0; i < gpt2.size(); ++i)
    worst = std::max(worst, std::abs(sinusoid[i] - gpt2[i] * std::sqrt(0.5) / 0.02) / std::abs(sinusoid[i]));
  CHECK(worst < 1e-6);
}

TEST_CASE("the lab encoding table: enum order, names that parse back, one mechanism each", "[train][model]") {
  REQUIRE(kAllPositionEncodings.size() == std::size(kLabEncodings));
  for (std::size_t i = 0; i < kAllPositionEncodings.size(); ++i) {
    const LabEncodingInfo& info = kLabEncodings[i];
    CHECK(info.id == PositionEncoding(i));
    CHECK(to_string(info.id) == info.name);
    PositionEncoding parsed = PositionEncoding::nope;
    CHECK(parse_position_encoding(info.name, parsed));
    CHECK(parsed == info.id);
    // A fixed table or fixed slopes come with the function that makes them, and nothing else does.
    CHECK((info.table != nullptr) == (info.mechanism == PositionMechanism::added_table));
    CHECK((info.slopes != nullptr) == (info.mechanism == PositionMechanism::fixed_bias));
  }
  CHECK(lab_encoding_names() == "nope, sinusoidal, learned, rope, alibi, t5, rand-sinusoidal, rand-learned, rand-rope, coupled, coupled-rope, fire, rand-fire, abacus, random-start");
  CHECK(lab_encoding_names(" | ").starts_with("nope | sinusoidal | learned | rope | alibi | t5 | rand-sinusoidal"));
  std::vector<PositionEncoding> group;
  CHECK(parse_encoding_group("all", group));
  CHECK(group == std::vector<PositionEncoding>{PositionEncoding::nope, PositionEncoding::sinusoidal, PositionEncoding::learned,
                                               PositionEncoding::rope, PositionEncoding::alibi, PositionEncoding::t5});
  CHECK(parse_encoding_group("fixes", group));
  CHECK(group == std::vector<PositionEncoding>{PositionEncoding::rand_sinusoidal, PositionEncoding::rand_learned,
                                               PositionEncoding::rand_rope, PositionEncoding::coupled,
                                               PositionEncoding::coupled_rope, PositionEncoding::fire,
                                               PositionEncoding::rand_fire, PositionEncoding::abacus,
                                               PositionEncoding::random_start});
  CHECK_FALSE(parse_encoding_group("rope", group));
  // A fix is a classic mechanism with sampled ids, or FIRE's new mechanism; a classic encoding reads 0..L-1.
  for (const LabEncodingInfo& info : kLabEncodings)
    CHECK(info.classic == (info.positions == PositionSampler::contiguous &&
                           info.mechanism != PositionMechanism::interpolated_bias));
  PositionEncoding unknown = PositionEncoding::rope;
  CHECK_FALSE(parse_position_encoding("NoPE", unknown));
  CHECK(unknown == PositionEncoding::rope);
}

TEST_CASE("mechanism_encoding: the first encoding whose model an encoding shares", "[train][model]") {
  CHECK(mechanism_encoding(PositionEncoding::rand_rope) == PositionEncoding::rope);
  CHECK(mechanism_encoding(PositionEncoding::coupled_rope) == PositionEncoding::rope);
  CHECK(mechanism_encoding(PositionEncoding::coupled) == PositionEncoding::learned);
  CHECK(mechanism_encoding(PositionEncoding::rand_sinusoidal) == PositionEncoding::sinusoidal);
  CHECK(mechanism_encoding(PositionEncoding::fire) == PositionEncoding::fire);
  CHECK(mechanism_encoding(PositionEncoding::rand_fire) == PositionEncoding::fire);
  CHECK(mechanism_encoding(PositionEncoding::abacus) == PositionEncoding::learned);
  CHECK(mechanism_encoding(PositionEncoding::random_start) == PositionEncoding::learned);
  for (const LabEncodingInfo& info : kLabEncodings) {
    const LabEncodingInfo& shared = lab_encoding_info(mechanism_encoding(info.id));
    CHECK(shared.mechanism == info.mechanism);
    CHECK(mechanism_encoding(shared.id) == shared.id);
    if (info.classic) CHECK(shared.id == info.id);  // the classic six are six models
  }
}

TEST_CASE("each mechanism sizes only its own tensors", "[train][model]") {
  ModelConfig c;
  for (const LabEncodingInfo& info : kLabEncodings) {
    c.pe = info.id;
    const ParamLayout layout = param_layout(c);
    CHECK((layout.size(Param::wpe) > 0) == (info.mechanism == PositionMechanism::trainable_table));
    CHECK((layout.size(Param::t5_bias) > 0) == (info.mechanism == PositionMechanism::trainable_bias));
    if (info.mechanism == PositionMechanism::trainable_table) CHECK(layout.size(Param::wpe) == std::size_t(c.learned_len * c.d_model));
    if (info.mechanism == PositionMechanism::trainable_bias) CHECK(layout.size(Param::t5_bias) == std::size_t(c.heads * c.t5_buckets));
    const bool fire = info.mechanism == PositionMechanism::interpolated_bias;
    CHECK(layout.size(Param::fire_w2) == (fire ? std::size_t(c.heads * 32) : 0));
    CHECK(layout.size(Param::fire_threshold) == (fire ? 1u : 0u));
  }
}
