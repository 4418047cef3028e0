// The Basics page: its data export is the encoding table; its views' options live in AppState.
#include "app/model/app_state.hpp"
#include "app/model/page_model.hpp"
#include "core/errors.hpp"

namespace peviz::app {

namespace {
NdArray export_encoding(const AppState& s) {
  if (s.encoding.rows == 0 || s.encoding.cols == 0) throw ParamError("out", "nothing computed yet for the encoding");
  return NdArray::from_matrix(s.encoding);
}
}  // namespace

extern const PageModel basics_page{.name = "basics", .title = "Basics", .export_data = export_encoding};

}  // namespace peviz::app
