// How a value's origin reads (core/models/value_origin): the three phrasings, and origins recorded by a real reading.
#include <catch2/catch.hpp>

#include "core/models/model_config.hpp"
#include "core/models/value_origin.hpp"

using namespace peviz;

namespace {

const ValueOrigin* find_origin(const std::vector<ValueOrigin>& origins, std::string_view value) {
  for (const ValueOrigin& o : origins)
    if (o.value == value) return &o;
  return nullptr;
}

}  // namespace

TEST_CASE("value origin: each origin reads as the inspector shows it") {
  CHECK(describe({"rope_theta", Origin::read, "text_config.rope_theta"}) == "read from text_config.rope_theta");
  CHECK(describe({"head_dim", Origin::class_default, "head_dim 256"}) == "default: head_dim 256");
  CHECK(describe({"head_dim", Origin::derived, "hidden_size / num_attention_heads"}) ==
        "derived: hidden_size / num_attention_heads");
}

TEST_CASE("value origin: note appends in order and keeps every field") {
  std::vector<ValueOrigin> o;
  note(o, "rotary_dim", Origin::derived, "head_dim");
  note(o, "rope_theta", Origin::read, "rope_theta");
  REQUIRE(o.size() == 2);
  CHECK(o[0].value == "rotary_dim");
  CHECK(o[0].origin == Origin::derived);
  CHECK(o[1].source == "rope_theta");
}

TEST_CASE("value origin: a reading says which values were read, derived or defaulted") {
  // head_dim absent: derived from hidden_size / num_attention_heads; rope_theta given: read; no rope_theta at all:
  // the config class's default.
  const ModelConfig given = read_model_config(
      R"({"model_type": "llama", "hidden_size": 512, "num_attention_heads": 8, "num_hidden_layers": 2,
          "rope_theta": 500000})", "inline");
  REQUIRE(given.layer_types.size() == 1);
  const std::vector<ValueOrigin>& o = given.layer_types[0].origins;
  REQUIRE(find_origin(o, "head_dim") != nullptr);
  CHECK(find_origin(o, "head_dim")->origin == Origin::derived);
  REQUIRE(find_origin(o, "rope_theta") != nullptr);
  CHECK(find_origin(o, "rope_theta")->origin == Origin::read);
  CHECK(describe(*find_origin(o, "rope_theta")) == "read from rope_theta");

  const ModelConfig bare = read_model_config(
      R"({"model_type": "llama", "hidden_size": 512, "num_attention_heads": 8, "num_hidden_layers": 2})", "inline");
  const ValueOrigin* theta = find_origin(bare.layer_types.at(0).origins, "rope_theta");
  REQUIRE(theta != nullptr);
  CHECK(theta->origin == Origin::class_default);
}
