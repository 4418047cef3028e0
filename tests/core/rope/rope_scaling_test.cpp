// Tests for core/rope/rope_scaling: HF's quoted inv_freq arrays and attention factors, and every validation rule.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/base/errors.hpp"
#include "tests/core/param_error.hpp"
#include "core/rope/rope_scaling.hpp"
#include "tests/core/rope/hf_rope_expected.hpp"

using namespace peviz;

namespace {
RopeScalingParams scaling(RopeScaling kind, double factor, int original = 2048) {
  RopeScalingParams s;
  s.kind = kind;
  s.factor = factor;
  if (kind != RopeScaling::linear && kind != RopeScaling::none) s.original_max_len = original;  // linear has none
  return s;
}

std::string error_of(const RopeParams& p, const RopeScalingParams& s) {
  return param_error_of([&] { validate(p, s); });
}

void check_close(const std::vector<double>& got, const double (&want)[64]) {
  REQUIRE(got.size() == 64);
  for (std::size_t j = 0; j < 64; ++j) {
    INFO("pair " << j);
    CHECK(got[j] == Approx(want[j]).epsilon(6e-5));
  }
}
}  // namespace

TEST_CASE("none returns the default frequencies with attention factor 1") {
  const ScaledRope r = rope_scaled_inv_freq(RopeParams{}, RopeScalingParams{});
  check_close(r.inv_freq, kHfDefaultInvFreq);
  CHECK(r.attention_factor == 1.0);
}

TEST_CASE("linear divides every frequency by the factor") {
  for (double f : {2.0, 10.0, 20.0}) {
    const ScaledRope r = rope_scaled_inv_freq(RopeParams{}, scaling(RopeScaling::linear, f));
    for (std::size_t j = 0; j < 64; ++j) CHECK(r.inv_freq[j] == Approx(kHfDefaultInvFreq[j] / f).epsilon(6e-5));
    CHECK(r.attention_factor == 1.0);
  }
}

TEST_CASE("dynamic NTK matches HF test_dynamic_rope_numerically and is inactive up to the original length") {
  RopeScalingParams s = scaling(RopeScaling::dynamic, 10.0);
  check_close(rope_scaled_inv_freq(RopeParams{}, s).inv_freq, kHfDefaultInvFreq);  // no seq_len
  s.seq_len = 1;
  check_close(rope_scaled_inv_freq(RopeParams{}, s).inv_freq, kHfDefaultInvFreq);
  s.seq_len = 2048;
  check_close(rope_scaled_inv_freq(RopeParams{}, s).inv_freq, kHfDefaultInvFreq);
  s.seq_len = 16384;
  const ScaledRope r = rope_scaled_inv_freq(RopeParams{}, s);
  check_close(r.inv_freq, kHfDynamicInvFreq);
  CHECK(r.attention_factor == 1.0);
  // --max-len stands in for the training context when --original-max-len is absent (HF config field).
  s.original_max_len.reset();
  s.max_len = 2048;
  check_close(rope_scaled_inv_freq(RopeParams{}, s).inv_freq, kHfDynamicInvFreq);
}

TEST_CASE("yarn matches HF test_yarn_rope_numerically") {
  RopeScalingParams s = scaling(RopeScaling::yarn, 10.0);
  s.beta_fast = 32;
  s.beta_slow = 1;
  const ScaledRope r = rope_scaled_inv_freq(RopeParams{}, s);
  check_close(r.inv_freq, kHfYarnInvFreq);
  // The ramp runs from floor(16.1) = 16 to ceil(40.2) = 41.
  REQUIRE(r.yarn_ramp.size() > 41);
  CHECK(r.yarn_ramp[16] == 0.0);
  CHECK(r.yarn_ramp[17] == Approx(1.0 / 25.0));
  CHECK(r.yarn_ramp[41] == 1.0);
  CHECK(yarn_correction_dim(32, 128, 10000, 2048) == Approx(16.1).margin(0.05));
  CHECK(yarn_correction_dim(1, 128, 10000, 2048) == Approx(40.2).margin(0.05));
}

