// Tests for `peviz export encoding|similarity|frequencies|criteria` through the real binary.
#include <algorithm>
#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/io/nd_array.hpp"
#include "run_peviz.hpp"
#include <fstream>

namespace fs = std::filesystem;

TEST_CASE("encoding CSV has one row per position and known values") {
  RunResult r = run_peviz("export encoding --d-model 4 --seq-len 3");
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("dim_0,dim_1,dim_2,dim_3\n", 0) == 0);
  const std::string rows = csv_body(r.out);
  CHECK(count_lines(rows) == 3);
  // t = 1: sin(1), cos(1), sin(0.01), cos(0.01) with base 10000, d = 4.
  const std::string row1 = rows.substr(rows.find('\n') + 1, rows.find('\n', rows.find('\n') + 1) - rows.find('\n') - 1);
  float v[4];
  REQUIRE(std::sscanf(row1.c_str(), "%f,%f,%f,%f", &v[0], &v[1], &v[2], &v[3]) == 4);
  CHECK(v[0] == Approx(std::sin(1.0)).epsilon(1e-7));
  CHECK(v[1] == Approx(std::cos(1.0)).epsilon(1e-7));
  CHECK(v[2] == Approx(std::sin(0.01)).epsilon(1e-7));
  CHECK(v[3] == Approx(std::cos(0.01)).epsilon(1e-7));
}

TEST_CASE("NPY output round-trips bit-exactly and integers are int32") {
  const std::string path = unique_temp_path("enc.npy");
  REQUIRE(run_peviz("export encoding --d-model 6 --seq-len 5 --layout halves --format npy --out " + path).code == 0);
  peviz::NdArray a = peviz::parse_npy(slurp(path));
  REQUIRE(a.shape == std::vector<std::size_t>{5, 6});
  CHECK(a.dtype == peviz::DType::f32);
  CHECK(a.f32[1 * 6 + 0] == float(std::sin(1.0)));  // halves: channel 0 = sin(t w0), w0 = 1
  CHECK(a.f32[1 * 6 + 3] == float(std::cos(1.0)));  // channel n = cos(t w0)

  REQUIRE(run_peviz("export encoding --encoding integer --seq-len 4 --format npy --out " + path).code == 0);
  a = peviz::parse_npy(slurp(path));
  CHECK(a.dtype == peviz::DType::i32);
  CHECK(a.i32 == std::vector<std::int32_t>{0, 1, 2, 3});
  fs::remove(path);
}

TEST_CASE("CSV floats round-trip float32 exactly") {
  const std::string npy = unique_temp_path("rt.npy");
  REQUIRE(run_peviz("export encoding --encoding learned --d-model 8 --seq-len 16 --seed 3 --format npy --out " + npy).code == 0);
  const peviz::NdArray a = peviz::parse_npy(slurp(npy));
  const RunResult csv = run_peviz("export encoding --encoding learned --d-model 8 --seq-len 16 --seed 3");
  REQUIRE(csv.code == 0);
  std::vector<float> parsed;
  std::string cell;
  for (char c : csv_body(csv.out)) {
    if (c == ',' || c == '\n') {
      parsed.push_back(std::strtof(cell.c_str(), nullptr));
      cell.clear();
    } else {
      cell += c;
    }
  }
  CHECK(parsed == a.f32);
  fs::remove(npy);
}

