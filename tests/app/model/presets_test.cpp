// Tests for app/presets: every shipped preset loads and sets the values its name promises; broken
// files are listed with a reason and never applied; save -> list -> apply round trip in a temp folder.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "app/model/app_update.hpp"
#include "app/model/presets.hpp"
#include "core/base/errors.hpp"
#include "tests/build_paths.hpp"
#include "tests/temp_path.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

const fs::path kShippedPresets = fs::path(peviz::test::source_dir) / "assets" / "presets";

const PresetEntry& shipped(const std::vector<PresetEntry>& all, const char* name) {
  const PresetEntry* p = find_preset(all, name);
  INFO(name);
  REQUIRE(p != nullptr);
  return *p;
}

// Scoped XDG_CONFIG_HOME.
struct ConfigHome {
  std::string old;
  bool had = false;
  explicit ConfigHome(const fs::path& dir) {
    if (const char* v = std::getenv("XDG_CONFIG_HOME")) old = v, had = true;
    setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  }
  ~ConfigHome() { had ? (void)setenv("XDG_CONFIG_HOME", old.c_str(), 1) : (void)unsetenv("XDG_CONFIG_HOME"); }
};

}  // namespace

TEST_CASE("every shipped preset loads and validates") {
  const auto all = list_presets(kShippedPresets, {});
  REQUIRE(all.size() >= 9);
  for (const PresetEntry& p : all) {
    INFO(p.path << ": " << p.error);
    CHECK(p.error.empty());
    CHECK_FALSE(p.name.empty());
    CHECK_FALSE(p.description.empty());
    CHECK_FALSE(p.user);
    AppState s;
    CHECK(apply_preset(p, s));
    CHECK(s.teach.notice == "Preset: " + p.name);
  }
}

TEST_CASE("shipped presets set the models' values") {
  const auto all = list_presets(kShippedPresets, {});
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "lab-default"), s));
    const LabOptions& o = s.pages.lab;
    CHECK(s.pages.page == Page::lab);
    CHECK(o.compare == std::array<bool, kLabEncodings>{true, true, true, true, true, true});
    const train::TrainSettings defaults;  // the preset states the lab's defaults
    CHECK(o.settings.layers == defaults.layers);
    CHECK(o.settings.heads == defaults.heads);
    CHECK(o.settings.d_model == defaults.d_model);
    CHECK(o.settings.batch == defaults.batch);
    CHECK(o.settings.steps == defaults.steps);
    CHECK(o.settings.train_max == defaults.train_max);
    CHECK(o.settings.test_max == defaults.test_max);
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "lab-t5-larger"), s));
    const LabOptions& o = s.pages.lab;
    CHECK(o.compare == std::array<bool, kLabEncodings>{true, false, false, true, false, true});  // NoPE, RoPE, T5
    CHECK(o.settings.layers == 4);
    CHECK(o.settings.heads == 4);
    CHECK(o.settings.d_model == 128);
    CHECK(o.attention_pe == 5);  // T5's maps
    CHECK(o.attention_length == 25);
  }
  {
    // The tuned addition setting, for Train: the shipped copy runs stay on the page, and the empty charts say why.
    AppState s;
    REQUIRE(apply_preset(shipped(all, "lab-addition-tuned"), s));
    const LabOptions& o = s.pages.lab;
    CHECK(o.settings.task == train::Task::add);
    CHECK(o.settings.rope_base == 1e7);
    CHECK(o.settings.batch == 64);
    CHECK(o.settings.length_scale == train::LengthScale::ssmax);
    CHECK(lab_settings(o).size() == 5u);  // coupled-rope, five seeds
    s.pages.mark(Page::lab);
    update_app_state(s);
    CHECK(o.views.size() == 18u);  // the shipped experiment: six encodings, three seeds
    CHECK(o.series.empty());
    CHECK(o.unticked_note == "No ticked encoding is among these runs (nope, sinusoidal, learned, rope, alibi, t5): "
                             "tick one to chart it, or press Train.");
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "MPT-7B"), s));
    CHECK(s.pages.alibi.heads == 32);
    CHECK(s.pages.page == Page::alibi);
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "llama-3.1-8b"), s));  // by file stem
    const ContextExtensionParams& c = s.pages.context_extension.params;
    CHECK(c.rope.base == 500000.0);
    CHECK(c.factor == 8.0);
    CHECK(c.original_len == 8192);
    CHECK(c.target_len == 131072);  // from the shipped config.json: the preset names the model only
    CHECK(s.pages.context_extension.from_model);
    CHECK(s.pages.rope_model.model->name == "llama-3.1-8b-instruct");
    CHECK(s.pages.rope_model.note == default_rope_model_preset().note);
    CHECK(s.pages.rope_clocks.rope.base == 500000.0);
    CHECK(s.pages.page == Page::context_extension);
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "Llama-2 7B"), s));
    CHECK(s.pages.context_extension.from_model);
    CHECK(s.pages.rope_model.model->name == "meta-llama/Llama-2-7b-hf");
    CHECK(s.pages.context_extension.params.factor == 1.0);  // ships without scaling
    CHECK(s.pages.rope_clocks.rope.head_dim == 128);
    CHECK(s.pages.context_extension.params.original_len == 4096);
    CHECK(s.pages.page == Page::rope_clocks);
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "Qwen2.5 7B (YaRN)"), s));
    CHECK(s.pages.context_extension.params.rope.base == 1e6);
    CHECK(s.pages.context_extension.params.factor == 4.0);
    CHECK(s.pages.context_extension.params.original_len == 32768);
    CHECK(s.pages.context_extension.from_model);
    CHECK(s.pages.rope_model.model->name == "qwen2.5-7b-instruct-yarn");
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "GPT-2"), s));
    CHECK(s.params.encoding == Encoding::learned);
    CHECK(s.params.d_model == 768);
    CHECK(s.params.max_len == 1024);
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "BERT-base"), s));
    CHECK(s.params.max_len == 512);
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "transformer-base"), s));
    CHECK(s.params.encoding == Encoding::sinusoidal);
    CHECK(s.params.d_model == 512);
    CHECK(s.params.base == 10000.0);
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "T5"), s));
    CHECK(s.pages.t5_shaw.num_buckets == 32);
    CHECK(s.pages.t5_shaw.max_distance == 128);
    CHECK(s.pages.page == Page::t5_shaw);
  }
  {
    AppState s;
    REQUIRE(apply_preset(shipped(all, "Binary analogy"), s));
    CHECK(s.params.d_model == 16);
    CHECK(s.params.base == 256.0);
    CHECK(s.pages.page == Page::basics);
  }
}

