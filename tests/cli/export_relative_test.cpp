// Tests for `peviz export rope-*|alibi-*|t5-buckets|shaw|distance-series` through the real binary.
#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/io/nd_array.hpp"
#include "run_peviz.hpp"

namespace fs = std::filesystem;

namespace {
std::vector<std::vector<std::string>> csv_cells(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string cell;
  for (char c : text) {
    if (c == ',' || c == '\n') {
      rows.back().push_back(cell);
      cell.clear();
      if (c == '\n') rows.emplace_back();
    } else {
      cell += c;
    }
  }
  rows.pop_back();
  return rows;
}

}  // namespace

TEST_CASE("rope-inv-freq: one row per pair, JSON adds the attention factor") {
  RunResult r = run_peviz("export rope-inv-freq --head-dim 8 --base 10000");
  REQUIRE(r.code == 0);
  CHECK(r.out == "inv_freq\n1\n0.1\n0.01\n0.001\n");
  r = run_peviz("export rope-inv-freq --head-dim 128 --base 10000 --scaling yarn --factor 10 --original-max-len 2048 "
                "--format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == nlohmann::json::array({64, 1}));
  CHECK(j["attention_factor"].get<double>() == Approx(0.1 * std::log(10.0) + 1));
  CHECK(j["data"][17].get<double>() == Approx(8.3479e-02).epsilon(6e-5));  // HF's yarn snapshot
  CHECK(j["data"][63].get<double>() == Approx(1.1548e-05).epsilon(6e-5));
  CHECK(j["params"]["scaling"] == "yarn");
  CHECK(j["params"]["truncate"] == true);
  r = run_peviz("export rope-inv-freq --head-dim 8 --base 10000 --scaling longrope --max-len 8192 "
                "--original-max-len 4096 --seq-len 5000 --short-factor 1,1 --long-factor 2,4 --rotary-dim 4 --format json");
  REQUIRE(r.code == 0);
  const auto l = nlohmann::json::parse(r.out);
  CHECK(l["data"][0].get<double>() == Approx(0.5));
  CHECK(l["data"][1].get<double>() == Approx(0.01 / 4));
  CHECK(l["params"]["factor"].get<double>() == 2.0);
  CHECK(l["attention_factor"].get<double>() == Approx(std::sqrt(1 + std::log(2.0) / std::log(4096.0))));
}

TEST_CASE("rope-decay rows r = 0..N with the RoFormer score and bound") {
  const RunResult r = run_peviz("export rope-decay --head-dim 128 --base 10000 --max-distance 3");
  REQUIRE(r.code == 0);
  CHECK(r.out.rfind("r,score,relative_bound\n", 0) == 0);
  const auto rows = csv_cells(csv_body(r.out));
  REQUIRE(rows.size() == 4);
  CHECK(rows[0] == std::vector<std::string>{"0", "128", "32.5"});
  CHECK(std::stod(rows[3][0]) == 3);
  double want = 0;
  for (int j = 0; j < 64; ++j) want += 2 * std::cos(3 * std::pow(10000.0, -2.0 * j / 128));
  CHECK(std::stod(rows[3][1]) == Approx(want).epsilon(1e-6));
}

TEST_CASE("rope-wavelengths and rope-precision") {
  RunResult r = run_peviz("export rope-wavelengths --head-dim 8 --base 10000 --scaling linear --factor 4 "
                          "--context-len 100 --format json");
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == nlohmann::json::array({4, 6}));
  CHECK(j["params"]["target_len"].get<double>() == 400.0);
  CHECK(j["data"][1].get<double>() == Approx(2 * M_PI));       // pair 0 wavelength
  CHECK(j["data"][2].get<double>() == Approx(8 * M_PI));       // scaled by 4
  CHECK(j["data"][5].is_null());                               // no YaRN ramp
  r = run_peviz("export rope-wavelengths --head-dim 128 --base 10000 --scaling yarn --factor 10 --max-len 2048 --format json");
  REQUIRE(r.code == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j["data"][16 * 6 + 5].get<double>() == 0.0);
  CHECK(j["data"][41 * 6 + 5].get<double>() == 1.0);
  // t = 999 is not a bf16 number (it rounds to 1000): pair 0 (theta = 1) is a radian off in bf16.
  r = run_peviz("export rope-precision --head-dim 8 --base 10000 --max-position 999 --points 4");
  REQUIRE(r.code == 0);
  CHECK(r.out.rfind("t,fp32,bf16,fp16\n", 0) == 0);
  const auto rows = csv_cells(csv_body(r.out));
  REQUIRE(rows.size() == 4);
  CHECK(rows[3][0] == "999");
  CHECK(std::stod(rows[3][2]) == Approx(1.0));
  CHECK(std::stod(rows[3][1]) < 1e-4);
}