TEST_CASE("JSON carries shape, data and params") {
  RunResult r = run_peviz("export similarity --metric dot --d-model 8 --seq-len 4 --format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == nlohmann::json::array({4, 4}));
  CHECK(j["data"].size() == 16);
  CHECK(j["params"]["metric"] == "dot");
  CHECK(j["params"]["base"] == 10000.0);
  CHECK(j["data"][0].get<double>() == Approx(4.0));  // PE(0).PE(0) = d/2
}

TEST_CASE("learned positions past max-len are an error, a --from-npy table is used as given") {
  RunResult r = run_peviz("export encoding --encoding learned --max-len 8 --seq-len 9 --d-model 4");
  CHECK(r.code == 2);
  CHECK(r.err.find("--seq-len") != std::string::npos);

  const std::string npy = unique_temp_path("table.npy");
  REQUIRE(run_peviz("export encoding --d-model 3 --seq-len 5 --format npy --out " + npy).code == 0);
  r = run_peviz("export encoding --encoding learned --from-npy " + npy + " --seq-len 5 --format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == nlohmann::json::array({5, 3}));
  CHECK(j["data"][3].get<double>() == Approx(std::sin(1.0)).epsilon(1e-6));
  fs::remove(npy);
}

TEST_CASE("frequencies: wavelengths from 2 pi to base * 2 pi") {
  RunResult r = run_peviz("export frequencies --d-model 4 --base 10000 --format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == nlohmann::json::array({2, 3}));
  CHECK(j["data"][2].get<double>() == Approx(2 * M_PI));
  CHECK(j["data"][5].get<double>() == Approx(100 * 2 * M_PI));  // pair 1 of d=4: w = 10000^(-1/2)
  r = run_peviz("export frequencies --d-model 8 --base 10000 --layout halves --format json");
  const auto h = nlohmann::json::parse(r.out);
  CHECK(h["data"][11].get<double>() == Approx(10000 * 2 * M_PI));  // halves reaches the base exactly
}

TEST_CASE("criteria report pass/fail per encoding") {
  auto crit = [](const std::string& flags) {
    RunResult r = run_peviz("export criteria " + flags);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out)["criteria"];
  };
  const auto sin = crit("--d-model 64 --seq-len 64");
  CHECK(sin["unique"]["pass"] == true);
  CHECK(sin["consistent_distance"]["pass"] == true);
  CHECK(sin["bounded"]["pass"] == true);
  CHECK(sin["deterministic"]["pass"] == true);
  CHECK(sin["extrapolation"]["pass"] == true);
  const auto norm = crit("--encoding normalized --seq-len 64");
  CHECK(norm["consistent_distance"]["pass"] == false);  // offset 1 means 1/63 at L=64, 1/127 at 128
  CHECK(norm["consistent_distance"]["change_with_length"].get<double>() == Approx((1.0 / 63 - 1.0 / 127) / (1.0 / 63)));
  CHECK(norm["bounded"]["pass"] == true);
  const auto integer = crit("--encoding integer --seq-len 64");
  CHECK(integer["bounded"]["pass"] == false);
  CHECK(integer["bounded"]["growth_4L"].get<double>() == Approx(255.0 / 63.0));
  const auto bin = crit("--encoding binary --d-model 4 --seq-len 32");
  CHECK(bin["unique"]["pass"] == false);  // 4 bits repeat after 16 positions
  CHECK(bin["unique"]["closest_positions"] == nlohmann::json::array({0, 16}));
}

TEST_CASE("every invalid input exits 2 with one line naming the flag") {
  struct Case {
    const char* args;
    const char* flag;
  } cases[] = {
      {"export encoding --d-model 0", "--d-model"},
      {"export encoding --d-model 16385", "--d-model"},
      {"export encoding --seq-len 0", "--seq-len"},
      {"export encoding --seq-len 65537", "--seq-len"},
      {"export encoding --base 1", "--base"},
      {"export encoding --base 0.5", "--base"},
      {"export encoding --base nan", "--base"},
      {"export encoding --base inf", "--base"},
      {"export encoding --encoding rotary", "--encoding"},
      {"export encoding --layout diagonal", "--layout"},
      {"export encoding --format xml", "--format"},
      {"export similarity --metric euclid", "--metric"},
      {"export similarity --seq-len 65536", "--max-output"},  // CSV of up to 64 GiB + its last newline
      {"export encoding --d-model 16384 --seq-len 65536 --max-output 1GiB", "--max-output"},
      {"export encoding --max-output 0", "--max-output"},
      {"export encoding --max-output 1025TiB", "--max-output"},
      {"export encoding --threads 257", "--threads"},
      {"export encoding --threads -1", "--threads"},
      {"export encoding --out /nonexistent-dir/x.csv", "--out"},
      {"export encoding --encoding learned --from-npy /nonexistent.npy", "--from-npy"},
      {"export encoding --d-model abc", "--d-model"},
      {"export similarity --encoding learned --max-len 4096 --seq-len 4096 --d-model 4096 --max-memory 32MiB",
       "--max-memory"},
      {"export encoding --max-memory 0", "--max-memory"},
      {"export encoding --max-memory 65GiB", "--max-memory"},
      {"export encoding --max-memory 12XB", "--max-memory"},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    const RunResult r = run_peviz(c.args);
    CHECK(r.code == 2);
    CHECK(count_lines(r.err) == 1);
    CHECK(r.err.find(c.flag) != std::string::npos);
    CHECK(r.out.empty());
  }
}

TEST_CASE("a malformed .npy is refused and no partial output file is left") {
  const fs::path dir = fs::path(unique_temp_path("bad-npy"));
  fs::create_directories(dir);
  const std::string bad = (dir / "bad.npy").string();
  {
    std::ofstream os(bad, std::ios::binary);
    os << "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': False, 'shape': (1000, 1000), }";
  }
  const std::string out = (dir / "out.csv").string();
  RunResult r = run_peviz("export encoding --encoding learned --from-npy " + bad + " --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err.find("--from-npy") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  std::size_t files = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(dir)) ++files;
  CHECK(files == 1);  // only bad.npy: no temporary left behind
  fs::remove_all(dir);
}

TEST_CASE("export never needs a display") {
  RunResult r = run_peviz("export encoding --d-model 2 --seq-len 2");
  CHECK(r.code == 0);
  r = run_peviz("--help");
  CHECK(r.code == 0);
  CHECK(r.out.find("export") != std::string::npos);
}

TEST_CASE("peviz does not link FFmpeg: the MP4 writer loads it, so an export starts small") {
  const RunResult r = run_shell(std::string("readelf -d ") + peviz::test::peviz_binary);
  REQUIRE(r.code == 0);
  REQUIRE(r.out.find("(NEEDED)") != std::string::npos);
  CHECK(r.out.find("libavcodec") == std::string::npos);
  CHECK(r.out.find("libavformat") == std::string::npos);
}

TEST_CASE("--max-memory bounds what is held in memory (a learned table), not what is streamed") {
  const std::string learned = "export similarity --encoding learned --max-len 1024 --seq-len 1024 --d-model 2048 ";
  RunResult r = run_peviz(learned + "--max-memory 4MiB");
  CHECK(r.code == 2);
  CHECK(r.err == "peviz: --max-memory: the encoding of 1024 x 2048 values would take 8 MiB, over the 4 MiB budget\n");
  r = run_peviz(learned + "--max-memory 8MiB --format npy --out /dev/null");
  CHECK(r.code == 0);
  // The 16 MiB sinusoidal similarity streams past an 8 MiB budget.
  r = run_peviz("export similarity --seq-len 2048 --max-memory 8MiB --format npy --out /dev/null");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
}
