// Test helper for the settings tables: for a declared setting, a value of its type other than its default that the
// page takes on its own (as text and as the state JSON then holds it).
#pragma once
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/page_model.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"

namespace peviz::test {

// Values to try as text, of the setting's type: its range's ends and points between, the choices, the other flag.
inline std::vector<std::string> setting_candidates(const app::PageSetting& s, const nlohmann::json& now) {
  using app::SettingType;
  if (s.access.type == SettingType::flag) return {now.get<bool>() ? "false" : "true"};
  if (s.access.type == SettingType::text) return {"1,2"};
  if (s.access.type == SettingType::choice) {
    const std::vector<std::string_view> names = s.access.choices();
    return {names.begin(), names.end()};
  }
  const double lo = s.limit ? (s.full_range ? s.limit->min : s.limit->window_lo()) : 0.0;
  const double hi = s.limit ? std::min(s.full_range ? s.limit->max : s.limit->window_hi(), 1e6) : 8.0;
  std::vector<std::string> out;
  for (double f : {0.5, 0.25, 0.75, 0.0, 1.0, 0.1, 0.9}) {
    double v = lo + f * (hi - lo);
    if (s.access.type == SettingType::integer) v = std::round(v);
    if (s.limit && s.limit->min_exclusive && v <= s.limit->min) continue;
    out.push_back(app::setting_text(nlohmann::json(v)));
  }
  for (int small : {2, 4, 8, 16, 1, 0}) out.push_back(std::to_string(small));
  return out;
}

struct SettingValue {
  std::string text;          // as a user types it (--set, the link)
  nlohmann::json value;      // as the state JSON then holds it
  app::AppState state;       // a default window with it applied
};

// The first candidate that a default window takes alone and that changes the setting; nullopt when none does.
inline std::optional<SettingValue> other_setting_value(const app::PageModel& page, const app::PageSetting& s) {
  const nlohmann::json before = app::state_to_json(app::AppState{}).at(page.json_key).at(s.key);
  for (const std::string& text : setting_candidates(s, before)) {
    SettingValue v{text, {}, {}};
    v.state.pages.page = *app::parse_page(page.name);
    nlohmann::json patch = nlohmann::json::object();
    app::put_setting(patch, {&page, &s}, text);
    try {
      app::apply_state_json(patch, v.state);
    } catch (const ParamError&) {
      continue;  // a value another setting constrains
    }
    v.value = app::state_to_json(v.state).at(page.json_key).at(s.key);
    if (v.value != before) return v;
  }
  return std::nullopt;
}

}  // namespace peviz::test
