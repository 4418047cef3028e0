// Tests for app/model/view_link: exact fragments, round trips for every page, and refusals that name the key.
#include <catch2/catch.hpp>

#include "app/model/app_update.hpp"
#include "app/model/page_model.hpp"
#include "app/model/state_json.hpp"
#include "app/model/view_link.hpp"
#include "tests/build_paths.hpp"

using namespace peviz;
using namespace peviz::app;
using nlohmann::json;

namespace {

// `s`'s link applied to a fresh window: nothing refused, and the same state JSON.
void check_round_trip(const AppState& s) {
  const std::string link = view_link(s);
  INFO(link);
  AppState t;
  CHECK(apply_view_link(link, t).empty());
  CHECK(state_to_json(t) == state_to_json(s));
}

}  // namespace

TEST_CASE("a default window's link names only its page") {
  CHECK(view_link(AppState{}) == "view=basics");
}

TEST_CASE("the link writes readable keys for the page and the sidebar's parameters that differ") {
  AppState s;
  s.pages.page = Page::alibi;
  CHECK(view_link(s) == "view=alibi");

  AppState p;
  p.params.d_model = 64;
  p.params.base = 100;
  p.params.seq_len = 256;
  CHECK(view_link(p) == "view=basics&d_model=64&base=100&seq_len=256");

  p.theme = Theme::light;
  p.params.encoding = Encoding::binary;
  p.params.base = 2.5;
  CHECK(view_link(p) == "view=basics&theme=light&encoding=binary&d_model=64&base=2.5&seq_len=256");
}

TEST_CASE("everything else that differs goes into one percent-encoded state object of changed leaves") {
  AppState s;
  s.pages.page = Page::alibi;
  s.pages.alibi.heads = 16;
  s.params.layout = Layout::halves;
  // The page's declared setting by its name; the sidebar's layout, which has no link key, in state=.
  CHECK(view_link(s) == "view=alibi&heads=16&state=%7B%22params%22%3A%7B%22layout%22%3A%22halves%22%7D%7D");
}

TEST_CASE("every page's link reopens that page") {
  for (const PageModel* page : page_models()) {
    INFO(page->name);
    AppState s;
    s.pages.page = *parse_page(page->name);
    CHECK(view_link(s) == std::string("view=") + page->name);
    check_round_trip(s);
    AppState t;
    apply_view_link(view_link(s), t);
    CHECK(t.pages.page == s.pages.page);
  }
}

TEST_CASE("a link round-trips parameters, the theme and a page's finer options") {
  // The readable keys, and state leaves in the params, the view and two pages (state_json_test covers the JSON).
  AppState s;
  s.pages.page = Page::alibi;
  s.params = {.encoding = Encoding::binary, .d_model = 33, .seq_len = 700, .base = 2.5, .signed_bits = true};
  s.theme = Theme::light;
  s.layout.panel = BasicsPanel::similarity;
  s.pages.alibi.heads = 12;
  s.pages.rope_clocks.rope.pairing = RopePairing::interleaved;
  check_round_trip(s);

  AppState t;
  REQUIRE(apply_view_link("#" + view_link(s), t).empty());  // the leading '#' of location.hash is fine
  CHECK(t.pages.alibi.heads == 12);
  CHECK(t.pages.rope_clocks.rope.pairing == RopePairing::interleaved);
  CHECK(t.params.signed_bits);
  CHECK(t.params.base == 2.5);
  CHECK(t.theme == Theme::light);
  CHECK(t.layout.panel == BasicsPanel::similarity);
}

TEST_CASE("readable keys apply and percent escapes decode") {
  AppState s;
  CHECK(apply_view_link("view=basics&encoding=binary&d_model=64&base=100.5&seq_len=256", s).empty());
  CHECK(s.params.encoding == Encoding::binary);
  CHECK(s.params.d_model == 64);
  CHECK(s.params.base == 100.5);
  CHECK(s.params.seq_len == 256);
  // On a page that declares a setting of the same name, the bare key is the page's (its sidebar hides the encoding).
  CHECK(apply_view_link("view=rope%2Dclocks&base=500000", s).empty());
  CHECK(s.pages.page == Page::rope_clocks);
  CHECK(s.pages.rope_clocks.rope.base == 500000.0);
  CHECK(s.params.base == 10000.0);  // a link is the whole view: the sidebar's base it does not name is the default
  CHECK(apply_view_link("&&theme=light&", s).empty());  // empty pairs are skipped
  CHECK(s.theme == Theme::light);
}