TEST_CASE("yarn attention factor: derived, given, and DeepSeek's mscale pair") {
  for (double f : {2.0, 10.0, 20.0}) {
    RopeScalingParams s = scaling(RopeScaling::yarn, f);
    CHECK(rope_scaled_inv_freq(RopeParams{}, s).attention_factor == Approx(0.1 * std::log(f) + 1.0));
    s.attention_factor = 0.5;
    CHECK(rope_scaled_inv_freq(RopeParams{}, s).attention_factor == 0.5);
  }
  RopeScalingParams s = scaling(RopeScaling::yarn, 40.0, 4096);  // DeepSeek-V3: mscale = mscale_all_dim = 1
  s.mscale = 1.0;
  s.mscale_all_dim = 1.0;
  CHECK(rope_scaled_inv_freq(RopeParams{}, s).attention_factor == Approx(1.0));
  s.mscale = 0.707;  // DeepSeek-V2 style
  CHECK(rope_scaled_inv_freq(RopeParams{}, s).attention_factor ==
        Approx((0.1 * 0.707 * std::log(40.0) + 1) / (0.1 * std::log(40.0) + 1)));
  s.mscale_all_dim = 0.0;  // `if mscale and mscale_all_dim` is false: the plain get_mscale(factor)
  CHECK(rope_scaled_inv_freq(RopeParams{}, s).attention_factor == Approx(0.1 * std::log(40.0) + 1.0));
}

TEST_CASE("yarn: large beta_fast interpolates all but the first pair; factor from max-len; no truncation") {
  RopeScalingParams s = scaling(RopeScaling::yarn, 10.0);
  s.beta_fast = 1000;
  const ScaledRope r = rope_scaled_inv_freq(RopeParams{}, s);
  REQUIRE(r.inv_freq.size() > 0);
  CHECK(r.inv_freq[0] == Approx(kHfDefaultInvFreq[0]).epsilon(6e-5));
  for (std::size_t j = 1; j < 64; ++j) CHECK(r.inv_freq[j] < kHfDefaultInvFreq[j] * (1 + 6e-5));
  for (std::size_t j = 44; j < 64; ++j) CHECK(r.inv_freq[j] == Approx(kHfDefaultInvFreq[j] / 10).epsilon(6e-5));

  RopeScalingParams d;
  d.kind = RopeScaling::yarn;
  d.max_len = 20480;
  d.original_max_len = 2048;
  const ScaledRope derived = rope_scaled_inv_freq(RopeParams{}, d);
  CHECK(derived.factor == 10.0);
  check_close(derived.inv_freq, kHfYarnInvFreq);

  RopeScalingParams t = scaling(RopeScaling::yarn, 10.0);
  t.truncate = false;
  const ScaledRope u = rope_scaled_inv_freq(RopeParams{}, t);
  const double low = yarn_correction_dim(32, 128, 10000, 2048), high = yarn_correction_dim(1, 128, 10000, 2048);
  REQUIRE(u.yarn_ramp.size() > 17);
  CHECK(u.yarn_ramp[17] == Approx((17 - low) / (high - low)));
  CHECK(u.yarn_ramp[16] == 0.0);  // 16 < low = 16.1
}

TEST_CASE("llama3 matches HF test_llama3_rope_numerically") {
  RopeScalingParams s = scaling(RopeScaling::llama3, 10.0);
  s.low_freq_factor = 1;
  s.high_freq_factor = 4;
  const ScaledRope r = rope_scaled_inv_freq(RopeParams{}, s);
  check_close(r.inv_freq, kHfLlama3InvFreq);
  CHECK(r.attention_factor == 1.0);
  s.high_freq_factor = 1000;  // nothing is high-frequency any more: every pair is scaled down
  const ScaledRope all = rope_scaled_inv_freq(RopeParams{}, s);
  for (std::size_t j = 0; j < 64; ++j) CHECK(all.inv_freq[j] < kHfDefaultInvFreq[j] * (1 - 1e-4));
}

TEST_CASE("longrope: short below the original length, long above, attention factor") {
  RopeScalingParams s = scaling(RopeScaling::longrope, 10.0);
  s.short_factor.assign(64, 2.0);
  for (int j = 0; j < 64; ++j) s.long_factor.push_back(j + 1.0);
  ScaledRope r = rope_scaled_inv_freq(RopeParams{}, s);
  for (std::size_t j = 0; j < 64; ++j) CHECK(r.inv_freq[j] == Approx(kHfDefaultInvFreq[j] / 2).epsilon(6e-5));
  CHECK(r.attention_factor == Approx(std::sqrt(1 + std::log(10.0) / std::log(2048.0))));
  s.seq_len = 2049;
  r = rope_scaled_inv_freq(RopeParams{}, s);
  for (std::size_t j = 0; j < 64; ++j) CHECK(r.inv_freq[j] == Approx(kHfDefaultInvFreq[j] / (j + 1.0)).epsilon(6e-5));
  s.attention_factor = 0.5;
  CHECK(rope_scaled_inv_freq(RopeParams{}, s).attention_factor == 0.5);
  // Phi-3 style: factor = max_position_embeddings / original = 131072 / 4096 = 32.
  s.attention_factor.reset();
  s.factor.reset();
  s.original_max_len = 4096;
  s.max_len = 131072;
  r = rope_scaled_inv_freq(RopeParams{}, s);
  CHECK(r.factor == 32.0);
  CHECK(r.attention_factor == Approx(std::sqrt(1 + std::log(32.0) / std::log(4096.0))));
  s.max_len = 4096;  // factor 1: attention factor 1
  CHECK(rope_scaled_inv_freq(RopeParams{}, s).attention_factor == 1.0);
}

