// The window state <-> JSON: round trip, partial application, and all-or-nothing refusal.
#include <catch2/catch.hpp>

#include "app/model/page_model.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

using namespace peviz;
using namespace peviz::app;
using nlohmann::json;

TEST_CASE("state JSON round-trips every input it names") {
  AppState a;
  a.params.encoding = Encoding::binary;
  a.params.d_model = 33;
  a.params.seq_len = 700;
  a.params.base = 2.5;
  a.params.signed_bits = true;
  a.theme = Theme::light;
  a.pages.page = Page::alibi;
  a.pages.alibi.heads = 12;
  a.pages.alibi.bidirectional = true;
  a.pages.rope_clocks.rope.pairing = RopePairing::interleaved;
  a.pages.context_extension.params.factor = 8.0;
  a.pages.t5_shaw.num_buckets = 16;
  a.pages.linear_shift.k = 7;
  a.pages.precision.max_position_log2 = 12;
  const json j = state_to_json(a);

  AppState b;
  apply_state_json(j, b);
  CHECK(state_to_json(b) == j);
  CHECK(b.params.encoding == Encoding::binary);
  CHECK(b.params.d_model == 33);
  CHECK(b.params.base == 2.5);
  CHECK(b.pages.page == Page::alibi);
  CHECK(b.pages.alibi.heads == 12);
  CHECK(b.pages.rope_clocks.rope.pairing == RopePairing::interleaved);
  CHECK(b.fonts_dirty);
  CHECK(b.pages.basics.dirty.encoding);
}

TEST_CASE("a partial state changes only the keys it names") {
  AppState s;
  s.params.d_model = 64;
  s.pages.alibi.heads = 4;
  apply_state_json(json::parse(R"({"params": {"base": 500000}, "page": "rope-decay"})"), s);
  CHECK(s.params.base == 500000.0);
  CHECK(s.params.d_model == 64);
  CHECK(s.pages.alibi.heads == 4);
  CHECK(s.pages.page == Page::rope_decay);
}

TEST_CASE("the sidebar's width is clamped into the limits table's range, not refused") {
  AppState s;
  apply_state_json(json::parse(R"({"view": {"sidebar_width": 60}})"), s);
  CHECK(s.layout.sidebar_width == float(limits::sidebar_width.min));
  apply_state_json(json::parse(R"({"view": {"sidebar_width": 1e9}})"), s);
  CHECK(s.layout.sidebar_width == float(limits::sidebar_width.max));
}

TEST_CASE("every key state_to_json writes, and every key a page reads besides its table, is one peviz reads") {
  AppState s;
  CHECK_NOTHROW(apply_state_json(state_to_json(s), s));
  for (const PageModel* page : page_models())
    for (const char* key : page->extra_keys) {
      INFO(page->name << "." << key);
      json j = json::object();
      j[*page->json_key ? page->json_key : "view"][key] = nullptr;  // the key check runs before any value is read
      try {
        AppState scratch;
        apply_state_json(j, scratch);
      } catch (const ParamError& e) {
        CHECK(std::string(e.what()).find("is not a key") == std::string::npos);
      }
    }
}

TEST_CASE("a bad value anywhere leaves the state untouched and names the key") {
  const char* bad[][2] = {
      {R"({"params": {"d_model": 0}})", "d-model"},
      {R"({"params": {"d_model": 5000}})", "d-model"},  // the window range names the one spelling too
      {R"({"params": {"base": 1.0}})", "base"},
      {R"({"params": {"encoding": "fourier"}})", "encoding"},
      {R"({"params": {"seq_len": "long"}})", "seq_len"},
      {R"({"page": "nowhere"})", "page"},
      {R"({"view": {"theme": "pink"}})", "theme"},
      {R"({"alibi": {"heads": 0}})", "heads"},
      {R"({"t5_shaw": {"num_buckets": 1}})", "num_buckets"},
      {R"({"rope_clocks": {"head_dim": 7}})", "head-dim"},
      {R"({"context_extension": {"factor": 0.5}})", "factor"},
      {R"({"alibi": [1, 2]})", "alibi"},
      {R"([1, 2])", "state"},
      // Found by state_json_fuzz: numbers far outside int must be refused, not converted (UB).
      {R"({"params": {"seq_len": 300111111111111111111111111111111111111111111}})", "seq_len"},
      {R"({"params": {"seed": -1}})", "seed"},
      {R"({"params": {"d_model": 12.5}})", "d_model"},
      {R"({"view": {"ui_zoom": 1e300}})", "ui_zoom"},
      {R"({"view": {"theme": 3}})", "theme"},
      {R"({"view": {"split_x": 0.9}})", "split"},
      {R"({"view": {"split_y": "half"}})", "split_y"},
      // A key peviz does not read (a typo, another program's file) is refused by name, at every level.
      {R"({"parms": {"d_model": 64}})", "parms: is not a key of a peviz state"},
      {R"({"params": {"dmodel": 64}})", "dmodel: is not a key of the state's \"params\""},
      {R"({"view": {"zoom": 2}})", "zoom: is not a key of the state's \"view\""},
      {R"({"alibi": {"head_count": 4}})", "head_count: is not a key of the state's \"alibi\""},
      {R"({"architectures": ["LlamaForCausalLM"], "rope_theta": 500000.0})", "architectures"},
  };
  for (const auto& [text, key] : bad) {
    INFO(text);
    AppState s;
    s.params.d_model = 96;
    s.pages.page = Page::criteria;
    const json before = state_to_json(s);
    try {
      apply_state_json(json::parse(text), s);
      FAIL("accepted");
    } catch (const ParamError& e) {
      CHECK(std::string(e.what()).find(key) != std::string::npos);
    }
    CHECK(state_to_json(s) == before);
  }
}