TEST_CASE("a link is the whole view: what it does not name is the default, and a lesson ends") {
  AppState s;
  REQUIRE(apply_view_link("view=alibi&theme=light&base=100&heads=16&rope-clocks.position=7", s).empty());
  REQUIRE(apply_view_link("lesson=positional-encodings&step=2&present", s).empty());
  REQUIRE(s.teach.lesson_active);
  CHECK(apply_view_link("view=alibi&d_model=64", s).empty());
  CHECK(!s.teach.lesson_active);
  CHECK(!s.teach.presenting);
  CHECK(view_link(s) == "view=alibi&d_model=64");
  CHECK(state_to_json(s) == state_to_json([] {
          AppState t;
          t.pages.page = Page::alibi;
          t.params.d_model = 64;
          return t;
        }()));
  // An empty fragment (a page opened without one; the desktop) changes nothing.
  CHECK(apply_view_link("", s).empty());
  CHECK(s.params.d_model == 64);
}

TEST_CASE("an out-of-range d_model is refused with the window's range; the other keys still apply") {
  AppState s;
  const json before = state_to_json(s)["params"];
  CHECK(apply_view_link("d_model=99999", s) == "link: d_model must be an integer in [1, 4096], got 99999");
  CHECK(state_to_json(s)["params"] == before);

  CHECK(apply_view_link("d_model=5000&view=alibi", s) == "link: d_model must be an integer in [1, 4096], got 5000");
  CHECK(s.params.d_model == 128);
  CHECK(s.pages.page == Page::alibi);
}

TEST_CASE("numbers are read strictly") {
  AppState s;
  CHECK(apply_view_link("d_model=64abc", s) == "link: d_model must be an integer, got 64abc");
  CHECK(apply_view_link("d_model=+64", s) == "link: d_model must be an integer, got +64");
  CHECK(apply_view_link("seq_len=", s) == "link: seq_len must be an integer, got ");
  CHECK(apply_view_link("base=1e3x", s) == "link: base must be a finite number, got 1e3x");
  CHECK(apply_view_link("base=inf", s) == "link: base must be a finite number, got inf");
  CHECK(s.params.d_model == 128);
  CHECK(s.params.seq_len == 128);
  CHECK(s.params.base == 10000);
}

TEST_CASE("unknown keys, bad escapes and refused values each name themselves on one line") {
  AppState s;
  CHECK(apply_view_link("view=alibi&foo=1", s) == "link: unknown key foo");
  CHECK(s.pages.page == Page::alibi);
  CHECK(apply_view_link("view=%zz", s) == "link: malformed percent escape in view=%zz");
  CHECK(apply_view_link("view=ab%4", s) == "link: malformed percent escape in view=ab%4");
  CHECK(s.pages.page == Page::alibi);
  // '+' stays a plus; the refusals come in the order the keys apply.
  CHECK(apply_view_link("encoding=a+b&theme=grey", s) ==
        "link: theme must be dark or light, got grey; encoding must be " + encoding_names() + ", got a+b");
  CHECK(apply_view_link("view=nowhere", s) == "link: view must be one of " + page_names() + ", got nowhere");
  CHECK(apply_view_link("present=0%0Ax", s) == "link: present must be bare or 1, got 0 x");  // still one line
}

TEST_CASE("a wholly malformed fragment leaves the window as it was") {
  AppState s;
  s.params.d_model = 64;
  const json before = state_to_json(s);
  CHECK(apply_view_link("%&=%zz&nope&d_model=x", s) ==
        "link: malformed percent escape in %; malformed percent escape in =%zz; unknown key nope; "
        "d_model must be an integer, got x");
  CHECK(state_to_json(s) == before);
  CHECK_FALSE(s.teach.presenting);
}

