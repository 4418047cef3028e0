// `peviz bench` through the real binary: every size timed for the table, the similarity and the write floor, the
// thread count and SIMD path it reports, and a refused --simd name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "run_peviz.hpp"

TEST_CASE("bench --json reports every size for table and similarity") {
  const RunResult r = run_peviz("bench --json --reps 1");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"512x512", "2048x512", "4096x1024", "8192x1024"}) {
    CHECK(j["table"][key].get<double>() > 0.0);
    CHECK(j["similarity"][key].get<double>() > 0.0);
    CHECK(j["write_floor"][key].get<double>() > 0.0);
  }
  CHECK(j["threads"].get<int>() >= 1);
  CHECK((j["simd"] == "avx512" || j["simd"] == "avx2" || j["simd"] == "baseline"));
  CHECK(nlohmann::json::parse(run_peviz("bench --json --reps 1 --threads 1").out)["threads"] == 1);
}

TEST_CASE("bench --simd times the path asked for, and refuses a name it does not know") {
  const RunResult r = run_peviz("bench --json --reps 1 --simd baseline");
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["simd"] == "baseline");
  const RunResult bad = run_peviz("bench --simd sse9");
  CHECK(bad.code != 0);
  CHECK(bad.out.empty());
  CHECK(bad.err.find("sse9") != std::string::npos);
  CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
}