TEST_CASE("alibi-slopes and alibi-bias: shape, stacking, masked cells") {
  RunResult r = run_peviz("export alibi-slopes --heads 8");
  REQUIRE(r.code == 0);
  CHECK(r.out == "slope\n0.5\n0.25\n0.125\n0.0625\n0.03125\n0.015625\n0.0078125\n0.00390625\n");
  r = run_peviz("export alibi-bias --heads 2 --seq-len 3");
  REQUIRE(r.code == 0);
  CHECK(r.out == "key_0,key_1,key_2\n0,,\n-0.0625,0,\n-0.125,-0.0625,0\n0,,\n-0.00390625,0,\n-0.0078125,-0.00390625,0\n");
  r = run_peviz("export alibi-bias --heads 2 --seq-len 3 --bidirectional");
  REQUIRE(r.code == 0);
  CHECK(csv_cells(csv_body(r.out))[0] == std::vector<std::string>{"0", "-0.0625", "-0.125"});
  const std::string path = unique_temp_path("alibi.npy");
  REQUIRE(run_peviz("export alibi-bias --heads 3 --seq-len 4 --format npy --out " + path).code == 0);
  const peviz::NdArray a = peviz::parse_npy(slurp(path));
  CHECK(a.shape == std::vector<std::size_t>{3, 4, 4});
  REQUIRE(a.f32.size() > 1);
  CHECK(std::isnan(a.f32[1]));
  CHECK(a.f32[(2 * 4 + 3) * 4 + 0] == Approx(-3 * 0.25));  // head 2 of 3 heads: slope 2^-2 from the 4-head set
  fs::remove(path);
  r = run_peviz("export alibi-bias --heads 1 --seq-len 2 --format json");
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["data"][1].is_null());
}

