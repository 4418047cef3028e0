// A page's settings table: reading, writing and typed text (see page_settings.hpp).
#include "app/model/page_settings.hpp"

#include <charconv>
#include <cmath>
#include <optional>

#include <map>

#include "app/model/page_model.hpp"
#include "core/io/float_chars.hpp"

namespace peviz::app {

using nlohmann::json;

namespace {

// Checks the value just read against the setting's limit; the refusal names the key, not the limit.
void check_limit(const PageSetting& s, const json& v) {
  if (!s.limit) return;
  const Limit& l = *s.limit;
  if (s.access.type == SettingType::integer) {
    const long long n = v.get<long long>();
    s.full_range ? check_int(l, n) : check_window_int(l, n);
  } else if (s.access.type == SettingType::real) {
    const double x = v.get<double>();
    s.full_range ? check_real(l, x) : check_window_real(l, x);
  }
}

}  // namespace

void read_settings(const json& j, PageStates& a, std::span<const PageSetting> table, bool skip_knobs) {
  for (const PageSetting& s : table) {
    if ((skip_knobs && s.knob) || !j.is_object() || !j.contains(s.key)) continue;
    try {
      s.access.read(a, j, s.key);
      check_limit(s, s.access.get(a));
    } catch (const ParamError& e) {
      if (e.param == s.key) throw;
      throw ParamError(s.key, e.rule);
    }
  }
}

json write_settings(const PageStates& a, std::span<const PageSetting> table) {
  json j = json::object();
  for (const PageSetting& s : table) j[s.key] = s.access.get(a);
  return j;
}

std::vector<const char*> knob_keys(std::span<const PageSetting> table) {
  std::vector<const char*> keys;
  for (const PageSetting& s : table)
    if (s.knob) keys.push_back(s.key);
  return keys;
}

const PageSetting* find_setting(std::span<const PageSetting> table, std::string_view key) {
  for (const PageSetting& s : table)
    if (key == s.key) return &s;
  return nullptr;
}

json setting_value(const PageSetting& s, std::string_view text) {
  switch (s.access.type) {
    case SettingType::integer:
      if (const auto v = parse_whole<long long>(text)) return *v;
      break;
    case SettingType::real:
      if (const auto v = parse_whole<double>(text); v && std::isfinite(*v)) return *v;
      break;
    case SettingType::flag:
      if (text.empty() || text == "1" || text == "true") return true;
      if (text == "0" || text == "false") return false;
      break;
    case SettingType::text:
    case SettingType::choice:
      return std::string(text);
  }
  throw ParamError(s.key, "must be " + setting_range_text(s) + ", got " + std::string(text));
}

std::string setting_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == std::floor(d) && std::abs(d) < 0x1p53) return std::to_string(static_cast<long long>(d));
    char buf[32];
    return std::string(buf, format_shortest(buf, buf + sizeof buf, d));
  }
  return v.dump();
}

std::string setting_range_text(const PageSetting& s) {
  // "in [1, 64]", or "> 1" for a bound open above.
  const auto range = [&] {
    const std::string r = s.full_range ? range_text(*s.limit) : window_range_text(*s.limit);
    return r.front() == '[' || r.front() == '(' ? "in " + r : r;
  };
  switch (s.access.type) {
    case SettingType::integer:
      return s.limit ? "an integer " + range() : "an integer";
    case SettingType::real:
      return s.limit ? "a number " + range() : "a finite number";
    case SettingType::flag:
      return "true or false";
    case SettingType::choice:
      return choice_text(s.access.choices());
    case SettingType::text:
      break;
  }
  return "text";
}

std::string setting_flag_name(const PageSetting& s) {
  std::string name = s.limit ? std::string(s.limit->name) : std::string(s.key);
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::vector<std::pair<std::string, std::vector<PageSettingRef>>> shared_page_flags() {
  std::map<std::string, std::vector<PageSettingRef>> by_name;
  for (const PageModel* page : page_models())
    for (const PageSetting& s : page->settings)
      if (s.shared_flag) by_name[setting_flag_name(s)].push_back({page, &s});
  return {by_name.begin(), by_name.end()};
}

PageSettingRef find_page_setting(std::string_view page_dot_key) {
  const std::size_t dot = page_dot_key.find('.');
  if (dot == std::string_view::npos) return {};
  const auto page = parse_page(page_dot_key.substr(0, dot));
  if (!page) return {};
  const PageModel& m = page_model(*page);
  const PageSetting* s = find_setting(m.settings, page_dot_key.substr(dot + 1));
  return s ? PageSettingRef{&m, s} : PageSettingRef{};
}

void put_setting(json& state, const PageSettingRef& ref, std::string_view text) {
  json& section = state[ref.page->json_key];
  if (!section.is_object()) section = json::object();
  section[ref.setting->key] = setting_value(*ref.setting, text);
}

}  // namespace peviz::app
