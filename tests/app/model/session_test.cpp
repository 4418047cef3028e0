// Tests for app/session: the per-user path, a round trip, and bad files being ignored.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/model/session.hpp"
#include "tests/temp_path.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;

TEST_CASE("the session lives in the XDG config folder, never the working directory") {
  const char* old = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CONFIG_HOME", "/some/where", 1);
  CHECK(session_path() == fs::path("/some/where/peviz/session.json"));
  unsetenv("XDG_CONFIG_HOME");
  if (const char* home = std::getenv("HOME")) CHECK(session_path() == fs::path(home) / ".config/peviz/session.json");
  if (old) setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
}

TEST_CASE("a saved session loads back") {
  const fs::path path = fresh_temp_dir("session-roundtrip") / "peviz" / "session.json";
  AppState s;
  s.params.encoding = Encoding::learned;
  s.params.d_model = 77;
  s.params.seq_len = 333;
  s.params.base = 500000.0;
  s.params.seed = 42;
  s.theme = Theme::light;
  s.ui_zoom = 1.5f;
  s.layout.split_x = 0.3f;
  s.pages.basics.waves.channels_text = "0, 2";
  s.pages.basics.waves.first_position = 5;
  s.pages.basics.waves.last_position = 60;
  s.pages.basics.similarity_view.metric = Metric::dot;
  s.pages.basics.binary_view.morph = 0.25f;
  s.recent_files = {"/figs/b.png", "/models/config.json"};
  std::string problem;
  REQUIRE(save_session(path, s, {1234, 777}, problem));
  AppState t;
  WindowSize size;
  REQUIRE(load_session(path, t, size, problem));
  CHECK(t.params.encoding == Encoding::learned);
  CHECK(t.params.d_model == 77);
  CHECK(t.params.seq_len == 333);
  CHECK(t.params.base == 500000.0);
  CHECK(t.params.seed == 42);
  CHECK(t.theme == Theme::light);
  CHECK(t.ui_zoom == 1.5f);
  CHECK(t.layout.split_x == 0.3f);
  CHECK(t.pages.basics.waves.channels_text == "0, 2");
  CHECK(t.pages.basics.waves.first_position == 5);
  CHECK(t.pages.basics.waves.last_position == 60);
  CHECK(t.pages.basics.similarity_view.metric == Metric::dot);
  CHECK(t.pages.basics.binary_view.morph == 0.25f);
  CHECK(size.width == 1234);
  CHECK(size.height == 777);
  CHECK(t.pages.basics.dirty.encoding);
  CHECK(t.recent_files == std::vector<std::string>{"/figs/b.png", "/models/config.json"});
}

TEST_CASE("a missing file changes nothing; a broken or invalid one is ignored with a reason") {
  const fs::path dir = fresh_temp_dir("session-bad");
  AppState s;
  WindowSize size;
  std::string problem;
  CHECK(load_session(dir / "none.json", s, size, problem));
  CHECK(problem.empty());
  std::ofstream(dir / "broken.json") << "{ not json";
  CHECK_FALSE(load_session(dir / "broken.json", s, size, problem));
  CHECK(problem.find("ignored") != std::string::npos);
  AppState good;
  good.params.d_model = 0;  // invalid: core's validate rejects it on load
  save_session(dir / "invalid.json", good, size, problem);
  problem.clear();
  AppState t;
  CHECK_FALSE(load_session(dir / "invalid.json", t, size, problem));
  CHECK(problem.find("d-model") != std::string::npos);
  std::ofstream(dir / "bad-recent.json") << R"({"params": {}, "recent_files": "not a list"})";
  t.recent_files = {"/kept.png"};
  CHECK_FALSE(load_session(dir / "bad-recent.json", t, size, problem));
  CHECK(t.recent_files == std::vector<std::string>{"/kept.png"});
  CHECK(t.params.d_model == 128);  // defaults kept
}

TEST_CASE("a session without the newer view keys still loads, with their defaults") {
  const fs::path dir = fresh_temp_dir("session-old");
  std::ofstream(dir / "old.json") << R"({"version":1,
    "params":{"encoding":"binary","layout":"halves","d_model":12,"seq_len":64,"base":100,"seed":1,"max_len":10,"signed_bits":true},
    "view":{"theme":"light"}, "window":{"width":800,"height":600}})";
  AppState s;
  WindowSize size;
  std::string problem;
  REQUIRE(load_session(dir / "old.json", s, size, problem));
  CHECK(s.params.encoding == Encoding::binary);
  CHECK(s.params.signed_bits);
  CHECK(s.theme == Theme::light);
  CHECK(s.layout.split_x == ViewLayout{}.split_x);
  CHECK(s.pages.basics.waves.last_position == -1);
  CHECK(size.width == 800);
}
