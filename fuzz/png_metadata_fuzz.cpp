// libFuzzer target: a figure PNG's metadata (chunk walker, peviz JSON, state application) must refuse
// any byte string with ParamError, never crash; what it accepts must leave a valid state.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "app/model/figure.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"
#include "core/io/png_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const auto text = peviz::read_png_text(bytes);
    const peviz::app::FigureMetadata m = peviz::app::parse_figure_metadata(text);
    peviz::app::AppState s;
    peviz::app::apply_state_json(m.state, s);
    peviz::validate(s.params);  // what was accepted must be valid
  } catch (const peviz::ParamError&) {
  }
  return 0;
}
