// Tests for core/models/model_config_fields: typed reads of a config.json's fields, null as absent, the values they give,
// and refusals that name the field (with its object's prefix) and show its value on one short line.
#include "core/models/model_config_fields.hpp"

#include <catch2/catch.hpp>

#include "tests/core/param_error.hpp"

using namespace peviz::model_config_detail;
using nlohmann::json;

namespace {

const json kConfig = json::parse(R"({
  "hidden_size": 4096.0, "n_embd": 768, "rope_theta": 500000, "name": "llama", "tie": true, "gone": null,
  "factors": [1, 2.5, 4], "rope_scaling": {"factor": 8, "rope_type": "llama3"},
  "bad_int": 12.5, "huge": 1e300, "words": "many\nlines\tand a very long tail that goes on and on past sixty characters"
})");

const Fields kTop{kConfig, ""};

}  // namespace

TEST_CASE("present fields read as their types; absent and null ones are nullopt") {
  CHECK(*kTop.number("rope_theta") == 500000.0);
  CHECK(*kTop.integer("hidden_size", 1, 1 << 20) == 4096);  // an integral float counts
  CHECK(*kTop.text("name") == "llama");
  CHECK(*kTop.boolean("tie"));
  CHECK(*kTop.numbers("factors") == std::vector<double>{1, 2.5, 4});
  CHECK_FALSE(kTop.number("missing"));
  CHECK_FALSE(kTop.number("gone"));  // null is absent, as config.get(key) is None
  CHECK_FALSE(kTop.has("gone"));
  CHECK_FALSE(kTop.object_at("missing"));
}

TEST_CASE("a nested object names its fields with its prefix") {
  const std::optional<Fields> rope = kTop.object_at("rope_scaling");
  REQUIRE(rope);
  CHECK(rope->prefix == "rope_scaling.");
  CHECK(*rope->number("factor") == 8.0);
  CHECK(rope->name("factor") == "rope_scaling.factor");
  CHECK(param_error_of([&] { rope->number("rope_type"); }) == "config: rope_scaling.rope_type 'llama3' must be a number");
}

TEST_CASE("integer_alias reads the first alias present") {
  CHECK(*kTop.integer_alias({"d_model", "n_embd", "hidden_size"}, 1, 1 << 20) == 768);
  CHECK(*kTop.integer_alias({"hidden_size", "n_embd"}, 1, 1 << 20) == 4096);
  CHECK_FALSE(kTop.integer_alias({"d_model", "gone"}, 1, 10));
}

TEST_CASE("refusals name the field and show its value") {
  CHECK(param_error_of([] { kTop.integer("bad_int", 1, 100); }) == "config: bad_int 12.5 must be a whole number in [1, 100]");
  CHECK(param_error_of([] { kTop.integer("n_embd", 1, 100); }) == "config: n_embd 768 must be a whole number in [1, 100]");
  CHECK(param_error_of([] { kTop.integer("huge", 1, 100); }).rfind("config: huge 1e+300 must be a whole number", 0) == 0);
  CHECK(param_error_of([] { kTop.text("tie"); }) == "config: tie true must be a string");
  CHECK(param_error_of([] { kTop.boolean("name"); }) == "config: name 'llama' must be true or false");
  CHECK(param_error_of([] { kTop.numbers("name"); }) == "config: name 'llama' must be a list of numbers");
  CHECK(param_error_of([] { kTop.object_at("factors"); }) == "config: factors [1,2.5,4] must be an object");
  const json mixed = json::parse(R"({"f": [1, "x"]})");
  CHECK(param_error_of([&] { Fields{mixed, ""}.numbers("f"); }) ==
        "config: f [1,\"x\"] must be a list of finite numbers, got 'x' in it");
}

TEST_CASE("shown: strings quoted, one line, at most 60 characters") {
  CHECK(shown(json("abc")) == "'abc'");
  CHECK(shown(json(2.5)) == "2.5");
  CHECK(shown(json::parse("[1, 2]")) == "[1,2]");
  const std::string long_text = shown(kConfig["words"]);
  CHECK(long_text.size() == 60);
  CHECK(long_text.substr(57) == "...");
  CHECK(long_text.find('\n') == std::string::npos);
  CHECK(long_text.find('\t') == std::string::npos);
  CHECK(long_text.rfind("'many lines and", 0) == 0);
}
