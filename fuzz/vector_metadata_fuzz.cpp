// libFuzzer target: an SVG or PDF figure's metadata (XML entries, PDF strings and dictionaries, the
// peviz JSON, state application) must refuse any byte string with ParamError, never crash; what it
// accepts must leave a valid state. Seeds: tests/corpus/vector_metadata (one SVG, one PDF).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "app/model/figure.hpp"
#include "app/plot/vector_metadata.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (auto read : {peviz::plot::read_svg_text, peviz::plot::read_pdf_text}) {
    try {
      const peviz::app::FigureMetadata m = peviz::app::parse_figure_metadata(read(bytes, "open"));
      peviz::app::AppState s;
      peviz::app::apply_state_json(m.state, s);
      peviz::validate(s.params);  // what was accepted must be valid
    } catch (const peviz::ParamError&) {
    }
  }
  return 0;
}
