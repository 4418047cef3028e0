// libFuzzer target: the JSON loaders of sessions, presets and lessons (state_json, check_preset_json,
// parse_lesson) must refuse any text with ParamError or a JSON error, never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "app/model/lessons.hpp"
#include "app/model/presets.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  try {
    peviz::app::AppState s;
    peviz::app::apply_state_json(j, s);  // a session file or a lesson step's state
    peviz::validate(s.params);
  } catch (const peviz::ParamError&) {
  }
  try {
    peviz::app::check_preset_json(j);
  } catch (const peviz::ParamError&) {
  } catch (const nlohmann::json::exception&) {
  }
  try {
    (void)peviz::app::parse_lesson(j, "fuzz.json");
  } catch (const peviz::ParamError&) {
  } catch (const nlohmann::json::exception&) {
  }
  return 0;
}
