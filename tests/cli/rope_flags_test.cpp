// `peviz export rope-* --config FILE [--layer-type T]` through the real binary: a model's RoPE, overridden by flags.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>

#include "config_json.hpp"
#include "core/rope/rope_scaling.hpp"
#include "tests/temp_path.hpp"

namespace fs = std::filesystem;

namespace {

// transformers' _compute_llama3_parameters, in double.
std::vector<double> llama3(double base, int dim, double factor, double low, double high, double old_len) {
  std::vector<double> f;
  for (int j = 0; j < dim / 2; ++j) {
    const double x = 1.0 / std::pow(base, 2.0 * j / dim);
    const double wavelen = 2 * std::numbers::pi / x;
    const double smooth = (old_len / wavelen - low) / (high - low);
    f.push_back(wavelen < old_len / high ? x : wavelen > old_len / low ? x / factor : (1 - smooth) * x / factor + smooth * x);
  }
  return f;
}

void check_relative(const nlohmann::json& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t j = 0; j < want.size(); ++j) CHECK(std::abs(got[j].get<double>() - want[j]) <= 1e-12 * want[j]);
}

}  // namespace

TEST_CASE("rope-inv-freq --config: the model's frequencies, attention factor and RoPE in the JSON") {
  const nlohmann::json j = run_json("export rope-inv-freq " + config("llama-3.1-8b-instruct.json"));
  check_relative(j["inv_freq"], llama3(500000, 128, 8, 1, 4, 8192));
  CHECK(j["attention_factor"] == 1.0);
  CHECK(j["rotary_dim"] == 128);
  CHECK(j["base"] == 500000.0);
  CHECK(j["rope_type"] == "llama3");
  CHECK(j["model"] == "llama-3.1-8b-instruct");
  CHECK(j["layer_type"] == "full_attention");
  CHECK(j["params"]["original_max_len"] == 8192);
  CHECK(j["data"][40].get<double>() == Approx(j["inv_freq"][40].get<double>()).epsilon(1e-7));  // float32 table
  // Without --config the JSON is as before: no inv_freq key.
  CHECK_FALSE(run_json("export rope-inv-freq --head-dim 8 --base 10000").contains("inv_freq"));
}

TEST_CASE("Flags given beside --config override it") {
  const std::string llama = "export rope-inv-freq " + config("llama-3.1-8b-instruct.json");
  nlohmann::json j = run_json(llama + " --factor 4");
  check_relative(j["inv_freq"], llama3(500000, 128, 4, 1, 4, 8192));
  j = run_json(llama + " --base 10000 --scaling none");
  CHECK(j["rope_type"] == "default");
  CHECK(j["inv_freq"][1].get<double>() == Approx(std::pow(10000.0, -2.0 / 128)).epsilon(1e-12));
  j = run_json(llama + " --scaling linear --factor 2 --head-dim 64");
  CHECK(j["inv_freq"].size() == 32);
  CHECK(j["inv_freq"][0] == 0.5);
}

TEST_CASE("--seq-len picks LongRoPE's short or long factors as transformers does (long when > original)") {
  const std::string phi = "export rope-inv-freq " + config("phi-3.5-mini-instruct.json");
  const double attention = std::sqrt(1 + std::log(32.0) / std::log(4096.0));
  for (int seq : {4096, 4097}) {
    const nlohmann::json j = run_json(phi + " --seq-len " + std::to_string(seq));
    const double ext = seq > 4096 ? 1.0800000429153442 : 1.0;  // long_factor[0], short_factor[0]
    CHECK(std::abs(j["inv_freq"][0].get<double>() - 1.0 / ext) <= 1e-12);
    CHECK(std::abs(j["attention_factor"].get<double>() - attention) <= 1e-12 * attention);
  }
}