TEST_CASE("a state object is applied all or nothing") {
  AppState s;
  CHECK(apply_view_link("state=%7B%22alibi%22%3A%7B%22heads%22%3A16%7D%7D", s).empty());
  CHECK(s.pages.alibi.heads == 16);
  // {"alibi":{"heads":24,"seq_len":1}}: the length is out of range, so the heads do not change either.
  const std::string refused =
      apply_view_link("state=%7B%22alibi%22%3A%7B%22heads%22%3A24%2C%22seq_len%22%3A1%7D%7D", s);
  CHECK(refused.rfind("link: state: ", 0) == 0);
  CHECK(refused.find("seq_len") != std::string::npos);
  CHECK(s.pages.alibi.heads == 16);
  CHECK(apply_view_link("state=%5B1%5D", s) == "link: state must be a JSON object");
  CHECK(apply_view_link("state=%7B", s) == "link: state must be a JSON object");
}

TEST_CASE("a preset by name, then the link's own keys on top") {
  AppState s;
  CHECK(apply_view_link("preset=gpt-2&seq_len=512", s).empty());
  CHECK(s.params.encoding == Encoding::learned);
  CHECK(s.params.d_model == 768);
  CHECK(s.params.max_len == 1024);
  CHECK(s.params.seq_len == 512);
  CHECK(apply_view_link("preset=no-such-preset", s) == "link: preset: no usable preset named no-such-preset");
}

TEST_CASE("a lesson by name starts at its step; a path is refused") {
  AppState s;
  CHECK(apply_view_link("lesson=positional-encodings&step=3", s).empty());
  REQUIRE(s.teach.lesson_active);
  CHECK(s.teach.step == 2);  // 0-based
  CHECK(s.params.encoding == Encoding::binary);
  CHECK(s.params.d_model == 8);
  CHECK(s.layout.panel == BasicsPanel::binary);

  AppState t;
  CHECK(apply_view_link("lesson=positional-encodings&view=alibi", t).empty());
  CHECK(t.teach.step == 0);
  CHECK(t.pages.page == Page::alibi);  // the link's page over the step's

  AppState u;
  const std::string path = std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json";
  CHECK(apply_view_link("lesson=" + path, u) == "link: lesson: no lesson named " + path);
  CHECK(apply_view_link("lesson=positional-encodings&step=0", u) == "link: step must be an integer >= 1, got 0");
  CHECK(u.teach.step == 0);
  CHECK(apply_view_link("step=2", u) == "link: step needs a lesson");
}

TEST_CASE("present enters presentation mode, bare or =1") {
  AppState s;
  CHECK(apply_view_link("present", s).empty());
  CHECK(s.teach.presenting);
  CHECK(s.theme == Theme::light);
  CHECK(s.ui_zoom >= 1.5f);

  AppState t;
  CHECK(apply_view_link("present=1&theme=dark", t).empty());  // the link's theme applies after presenting's
  CHECK(t.teach.presenting);
  CHECK(t.theme == Theme::dark);
}


TEST_CASE("a link written during a lesson reopens the tour at its step, presenting") {
  peviz::app::AppState s;
  REQUIRE(peviz::app::apply_view_link("lesson=positional-encodings&step=4&present", s).empty());
  REQUIRE(s.teach.lesson_active);
  CHECK(peviz::app::view_link(s) == "lesson=positional-encodings&step=4&present");
  peviz::app::AppState reopened;
  REQUIRE(peviz::app::apply_view_link(peviz::app::view_link(s), reopened).empty());
  CHECK(reopened.teach.step == 3);
  CHECK(reopened.teach.presenting);
  CHECK(peviz::app::state_to_json(reopened) == peviz::app::state_to_json(s));
}

TEST_CASE("a Lab link's encodings and seeds stay when the shipped experiment shows on the first visit") {
  AppState s;
  // {"lab":{"encodings":["nope","alibi"]}}
  REQUIRE(apply_view_link("view=lab&seeds=2&state=%7B%22lab%22%3A%7B%22encodings%22%3A%5B%22nope%22%2C%22alibi%22%5D%7D%7D",
                          s).empty());
  update_app_state(s);
  CHECK(s.pages.lab.opened_shipped == "default-copy");  // its runs are shown
  CHECK(!s.pages.lab.views.empty());
  CHECK(s.pages.lab.seeds == 2);
  CHECK(view_link(s).find("encodings") != std::string::npos);
  std::size_t k = 0;
  for (const train::LabEncodingInfo& e : train::kLabEncodings) {
    INFO(e.name);
    CHECK(s.pages.lab.compare[k++] == (e.name == "nope" || e.name == "alibi"));
  }
}