TEST_CASE("partial rotary: scalings work on the rotary dimension") {
  RopeParams p;
  p.rotary_dim = 32;
  const ScaledRope r = rope_scaled_inv_freq(p, scaling(RopeScaling::linear, 4.0));
  REQUIRE(r.inv_freq.size() == 16);
  CHECK(r.inv_freq[1] == Approx(std::pow(10000.0, -2.0 / 32) / 4));
}

TEST_CASE("invalid scaling parameters name their flag") {
  const RopeParams p;
  RopeScalingParams s = scaling(RopeScaling::linear, 0.5);
  CHECK(error_of(p, s) == "factor: must be a finite number in [1, 1000000], got 0.5");
  s = scaling(RopeScaling::linear, 2.0);
  CHECK(error_of(p, s).empty());
  s.original_max_len = 2048;
  CHECK(error_of(p, s) == "original-max-len: only applies to --scaling dynamic|yarn|llama3|longrope, not linear");
  s.original_max_len.reset();
  s.beta_fast = 8;
  CHECK(error_of(p, s) == "beta-fast: only applies to --scaling yarn, not linear");
  s = {};
  s.kind = RopeScaling::linear;
  CHECK(error_of(p, s) == "factor: is required for --scaling linear");
  s = {};
  s.kind = RopeScaling::yarn;
  CHECK(error_of(p, s).rfind("factor: is required for --scaling yarn unless --max-len", 0) == 0);
  s.factor = 4;
  CHECK(error_of(p, s) == "original-max-len: is required for --scaling yarn (or give --max-len)");
  s.original_max_len = 4096;
  s.beta_fast = 1;
  s.beta_slow = 2;
  CHECK(error_of(p, s) == "beta-fast: must be greater than --beta-slow (2), got 1");
  s = scaling(RopeScaling::llama3, 8.0, 8192);
  s.low_freq_factor = 4;
  s.high_freq_factor = 4;
  CHECK(error_of(p, s) == "high-freq-factor: must be greater than --low-freq-factor (4), got 4");
  s = scaling(RopeScaling::longrope, 2.0);
  s.short_factor.assign(64, 1.0);
  CHECK(error_of(p, s) == "long-factor: is required for --scaling longrope");
  s.long_factor.assign(63, 1.0);
  CHECK(error_of(p, s) == "long-factor: must list rotary-dim/2 = 64 numbers, got 63");
  s.long_factor.assign(64, -1.0);
  CHECK(error_of(p, s) == "long-factor: every entry must be a finite number > 0, got -1");
  s = {};
  s.kind = RopeScaling::longrope;
  s.original_max_len = 4096;
  s.max_len = 2048;
  s.short_factor.assign(64, 1.0);
  s.long_factor.assign(64, 1.0);
  CHECK(error_of(p, s).rfind("max-len: must be >= --original-max-len (4096)", 0) == 0);
  RopeParams tiny;
  tiny.head_dim = 2;
  CHECK(error_of(tiny, scaling(RopeScaling::dynamic, 2.0)).rfind("head-dim: dynamic scaling needs", 0) == 0);
  s = scaling(RopeScaling::none, 2.0);
  CHECK(error_of(p, s) == "factor: only applies to --scaling linear|dynamic|yarn|llama3|longrope, not none");
  CHECK(parse_rope_scaling("yarn") == RopeScaling::yarn);
  CHECK(!parse_rope_scaling("ntk"));
}