TEST_CASE("--layer-type picks Gemma 3's sliding layers; the other rope subcommands take --config too") {
  const std::string gemma = config("gemma-3-12b-it.json");
  nlohmann::json j = run_json("export rope-inv-freq " + gemma + " --layer-type sliding_attention");
  CHECK(j["base"] == 10000.0);
  CHECK(j["rope_type"] == "default");
  j = run_json("export rope-inv-freq " + gemma);
  CHECK(j["rope_type"] == "linear");
  CHECK(j["inv_freq"][0] == 1.0 / 8);
  j = run_json("export rope-wavelengths " + gemma + " --context-len 4096");
  CHECK(j["params"]["model"] == "gemma-3-12b-it");
  CHECK(j["params"]["factor"] == 8.0);
  j = run_json("export rope-decay " + config("deepseek-v3.json") + " --max-distance 10");
  CHECK(j["params"]["head_dim"] == 64);
  CHECK(j["params"]["scaling"] == "yarn");
  j = run_json("export rope-precision " + config("qwen2.5-7b-instruct.json") + " --max-position 1024 --points 3");
  CHECK(j["params"]["base"] == 1e6);
}

TEST_CASE("--config refusals: one line naming the field and value") {
  const std::string dir = unique_temp_path("rope-config");
  fs::create_directories(dir);
  std::ofstream(dir + "/not-json.json") << "nope";
  std::ofstream(dir + "/foo.json") << R"({"model_type": "llama", "hidden_size": 512, "num_attention_heads": 4,
                                          "rope_scaling": {"rope_type": "foo", "factor": 2}})";
  const std::string inv = "export rope-inv-freq --config ";
  check_refused(inv + dir + "/not-json.json", "peviz: --config: not a JSON file (parse error at byte 2)");
  check_refused(inv + dir + "/foo.json", "peviz: --config: rope_scaling.rope_type 'foo' is not supported");
  check_refused(inv + dir + "/missing.json", "peviz: --config: cannot open " + dir + "/missing.json: No such file or directory");
  check_refused("export rope-inv-freq " + config("gpt2.json"),
                "peviz: --config: gpt2 (model_type 'gpt2') uses learned_absolute positions, not RoPE");
  check_refused("export rope-bounds " + config("mpt-7b-instruct.json"),
                "peviz: --config: mpt-7b-instruct (model_type 'mpt') uses alibi positions, not RoPE");
  check_refused("export rope-inv-freq " + config("llama-3.1-8b-instruct.json") + " --layer-type sliding_attention",
                "peviz: --layer-type: must be one of the config's layer types (full_attention), got 'sliding_attention'");
  check_refused("export rope-inv-freq --head-dim 8 --base 100 --layer-type full_attention",
                "peviz: --layer-type: needs --config FILE");
  check_refused("export rope-inv-freq --base 100", "peviz: --head-dim: is required (or give --config FILE)");
  check_refused("export rope-inv-freq " + config("llama-3.1-8b-instruct.json") + " --seq-len 100",
                "peviz: --seq-len: only applies to --scaling dynamic|longrope, not llama3");
  fs::remove_all(dir);
}

TEST_CASE("--scaling's help and refusal, and each scaling field's help, come from core's scaling table") {
  const RunResult help = run_peviz("export rope-inv-freq --help");
  REQUIRE(help.code == 0);
  CHECK(help.out.find(peviz::rope_scaling_names(" | ", " | ")) != std::string::npos);
  CHECK(help.out.find("none | linear | dynamic | yarn | llama3 | longrope") != std::string::npos);
  CHECK(help.out.find(peviz::scaling_readers(peviz::ScalingField::attention_factor) + ": attention factor") !=
        std::string::npos);
  CHECK(help.out.find("YaRN/LongRoPE: attention factor") != std::string::npos);
  CHECK(help.out.find("llama3: low-frequency factor") != std::string::npos);
  check_refused("export rope-inv-freq --head-dim 64 --base 10000 --scaling ntk",
                "peviz: --scaling: must be " + peviz::rope_scaling_names() + ", got 'ntk'");
}
