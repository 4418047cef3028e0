// Which framework reading differences apply to which config (core/models/framework_notes), over the shipped models.
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "core/models/framework_notes.hpp"
#include "tests/core/models/model_config_fixtures.hpp"

using namespace peviz;

namespace {

std::vector<std::string> note_topics(const std::string& fixture) {
  std::vector<std::string> topics;
  for (const FrameworkNote* n : framework_notes(load_fixture_config(fixture))) topics.emplace_back(n->topic);
  return topics;
}

bool has_topic(const std::vector<std::string>& topics, std::string_view topic) {
  return std::find(topics.begin(), topics.end(), topic) != topics.end();
}

}  // namespace

TEST_CASE("framework notes: none for models without RoPE") {
  CHECK(note_topics("gpt2.json").empty());
  CHECK(note_topics("t5-small.json").empty());
  CHECK(note_topics("mpt-7b-instruct.json").empty());  // ALiBi
}

TEST_CASE("framework notes: plain RoPE models get none") {
  CHECK(note_topics("llama-2-7b-hf.json").empty());
  CHECK(note_topics("qwen2.5-7b-instruct.json").empty());
}

TEST_CASE("framework notes: each scaling brings its own note and no other's") {
  const std::vector<std::string> yarn = note_topics("qwen2.5-7b-instruct-yarn.json");
  CHECK(yarn == std::vector<std::string>{"YaRN attention factor", "YaRN factor with original_max_position_embeddings"});

  const std::vector<std::string> llama3 = note_topics("llama-3.1-8b-instruct.json");
  CHECK(llama3 == std::vector<std::string>{"Llama 3 scaling baked at conversion"});

  const std::vector<std::string> longrope = note_topics("phi-3.5-mini-instruct.json");
  CHECK(has_topic(longrope, "LongRoPE short or long factors"));
  CHECK_FALSE(has_topic(longrope, "YaRN attention factor"));

  const std::vector<std::string> deepseek = note_topics("deepseek-v3.json");
  CHECK(has_topic(deepseek, "YaRN attention factor"));
  CHECK(has_topic(deepseek, "DeepSeek mscale on the softmax scale"));
  CHECK_FALSE(has_topic(yarn, "DeepSeek mscale on the softmax scale"));  // Qwen's YaRN has no mscale_all_dim
}

TEST_CASE("framework notes: layer schedules, local bases, partial rotary and pair layout") {
  const std::vector<std::string> scout = note_topics("llama-4-scout-17b-16e.json");
  CHECK(has_topic(scout, "NoPE layer schedule"));
  CHECK(has_topic(scout, "Llama 4 temperature tuning"));
  CHECK(has_topic(note_topics("smollm3-3b.json"), "NoPE layer schedule"));
  CHECK_FALSE(has_topic(note_topics("smollm3-3b.json"), "Llama 4 temperature tuning"));

  CHECK(has_topic(note_topics("gemma-3-12b-it.json"), "Gemma 3 local base"));
  CHECK(note_topics("phi-2.json") == std::vector<std::string>{"Partial rotary"});
  CHECK(has_topic(note_topics("glm-5.1.json"), "Pair layout"));
}

TEST_CASE("framework notes: rope_parameters read means the v5 note, in the table's order") {
  const std::vector<std::string> v5 = note_topics("rope-parameters-per-layer.json");
  REQUIRE_FALSE(v5.empty());
  CHECK(v5.front() == "rope_parameters (transformers v5)");
  CHECK(has_topic(v5, "Gemma 3 local base"));
  // A file with rope_theta at the top level does not get it.
  CHECK_FALSE(has_topic(note_topics("gemma-3-12b-it.json"), "rope_parameters (transformers v5)"));
}

TEST_CASE("framework notes: every note cites a source and says what differs") {
  for (const char* fixture : {"deepseek-v3.json", "llama-4-scout-17b-16e.json", "rope-parameters-per-layer.json"})
    for (const FrameworkNote* n : framework_notes(load_fixture_config(fixture))) {
      CHECK_FALSE(n->topic.empty());
      CHECK(n->text.size() > 40);
      CHECK(n->source.size() > 10);
    }
}
