// The window's state <-> a URL fragment: one table of keys, read and written through the state JSON.
#include "app/model/view_link.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/lessons.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/model/presets.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"
#include "core/io/float_chars.hpp"

namespace peviz::app {

using nlohmann::json;

namespace {

enum class LinkType { name, integer, real, json_object };

// A key that sets one field of the state JSON: `section`.`field` (section "": the top level; type json_object:
// the whole state, partially).
struct LinkKey {
  const char* key;
  LinkType type;
  const char* section;
  const char* field;
  bool always_written = false;
};

// In the order they apply and are written.
constexpr LinkKey kStateKeys[] = {
    {"view", LinkType::name, "", "page", true},
    {"theme", LinkType::name, "view", "theme"},
    {"encoding", LinkType::name, "params", "encoding"},
    {"d_model", LinkType::integer, "params", "d_model"},
    {"base", LinkType::real, "params", "base"},
    {"seq_len", LinkType::integer, "params", "seq_len"},
    {"state", LinkType::json_object, "", ""},
};
// Read only, applied before the state keys (preset, then lesson and its step, then presenting).
constexpr std::string_view kTeachKeys[] = {"preset", "lesson", "step", "present"};

using Pairs = std::map<std::string, std::string, std::less<>>;

// ---- percent-encoding (RFC 3986) ----

bool unreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

std::string percent_encode(std::string_view v) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : v) {
    if (unreserved(c)) {
      out += c;
    } else {
      out += '%';
      out += kHex[static_cast<unsigned char>(c) >> 4];
      out += kHex[static_cast<unsigned char>(c) & 15];
    }
  }
  return out;
}

// Decodes %XX escapes ('+' stays a plus); nullopt for a '%' without two hex digits after it.
std::optional<std::string> percent_decode(std::string_view v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '%') {
      out += v[i];
      continue;
    }
    const std::string_view hex = v.substr(i + 1, 2);
    unsigned byte = 0;
    const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), byte, 16);
    if (hex.size() != 2 || ec != std::errc{} || end != hex.data() + hex.size()) return std::nullopt;
    out += static_cast<char>(byte);
    i += 2;
  }
  return out;
}

// ---- values ----


// The value of key `k` as the state JSON holds it; throws ParamError(k.key, ...) when it is not of k's type.
json value_of(const LinkKey& k, const std::string& text) {
  switch (k.type) {
    case LinkType::integer:
      if (const auto v = parse_whole<long long>(text)) return *v;
      throw ParamError(k.key, "must be an integer, got " + text);
    case LinkType::real:
      if (const auto v = parse_whole<double>(text); v && std::isfinite(*v)) return *v;
      throw ParamError(k.key, "must be a finite number, got " + text);
    case LinkType::json_object: {
      json j = json::parse(text, nullptr, false);
      if (!j.is_object()) throw ParamError(k.key, "must be a JSON object");
      return j;
    }
    case LinkType::name:
      break;
  }
  return text;
}

// The partial state JSON that sets key `k` to `value`.
json patch_of(const LinkKey& k, json value) {
  if (k.type == LinkType::json_object) return value;
  json field = json::object();
  field[k.field] = std::move(value);
  if (!*k.section) return field;
  json patch = json::object();
  patch[k.section] = std::move(field);
  return patch;
}

// "d_model must be an integer in <the window's range>, got 99999": the rule under the link's key when the error names the
// key's own field, else the whole message after the key ("state: heads: must be ...").
std::string problem_text(const LinkKey& k, const ParamError& e) {
  std::string param = e.param;
  std::replace(param.begin(), param.end(), '-', '_');
  if (param == k.key || param == k.field) return std::string(k.key) + " " + e.rule;
  return std::string(k.key) + ": " + e.what();
}

// ---- writing ----

// The leaves of `now` that differ from `base`, as an object of the same shape (objects recurse; arrays and
// values are leaves).
json changed_leaves(const json& now, const json& base) {
  json out = json::object();
  for (auto it = now.begin(); it != now.end(); ++it) {
    const auto b = base.find(it.key());
    if (b != base.end() && it->is_object() && b->is_object()) {
      json sub = changed_leaves(*it, *b);
      if (!sub.empty()) out[it.key()] = std::move(sub);
    } else if (b == base.end() || *it != *b) {
      out[it.key()] = *it;
    }
  }
  return out;
}

// Key k's field in `j`; nullptr when absent.
json* field_in(json& j, const LinkKey& k) {
  json* holder = &j;
  if (*k.section) {
    const auto it = j.find(k.section);
    if (it == j.end()) return nullptr;
    holder = &*it;
  }
  const auto f = holder->find(k.field);
  return f == holder->end() ? nullptr : &*f;
}

