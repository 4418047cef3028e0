// Tests for app/model/page_settings: every declared setting of every page round-trips through the state JSON and the
// address bar, is refused out of range with the limits table's message, and starts at its limit's default.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "app/model/app_update.hpp"
#include "app/model/page_model.hpp"
#include "app/model/state_json.hpp"
#include "app/model/view_link.hpp"
#include "tests/app/model/page_setting_values.hpp"
#include "core/base/errors.hpp"

using namespace peviz;
using namespace peviz::app;
using nlohmann::json;

namespace {

struct Named {
  const PageModel* page;
  const PageSetting* setting;
  std::string name() const { return std::string(page->name) + "." + setting->key; }
};

std::vector<Named> every_setting() {
  std::vector<Named> all;
  for (const PageModel* page : page_models())
    for (const PageSetting& s : page->settings) all.push_back({page, &s});
  return all;
}

const json& value_in(const json& state, const Named& n) { return state.at(n.page->json_key).at(n.setting->key); }

}  // namespace

TEST_CASE("every declared setting round-trips through the state JSON and the address bar by its name") {
  for (const Named& n : every_setting()) {
    CAPTURE(n.name());
    const std::optional<peviz::test::SettingValue> v = peviz::test::other_setting_value(*n.page, *n.setting);
    REQUIRE(v);  // some value of its type other than the default is taken
    const json& after = v->value;
    const AppState* s = &v->state;
    CHECK(after == setting_value(*n.setting, setting_text(after)));  // the typed text reads back as the same value
    // The state JSON, then the link: the same state, the setting named as itself (bare on its page).
    AppState from_json;
    apply_state_json(json::parse(state_to_json(*s).dump()), from_json);
    CHECK(state_to_json(from_json) == state_to_json(*s));
    const std::string link = view_link(*s);
    INFO(link);
    if (n.setting->in_link) CHECK(link.find("&" + std::string(n.setting->key) + "=") != std::string::npos);
    AppState from_link;
    CHECK(apply_view_link(link, from_link).empty());
    CHECK(state_to_json(from_link) == state_to_json(*s));
  }
}

TEST_CASE("a setting on another page is named page.key in the link, and read back so") {
  AppState s;
  s.pages.page = Page::basics;
  s.pages.alibi.heads = 12;
  s.pages.rope_clocks.position = 3.5;
  const std::string link = view_link(s);
  CHECK(link == "view=basics&rope-clocks.position=3.5&alibi.heads=12");
  AppState t;
  CHECK(apply_view_link("view=alibi&heads=16&rope-clocks.position=7", t).empty());
  CHECK(t.pages.alibi.heads == 16);
  CHECK(t.pages.rope_clocks.position == 7.0);
  // A bare key of another page's table is unknown on this page.
  CHECK(apply_view_link("view=basics&per_head_scale=1", t) == "link: unknown key per_head_scale (on another page: page.key)");
}

TEST_CASE("every setting with a limit refuses a value outside its range with the limits table's message") {
  for (const Named& n : every_setting()) {
    const PageSetting& s = *n.setting;
    if (!s.limit || (s.access.type != SettingType::integer && s.access.type != SettingType::real)) continue;
    CAPTURE(n.name());
    const double lo = s.full_range ? s.limit->min : s.limit->window_lo();
    const double hi = s.full_range ? s.limit->max : s.limit->window_hi();
    const bool open_below = s.limit->min_exclusive && lo == s.limit->min;  // "> 1": the bound itself is outside
    std::vector<double> outside = {open_below ? lo : lo - 1};
    if (hi < 1e9) outside.push_back(hi + 1);
    for (double v : outside) {
      CAPTURE(v);
      std::string expected;  // the limits table's own words for it
      try {
        if (s.access.type == SettingType::integer)
          s.full_range ? check_int(*s.limit, (long long)v) : check_window_int(*s.limit, (long long)v);
        else
          s.full_range ? check_real(*s.limit, v) : check_window_real(*s.limit, v);
      } catch (const ParamError& e) {
        expected = e.rule;
      }
      REQUIRE_FALSE(expected.empty());
      json patch = json::object();
      patch[n.page->json_key][s.key] = s.access.type == SettingType::integer ? json((long long)v) : json(v);
      AppState state;
      try {
        apply_state_json(patch, state);
        FAIL("accepted " << v);
      } catch (const ParamError& e) {
        CHECK(e.param == s.key);
        CHECK(e.rule == expected);
      }
    }
  }
}

TEST_CASE("a setting with a limit starts at the limit's default (the model's knobs at the default model's)") {
  const json defaults = state_to_json(AppState{});
  for (const Named& n : every_setting()) {
    if (!n.setting->limit || n.setting->knob) continue;
    CAPTURE(n.name());
    CHECK(value_in(defaults, n).get<double>() == Approx(n.setting->limit->fallback));
  }
}

TEST_CASE("typed text: integers, numbers, switches and names, refused in the setting's words") {
  const PageSettingRef heads = find_page_setting("alibi.heads");
  REQUIRE(heads.setting);
  CHECK(setting_value(*heads.setting, "12") == json(12));
  CHECK_THROWS_WITH(setting_value(*heads.setting, "12x"), "heads: must be an integer in [1, 64], got 12x");
  const PageSettingRef causal = find_page_setting("t5-shaw.causal");
  REQUIRE(causal.setting);
  CHECK(setting_value(*causal.setting, "") == json(true));
  CHECK(setting_value(*causal.setting, "0") == json(false));
  CHECK_THROWS_WITH(setting_value(*causal.setting, "maybe"), "causal: must be true or false, got maybe");
  const PageSettingRef base = find_page_setting("rope-clocks.base");
  REQUIRE(base.setting);
  CHECK(setting_value(*base.setting, "5e5") == json(500000.0));
  CHECK(setting_range_text(*base.setting) == "a number > 1");
  CHECK(setting_text(json(1e7)) == "10000000");
  CHECK_FALSE(find_page_setting("alibi.nope").setting);
  CHECK_FALSE(find_page_setting("heads").setting);
}

TEST_CASE("shared flags: one name, every page's setting of it") {
  for (const auto& [name, refs] : shared_page_flags()) {
    CAPTURE(name);
    for (const PageSettingRef& ref : refs) CHECK(setting_flag_name(*ref.setting) == name);
  }
  const auto flags = shared_page_flags();
  const auto seq_len = std::find_if(flags.begin(), flags.end(), [](const auto& f) { return f.first == "seq-len"; });
  REQUIRE(seq_len != flags.end());
  std::vector<std::string> pages;
  for (const PageSettingRef& ref : seq_len->second) pages.emplace_back(ref.page->name);
  CHECK(pages == std::vector<std::string>{"alibi", "t5-shaw", "distance"});
}

TEST_CASE("a figure's caption names every setting its table says it shows") {
  for (const Named& n : every_setting()) {
    if (!n.page->caption || !n.setting->in_caption) continue;
    CAPTURE(n.name());
    const auto v = peviz::test::other_setting_value(*n.page, *n.setting);
    REQUIRE(v);
    AppState before;
    before.pages.page = v->state.pages.page;
    update_app_state(before);
    AppState after = v->state;
    update_app_state(after);
    CHECK(n.page->caption(before) != n.page->caption(after));
  }
}