TEST_CASE("broken preset files are listed with the reason and never applied") {
  const fs::path dir = fresh_temp_dir("presets-broken");
  std::ofstream(dir / "a-truncated.json") << R"({"name": "Cut", "description": "x", "state": {"params": {"d_model": 6)";
  std::ofstream(dir / "b-wrong-type.json") << R"({"name": "Typed", "description": "x", "state": {"params": {"d_model": "big"}}})";
  std::ofstream(dir / "c-unknown-page.json") << R"({"name": "Paged", "description": "x", "state": {"page": "nowhere"}})";
  std::ofstream(dir / "d-zero-d.json") << R"({"name": "Zero", "description": "x", "state": {"params": {"d_model": 0}}})";
  std::ofstream(dir / "e-no-state.json") << R"({"name": "Stateless", "description": "x"})";
  std::ofstream(dir / "f-no-name.json") << R"({"description": "x", "state": {}})";
  std::ofstream(dir / "g-good.json") << R"({"name": "Good", "description": "fine", "state": {"params": {"d_model": 32}}})";
  std::ofstream(dir / "notes.txt") << "not a preset";
  const auto all = list_presets(dir, {});
  REQUIRE(all.size() == 7);
  const std::pair<const char*, const char*> expected[] = {
      {"a-truncated.json", "not valid JSON"}, {"b-wrong-type.json", "d_model"}, {"c-unknown-page.json", "page"},
      {"d-zero-d.json", "d-model"},            {"e-no-state.json", "state"},    {"f-no-name.json", "name"}};
  for (std::size_t i = 0; i < 6; ++i) {
    INFO(all[i].path << ": " << all[i].error);
    CHECK(all[i].error.find(expected[i].first) == 0);  // names the file first
    CHECK(all[i].error.find(expected[i].second) != std::string::npos);
    AppState s;
    CHECK_FALSE(apply_preset(all[i], s));
    CHECK(s.teach.notice_is_error);
    CHECK(s.params.d_model == 128);  // untouched
  }
  CHECK(all[6].error.empty());
  CHECK(find_preset(all, "zero") == nullptr);  // broken presets cannot be picked by name
  CHECK(find_preset(all, "good") == &all[6]);
  CHECK(read_preset_file(dir / "missing.json", false).error.find("cannot be read") != std::string::npos);
}

TEST_CASE("a user preset saves, lists and loads back") {
  const fs::path config = fresh_temp_dir("presets-user");
  ConfigHome home(config);
  REQUIRE(user_presets_dir() == config / "peviz" / "presets");
  AppState s;
  s.params.d_model = 48;
  s.params.base = 321.0;
  s.pages.alibi.heads = 16;
  s.pages.page = Page::alibi;
  s.theme = Theme::light;
  s.ui_zoom = 2.0f;
  const fs::path path = save_user_preset("My lecture: part 2", s, user_presets_dir());
  CHECK(path == config / "peviz" / "presets" / "my-lecture-part-2.json");
  CHECK_FALSE(fs::exists(path.string() + ".tmp"));

  const auto all = list_presets(kShippedPresets, user_presets_dir());
  const PresetEntry* p = find_preset(all, "My lecture: part 2");
  REQUIRE(p != nullptr);
  CHECK(p->user);
  CHECK_FALSE(p->state.at("view").contains("theme"));  // the window's look is not part of a preset
  CHECK_FALSE(p->state.at("view").contains("ui_zoom"));
  AppState t;
  REQUIRE(apply_preset(*p, t));
  CHECK(t.params.d_model == 48);
  CHECK(t.params.base == 321.0);
  CHECK(t.pages.alibi.heads == 16);
  CHECK(t.pages.page == Page::alibi);
  CHECK(t.theme == Theme::dark);
  CHECK(t.ui_zoom == 1.0f);
}

TEST_CASE("preset names become safe file names") {
  CHECK(preset_file_stem("Llama 3.1 / 8B!") == "llama-3-1-8b");
  CHECK(preset_file_stem("../../etc") == "etc");
  CHECK(preset_file_stem("  ***  ").empty());
  AppState s;
  CHECK_THROWS_AS(save_user_preset("***", s, fresh_temp_dir("presets-bad-name")), ParamError);
}