// Removes key k's field from `j`, and its section when that leaves it empty.
void erase_field(json& j, const LinkKey& k) {
  if (!*k.section) {
    j.erase(k.field);
    return;
  }
  const auto it = j.find(k.section);
  if (it == j.end()) return;
  it->erase(k.field);
  if (it->empty()) j.erase(it);
}

const json& default_state_json() {
  static const json j = state_to_json(AppState{});
  return j;
}

void append_pair(std::string& link, std::string_view key, std::string_view value) {
  if (!link.empty()) link += '&';
  link += key;
  link += '=';
  link += percent_encode(value);
}

// ---- reading ----


// A page's setting named in the address bar: bare on the page shown ("heads" with view=alibi), dotted for any
// page ("alibi.heads"); only the settings the table lets the link name (PageSetting::in_link).
PageSettingRef link_setting(std::string_view key, Page shown) {
  if (key.find('.') != std::string_view::npos) {
    const PageSettingRef ref = find_page_setting(key);
    return ref.setting && ref.setting->in_link ? ref : PageSettingRef{};
  }
  const PageModel& page = page_model(shown);
  const PageSetting* s = find_setting(page.settings, key);
  return s && s->in_link ? PageSettingRef{&page, s} : PageSettingRef{};
}

bool state_key(std::string_view key) {
  return std::any_of(std::begin(kStateKeys), std::end(kStateKeys), [&](const LinkKey& k) { return key == k.key; });
}

bool known_key(std::string_view key) {
  if (std::find(std::begin(kTeachKeys), std::end(kTeachKeys), key) != std::end(kTeachKeys) || state_key(key))
    return true;
  for (int p = 0; p < kPageCount; ++p)
    if (link_setting(key, Page(p)).setting) return true;
  return false;
}

// The page settings that differ from the defaults, by name (bare on the page shown, "page.key" on the others), taken
// out of `changed`. A page that follows a named model keeps its knobs in state=, beside the model's name.
void append_page_settings(std::string& link, json& changed, Page shown) {
  for (int p = 0; p < kPageCount; ++p) {
    const PageModel& page = page_model(Page(p));
    const auto section = changed.find(page.json_key);
    if (!*page.json_key || section == changed.end() || !section->is_object()) continue;
    const bool model_named = section->contains("model_name");
    for (const PageSetting& setting : page.settings) {
      if (!setting.in_link || (model_named && setting.knob) || !section->contains(setting.key)) continue;
      const std::string name = Page(p) == shown ? setting.key : std::string(page.name) + "." + setting.key;
      append_pair(link, name, setting_text(section->at(setting.key)));
      section->erase(setting.key);
    }
    if (section->empty()) changed.erase(section);
  }
}

// The page settings the link names, each applied alone (a refusal names its key and leaves the others applied).
void apply_page_settings(const Pairs& pairs, AppState& s, std::vector<std::string>& problems) {
  for (const auto& [key, text] : pairs) {
    const PageSettingRef ref = link_setting(key, s.pages.page);
    if (!ref.setting) {  // a key of the teach or state keys, else another page's bare name
      const bool teach = std::find(std::begin(kTeachKeys), std::end(kTeachKeys), key) != std::end(kTeachKeys);
      if (!teach && !state_key(key)) problems.push_back("unknown key " + key + " (on another page: page.key)");
      continue;
    }
    try {
      json patch = json::object();
      put_setting(patch, ref, text);
      apply_state_json(patch, s);
    } catch (const ParamError& e) {
      problems.push_back(key + (e.param == ref.setting->key ? " " + e.rule : ": " + std::string(e.what())));
    }
  }
}

// The fragment's pairs, percent-decoded; empty pairs skipped, a key given twice keeps its last value. A pair with
// a bad escape or an unknown key becomes a problem instead.
Pairs parse_pairs(std::string_view f, std::vector<std::string>& problems) {
  if (!f.empty() && f.front() == '#') f.remove_prefix(1);
  Pairs pairs;
  while (!f.empty()) {
    const std::size_t amp = f.find('&');
    const std::string_view pair = f.substr(0, amp);
    f = amp == std::string_view::npos ? std::string_view() : f.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const auto key = percent_decode(pair.substr(0, eq));
    const auto value = percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    if (!key || !value) problems.push_back("malformed percent escape in " + std::string(pair));
    else if (!known_key(*key)) problems.push_back("unknown key " + *key);
    else pairs[*key] = *value;
  }
  return pairs;
}

const std::string* find_pair(const Pairs& pairs, std::string_view key) {
  const auto it = pairs.find(key);
  return it == pairs.end() ? nullptr : &it->second;
}

void apply_preset_key(const std::string& name, AppState& s, std::vector<std::string>& problems) {
  const std::vector<PresetEntry> presets = list_presets();
  const PresetEntry* p = find_preset(presets, name);
  if (!p) problems.push_back("preset: no usable preset named " + name);
  else if (!apply_preset(*p, s)) problems.push_back("preset: " + s.teach.notice);
}

