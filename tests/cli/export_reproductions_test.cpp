// `peviz export reproductions` through the real binary: the table in Markdown, CSV and JSON, and its refusals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "config_json.hpp"
#include "core/train/reproductions.hpp"

TEST_CASE("reproductions: one row per method in every format") {
  const std::size_t methods = peviz::train::reproduction_methods().size();
  const RunResult md = run_peviz("export reproductions");
  REQUIRE(md.code == 0);
  CHECK(md.out.starts_with("| method | paper | the paper's claim |"));
  CHECK(std::size_t(std::count(md.out.begin(), md.out.end(), '\n')) == methods + 2);  // header, rule, rows
  const RunResult csv = run_peviz("export reproductions --format csv");
  REQUIRE(csv.code == 0);
  CHECK(csv.out.starts_with("method,paper,claim,task,train_max,seeds,success_2x,"));
  CHECK(std::size_t(std::count(csv.out.begin(), csv.out.end(), '\n')) == methods + 1);
  const nlohmann::json j = run_json("export reproductions");
  REQUIRE(j["rows"].size() == methods);
  CHECK(j["success_exact_match"] == 0.9);
  CHECK(j["rows"][0]["method"] == "Abacus");
  CHECK(j["rows"][0]["ours"]["outcome"]["seeds"].get<int>() >= 5);
}

TEST_CASE("reproductions: refusals in one line naming the flag") {
  check_refused("export reproductions --format xml", "peviz: --format: must be md, csv or json, got 'xml'");
  check_refused("export reproductions --format md --out /tmp/r.csv",
                "peviz: --out: /tmp/r.csv names a .csv file, but --format is md: name it .md or pass --format csv");
}