TEST_CASE("scaling_reads is the table validate refuses by: a field alone is refused exactly where it is not read") {
  using F = ScalingField;
  const auto give = [](RopeScalingParams& s, F f) {
    switch (f) {
      case F::factor: s.factor = 2; break;
      case F::original_max_len: s.original_max_len = 2048; break;
      case F::max_len: s.max_len = 4096; break;
      case F::seq_len: s.seq_len = 100; break;
      case F::beta_fast: s.beta_fast = 32; break;
      case F::beta_slow: s.beta_slow = 1; break;
      case F::mscale: s.mscale = 1; break;
      case F::mscale_all_dim: s.mscale_all_dim = 1; break;
      case F::truncate: s.truncate = false; break;
      case F::attention_factor: s.attention_factor = 1; break;
      case F::low_freq_factor: s.low_freq_factor = 1; break;
      case F::high_freq_factor: s.high_freq_factor = 4; break;
      case F::short_factor: s.short_factor.assign(32, 1.0); break;
      case F::long_factor: s.long_factor.assign(32, 1.0); break;
    }
  };
  RopeParams p;
  p.head_dim = 64;
  int read = 0;
  for (int k = 0; k <= int(RopeScaling::longrope); ++k)
    for (int f = 0; f <= int(F::long_factor); ++f) {
      RopeScalingParams s;
      s.kind = RopeScaling(k);
      give(s, F(f));
      CAPTURE(to_string(s.kind), f, error_of(p, s));
      CHECK((error_of(p, s).find("only applies to --scaling") == std::string::npos) == scaling_reads(s.kind, F(f)));
      read += scaling_reads(s.kind, F(f));
    }
  // factor 5 scalings, the two contexts 4 each, seq_len 2, yarn's betas, mscales and truncate 5, attention 2,
  // llama3's factors 2, longrope's lists 2.
  CHECK(read == 5 + 4 + 4 + 2 + 5 + 2 + 2 + 2);
  CHECK_FALSE(scaling_reads(RopeScaling::linear, F::original_max_len));  // linear divides positions only
  CHECK(scaling_reads(RopeScaling::longrope, F::seq_len));                // short or long factors by length
}

TEST_CASE("the scaling table: enum order, names that parse back, config spellings, labels and the compared ones") {
  REQUIRE(rope_scaling_rows().size() == 6);
  for (std::size_t i = 0; i < rope_scaling_rows().size(); ++i) {
    const RopeScalingRow& row = rope_scaling_rows()[i];
    CHECK(row.kind == RopeScaling(i));
    CHECK(&rope_scaling_row(row.kind) == &row);
    CHECK(to_string(row.kind) == row.name);
    CHECK(parse_rope_scaling(row.name) == row.kind);
    CHECK(parse_rope_type(row.rope_type) == row.kind);
    if (!row.legacy_type.empty()) CHECK(parse_rope_type(row.legacy_type) == row.kind);
    CHECK_FALSE(row.label.empty());
    CHECK_FALSE(row.explanation.empty());
    CHECK(row.scale != nullptr);
  }
  CHECK(rope_scaling_names() == "none, linear, dynamic, yarn, llama3 or longrope");
  CHECK(rope_scaling_names(" | ", " | ") == "none | linear | dynamic | yarn | llama3 | longrope");
  CHECK(parse_rope_type("default") == RopeScaling::none);
  CHECK(parse_rope_type("mrope") == RopeScaling::none);  // Qwen2VLConfig's legacy type
  CHECK(parse_rope_type("su") == RopeScaling::longrope);  // older Phi-3 configs
  CHECK_FALSE(parse_rope_type("none"));
  CHECK_FALSE(parse_rope_scaling("default"));
  // The Context extension page draws every scaling but LongRoPE (its factors are per pair), each in its own colour.
  CHECK(compared_scalings() == std::vector<RopeScaling>{RopeScaling::none, RopeScaling::linear, RopeScaling::dynamic,
                                                        RopeScaling::yarn, RopeScaling::llama3});
  std::vector<int> colors;
  for (RopeScaling k : compared_scalings()) colors.push_back(rope_scaling_row(k).color);
  CHECK(colors == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(rope_scaling_row(RopeScaling::longrope).color == -1);
  CHECK(rope_scaling_row(RopeScaling::linear).label == "linear (PI)");
  // Help names the scalings that read a field, by label.
  CHECK(scaling_readers(ScalingField::beta_fast) == "YaRN");
  CHECK(scaling_readers(ScalingField::attention_factor) == "YaRN/LongRoPE");
  CHECK(scaling_readers(ScalingField::seq_len) == "dynamic NTK/LongRoPE");
  CHECK(scaling_readers(ScalingField::low_freq_factor) == "llama3");
}