TEST_CASE("t5-buckets and shaw matrices") {
  RunResult r = run_peviz("export t5-buckets --seq-len 3 --key-len 4");
  REQUIRE(r.code == 0);
  CHECK(r.out == "key_0,key_1,key_2,key_3\n0,17,18,19\n1,0,17,18\n2,1,0,17\n");
  r = run_peviz("export t5-buckets --seq-len 129 --causal --format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["data"][128 * 129 + 0] == 31);   // r = -128
  CHECK(j["data"][64 * 129 + 0] == 26);    // r = -64
  CHECK(j["data"][0 * 129 + 5] == 0);      // the future
  r = run_peviz("export shaw --seq-len 2 --key-len 4 --max-relative 1");
  REQUIRE(r.code == 0);
  CHECK(r.out == "key_0,key_1,key_2,key_3\n-1,-1,0,1\n-1,-1,-1,0\n");
}

TEST_CASE("distance-series: rows r, one column per method") {
  const RunResult r = run_peviz("export distance-series --seq-len 3 --heads 2 --format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == nlohmann::json::array({5, 7}));
  CHECK(j["columns"] == nlohmann::json::array({"r", "sinusoidal", "rope", "alibi_h0", "alibi_h1", "t5_bucket", "shaw"}));
  CHECK(j["data"][2 * 7 + 1].get<double>() == 64.0);  // r = 0: d_model/2 pairs
  CHECK(j["data"][2 * 7 + 2].get<double>() == 128.0);
  CHECK(j["data"][4 * 7 + 5].get<double>() == 18.0);  // T5 r = +2
}

TEST_CASE("relative family: every invalid input exits 2 with one line naming the flag") {
  const std::string rope = "export rope-inv-freq --base 10000 ";
  check_refused(rope + "--head-dim 7", "peviz: --head-dim: must be even, got 7");
  check_refused(rope + "--head-dim 64 --rotary-dim 128", "peviz: --rotary-dim: must not exceed --head-dim (64), got 128");
  check_refused(rope + "--head-dim 64 --rotary-dim 5", "peviz: --rotary-dim: must be even and hold at least one pair, got 5");
  check_refused("export rope-inv-freq --head-dim 64 --base 1", "peviz: --base: must be a finite number > 1, got 1");
  check_refused(rope + "--head-dim 64 --scaling linear --factor 0.5", "peviz: --factor: must be a finite number in [1, 1000000], got 0.5");
  check_refused(rope + "--head-dim 64 --scaling ntk", "peviz: --scaling: must be none, linear, dynamic, yarn, llama3 or longrope, got 'ntk'");
  check_refused(rope + "--head-dim 64 --scaling linear", "peviz: --factor: is required for --scaling linear");
  check_refused(rope + "--head-dim 64 --factor 2", "peviz: --factor: only applies to --scaling linear|dynamic|yarn|llama3|longrope, not none");
  check_refused(rope + "--head-dim 64 --scaling dynamic --factor 2",
                "peviz: --original-max-len: is required for --scaling dynamic (or give --max-len)");
  check_refused(rope + "--head-dim 64 --scaling linear --factor 2 --beta-fast 3",
                "peviz: --beta-fast: only applies to --scaling yarn, not linear");
  check_refused(rope + "--head-dim 64 --scaling yarn --factor 2 --max-len 4096 --beta-fast 1 --beta-slow 2",
                "peviz: --beta-fast: must be greater than --beta-slow (2), got 1");
  check_refused(rope + "--head-dim 64 --scaling llama3 --factor 8 --original-max-len 8192 --low-freq-factor 4 --high-freq-factor 2",
                "peviz: --high-freq-factor: must be greater than --low-freq-factor (4), got 2");
  check_refused(rope + "--head-dim 8 --scaling longrope --factor 2 --original-max-len 4096 --short-factor 1,1,1 --long-factor 1,1,1,1",
                "peviz: --short-factor: must list rotary-dim/2 = 4 numbers, got 3");
  check_refused(rope + "--head-dim 8 --scaling longrope --factor 2 --original-max-len 4096 --short-factor 1,x,1,1 --long-factor 1,1,1,1",
                "peviz: --short-factor: must be a comma-separated list of numbers, got 'x' in it");
  check_refused(rope + "--head-dim 8 --scaling longrope --max-len 1024 --original-max-len 4096 --short-factor 1,1,1,1 --long-factor 1,1,1,1",
                "peviz: --max-len: must be >= --original-max-len (4096) so that the derived factor is >= 1, got 1024");
  check_refused(rope + "--head-dim 64 --no-truncate", "peviz: --no-truncate: only applies to --scaling yarn, not none");
  check_refused(rope + "--head-dim 64 --scaling yarn --factor 4 --max-len 4096 --attention-factor 0",
                "peviz: --attention-factor: must be a finite number > 0, got 0");
  check_refused("export rope-decay --head-dim 8 --base 10000 --max-distance -1",
                "peviz: --max-distance: must be an integer in [0, 2^30], got -1");
  check_refused("export rope-wavelengths --head-dim 8 --base 10000",
                "peviz: --context-len: must be an integer in [1, 2^30] (required unless the scaling has an original length), got 0");
  check_refused("export rope-precision --head-dim 8 --base 10000 --max-position 0",
                "peviz: --max-position: must be an integer in [1, 2^30], got 0");
  check_refused("export alibi-slopes --heads 0", "peviz: --heads: must be an integer in [1, 4096], got 0");
  check_refused("export alibi-bias --heads 4 --seq-len 0", "peviz: --seq-len: must be an integer in [1, 65536], got 0");
  check_refused("export t5-buckets --seq-len 4 --num-buckets 1 --causal", "peviz: --num-buckets: must be an integer in [2, 65536], got 1");
  check_refused("export t5-buckets --seq-len 4 --num-buckets 3",
                "peviz: --num-buckets: must be an integer in [4, 65536] for bidirectional buckets, got 3");
  check_refused("export t5-buckets --seq-len 4 --max-distance 8",
                "peviz: --max-distance: must be an integer greater than the exact range (8) and at most 2^30, got 8");
  check_refused("export shaw --seq-len 6 --key-len 4 --max-relative 2",
                "peviz: --key-len: must be >= --seq-len (6): queries align to the last keys, got 4");
  check_refused("export shaw --seq-len 6 --key-len 0 --max-relative 2", "peviz: --key-len: must be an integer in [1, 65536], got 0");
  check_refused("export t5-buckets --seq-len 6 --key-len 0", "peviz: --key-len: must be an integer in [1, 65536], got 0");
  check_refused("export shaw --seq-len 6 --max-relative -1", "peviz: --max-relative: must be an integer in [0, 65536], got -1");
  check_refused("export distance-series --seq-len 8 --head-dim 9", "peviz: --head-dim: must be even, got 9");
  check_refused("export alibi-bias --heads 4096 --seq-len 65536",
                "peviz: --max-output: the CSV output could take up to 262144 GiB, over the --max-output limit of 64 GiB");
  check_refused("export alibi-slopes --heads 8 --format xml", "peviz: --format: must be csv, npy or json, got 'xml'");
  // A missing required flag is a usage error (exit 2) from the flag parser.
  const RunResult r = run_peviz("export rope-decay --head-dim 8 --base 10000");
  CHECK(r.code == 2);
  CHECK(r.err.find("--max-distance") != std::string::npos);
}