// A lesson by name only (a link must not open files by path), at its 1-based step.
void apply_lesson_key(const std::string& name, const std::string* step, AppState& s,
                      std::vector<std::string>& problems) {
  long long k = 1;
  if (step) {
    const auto v = parse_whole<long long>(*step);
    if (v && *v >= 1) k = *v;
    else problems.push_back("step must be an integer >= 1, got " + *step);
  }
  const bool plain = !name.empty() && name.front() != '.' && name.find_first_of("/\\") == std::string::npos;
  const std::filesystem::path path = plain ? resolve_lesson(name) : std::filesystem::path();
  if (path.empty()) {
    problems.push_back("lesson: no lesson named " + name);
    return;
  }
  try {
    start_lesson(s, load_lesson_file(path), int(std::min<long long>(k, 1 << 20)) - 1);
  } catch (const ParamError& e) {
    problems.push_back("lesson: " + e.rule);
  }
}

void apply_teach_keys(const Pairs& pairs, AppState& s, std::vector<std::string>& problems) {
  if (const std::string* name = find_pair(pairs, "preset")) apply_preset_key(*name, s, problems);
  const std::string* step = find_pair(pairs, "step");
  if (const std::string* name = find_pair(pairs, "lesson")) apply_lesson_key(*name, step, s, problems);
  else if (step) problems.push_back("step needs a lesson");
  if (const std::string* v = find_pair(pairs, "present")) {
    if (v->empty() || *v == "1") set_presenting(s, true);
    else problems.push_back("present must be bare or 1, got " + *v);
  }
}

// The view as a default AppState has it (view_link names what differs from it), out of any lesson and presenting.
void reset_view(AppState& s) {
  if (s.teach.lesson_active) stop_lesson(s);
  set_presenting(s, false);
  apply_state_json(default_state_json(), s);
}

// "link: a; b" on one line (a decoded value may hold a line break); "" for none.
std::string problem_line(const std::vector<std::string>& problems) {
  if (problems.empty()) return "";
  std::string line = "link: ";
  for (std::size_t i = 0; i < problems.size(); ++i) line += (i ? "; " : "") + problems[i];
  std::replace_if(line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return line;
}

}  // namespace

std::string view_link(const AppState& s) {
  // During a lesson the step is the view: its link reopens the tour there (and presentation mode with it).
  if (s.teach.lesson_active) {
    std::string link;
    append_pair(link, "lesson", std::filesystem::path(s.teach.lesson.path).stem().string());
    append_pair(link, "step", std::to_string(s.teach.step + 1));
    if (s.teach.presenting) link += "&present";
    return link;
  }
  json now = state_to_json(s);
  json changed = changed_leaves(now, default_state_json());
  changed.erase("learned_file");  // a file on this machine: a link cannot bring it along
  std::string link;
  const Page shown = s.pages.page;
  for (const LinkKey& k : kStateKeys) {
    if (k.type == LinkType::json_object) continue;
    const bool differs = field_in(changed, k) != nullptr;
    if ((!differs && !k.always_written) || link_setting(k.key, shown).setting) continue;  // the page's own name
    append_pair(link, k.key, setting_text(*field_in(now, k)));
    erase_field(changed, k);
  }
  append_page_settings(link, changed, shown);
  if (!changed.empty()) append_pair(link, "state", changed.dump());
  return link;
}

std::string apply_view_link(const std::string& fragment, AppState& s) {
  std::vector<std::string> problems;
  const Pairs pairs = parse_pairs(fragment, problems);
  if (pairs.empty()) return problem_line(problems);
  // A link is the whole view: what it does not name is the default. A link whose every pair is refused (a refusal
  // per pair, at most) leaves the window as it was.
  const std::size_t unparsed = problems.size();
  const json before = state_to_json(s);
  const TeachState teach = s.teach;
  reset_view(s);
  apply_teach_keys(pairs, s, problems);
  for (const LinkKey& k : kStateKeys) {
    const std::string* text = find_pair(pairs, k.key);
    if (!text || (k.type != LinkType::json_object && link_setting(k.key, s.pages.page).setting)) continue;
    try {
      apply_state_json(patch_of(k, value_of(k, *text)), s);
    } catch (const ParamError& e) {
      problems.push_back(problem_text(k, e));
    } catch (const std::exception& e) {  // the state JSON's own checks throw ParamError; a link must not crash
      problems.push_back(std::string(k.key) + ": " + e.what());
    }
  }
  apply_page_settings(pairs, s, problems);
  if (problems.size() - unparsed >= pairs.size()) {
    s.teach = teach;
    apply_state_json(before, s);
  }
  return problem_line(problems);
}

}  // namespace peviz::app
