// `peviz train` and `peviz export rope-bounds` run as the real binary: output lines, saved runs, refusals.
#include <cstdio>

#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"
#include <nlohmann/json.hpp>

#include "run_peviz.hpp"

namespace {
const std::string kSmall = "train --steps 20 --test-samples 5 --d-model 16 --batch 4 --train-max 4 --test-max 8 ";
}

TEST_CASE("peviz train prints one JSON object per encoding, null where not defined") {
  const RunResult r = run_peviz(kSmall + "--pe rope,learned --threads 2");
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());  // no progress bar when stderr is not a terminal
  REQUIRE(count_lines(r.out) == 2);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  const nlohmann::json rope = nlohmann::json::parse(line);
  CHECK(rope["pe"] == "rope");
  CHECK(rope["task"] == "copy");
  CHECK(rope["steps"] == 20);
  CHECK(rope["params"] == 13 * 16 + 2 * (16 * 48 + 48 + 16 * 16 + 16 + 16 * 64 + 64 + 64 * 16 + 16 + 4 * 16) + 32 + 16 * 13 + 13);
  CHECK(rope["exact_match"]["5"].is_number());
  CHECK(line.rfind("{\"pe\":\"rope\",\"task\":\"copy\"", 0) == 0);  // keys in the documented order
  std::getline(lines, line);
  const nlohmann::json learned = nlohmann::json::parse(line);
  CHECK(learned["exact_match"]["5"].is_null());  // 13 tokens > 2 * 4 + 3 rows
}

TEST_CASE("peviz train --out saves a run whose learned table the encoding export reads") {
  const std::string path = unique_temp_path("train-cli.safetensors");
  REQUIRE(run_peviz(kSmall + "--pe learned --out " + path).code == 0);
  const RunResult r = run_peviz("export encoding --encoding learned --from-safetensors " + path +
                                " --tensor wpe --seq-len 11 --format json");
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["shape"] == nlohmann::json::array({11, 16}));
  std::remove(path.c_str());
}

TEST_CASE("peviz train refuses bad flags with one line and exit 2") {
  auto refused = [](const std::string& args, const std::string& line) {
    const RunResult r = run_peviz(args);
    CHECK(r.code == 2);
    CHECK(r.err == line + "\n");
  };
  refused("train --pe fourier", "peviz: --pe: must be nope, sinusoidal, learned, rope, alibi, t5, a comma list of them, "
                                "or all; got 'fourier'");
  refused("train --task add", "peviz: --task: must be copy, reverse or sort, got 'add'");
  refused("train --heads 3", "peviz: --heads: d-model / heads must be an even integer (the head dimension), got d-model "
                             "64 and heads 3");
  refused("train --steps 0", "peviz: --steps: must be an integer in [1, 100000], got 0");
  refused("train --threads 0", "peviz: --threads: must be an integer in [1, 64], got 0");
  refused("train --train-max 5 --test-max 21", "peviz: --test-max: must be at most 4 x train-max (20), got 21");
  refused("train --out /nonexistent/run.safetensors", "peviz: --out: cannot write /nonexistent/run.safetensors: "
                                                      "/nonexistent is not a folder");
}

TEST_CASE("peviz export rope-bounds: Liu et al.'s worked example") {
  const RunResult r = run_peviz("export rope-bounds --head-dim 128 --base 10000 --context-len 4096 --format json");
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["d_extra"] == 92);
  CHECK(j["t_extra"].get<double>() == Approx(4711.8).margin(0.1));
  CHECK(j["first_negative_m"].get<long long>() < 4096);
  CHECK(j["min_base"].get<double>() > 10000);
  const RunResult bad = run_peviz("export rope-bounds --head-dim 128 --base 10000 --context-len 0");
  CHECK(bad.code == 2);
  CHECK(bad.err == "peviz: --context-len: must be an integer in [1, 1048576], got 0\n");
}
