// Test helper for the `--config` exports: a fixture's --config flag, and peviz's --format json output parsed.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "run_peviz.hpp"
#include "tests/core/models/model_config_fixtures.hpp"

// "--config '<path of the fixture `name`>'".
inline std::string config(const std::string& name) { return "--config '" + model_config_fixture(name).string() + "'"; }

// `peviz <args> --format json`, which must succeed, parsed.
inline nlohmann::json run_json(const std::string& args) {
  INFO("peviz " << args);
  const RunResult r = run_peviz(args + " --format json");
  INFO(r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}
