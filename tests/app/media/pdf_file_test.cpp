// PDF figures through cairo: text that pdftotext finds, metadata that reads back, and a rendering
// (pdftoppm at 96 dpi: one figure pixel per image pixel) with the colours where the list put them.
#include <catch2/catch.hpp>

#include <filesystem>

#include "app/media/pdf_file.hpp"
#include "app/model/figure.hpp"
#include "app/model/figure_io.hpp"
#include "app/model/state_json.hpp"
#include "app/plot/vector_metadata.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "tests/app/plot/sample_display_list.hpp"
#include "tests/cli/run_peviz.hpp"

using namespace peviz;
using namespace peviz::plot;

TEST_CASE("a PDF figure's text is found by pdftotext") {
  const Matrix cells = sample_cells();
  const std::string path = figure_temp_file("figure.pdf");
  media::write_pdf_file(path, sample_display_list(cells), sample_metadata());
  const RunResult r = run_shell("pdftotext " + path + " -");
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* word : {"position", "value", "64", "128", "\u03b8 \u00b7 10\u2074"}) {
    INFO(word << " in: " << r.out);
    CHECK(r.out.find(word) != std::string::npos);
  }
  std::filesystem::remove(path);
}

TEST_CASE("a PDF figure's metadata reads back exactly, and pdfinfo agrees on title and page size") {
  const Matrix cells = sample_cells();
  const auto meta = sample_metadata();
  const std::string pdf = media::encode_pdf(sample_display_list(cells), meta);
  CHECK(read_pdf_text(pdf) == meta);
  CHECK(read_figure_text(pdf) == meta);
  const std::string path = figure_temp_file("info.pdf");
  write_file_atomically(path, [&](std::ostream& o) { o << pdf; });
  const RunResult r = run_shell("pdfinfo " + path);
  CHECK(r.out.find("Title:           sinusoidal \u00b7 d_model 128 \u00b7 base 10000") != std::string::npos);
  CHECK(r.out.find("Page size:       300 x 225 pts") != std::string::npos);  // 400 x 300 px at 0.75 pt
  std::filesystem::remove(path);
}

TEST_CASE("a PDF figure rendered by pdftoppm has its colours in place, heatmap cells unsmoothed") {
  const Matrix cells = sample_cells();
  const std::string pdf_path = figure_temp_file("render.pdf"), stem = figure_temp_file("render");
  media::write_pdf_file(pdf_path, sample_display_list(cells), sample_metadata());
  const RunResult r = run_shell("pdftoppm -png -r 96 -singlefile " + pdf_path + " " + stem);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const RgbaImage img = decode_png(read_file_bytes(stem + ".png", "test"));
  REQUIRE(img.width == 400);
  REQUIRE(img.height == 300);
  CHECK(rgb_close(image_pixel(img, 5, 290), rgba(255, 255, 255), 0));
  CHECK(rgb_close(image_pixel(img, 305, 205), rgba(255, 0, 0), 0));
  for (int r0 = 0; r0 < 2; ++r0)
    for (int c = 0; c < 3; ++c) {
      const Rgba want = colormap_color(Colormap::viridis, (r0 * 3 + c) / 5.0);
      CHECK(rgb_close(image_pixel(img, 40 + 40 * c + 20, 40 + 40 * r0 + 10), want, 1));
      CHECK(rgb_close(image_pixel(img, 40 + 40 * c + 2, 40 + 40 * r0 + 2), want, 1));
    }
  std::filesystem::remove(pdf_path);
  std::filesystem::remove(stem + ".png");
}

TEST_CASE("a transparent PDF figure has no background, and bad sizes or paths are refused") {
  const Matrix cells = sample_cells();
  DisplayList d = sample_display_list(cells);
  d.background = rgba(255, 255, 255, 0);
  const std::string pdf_path = figure_temp_file("clear.pdf"), stem = figure_temp_file("clear");
  media::write_pdf_file(pdf_path, d, {});
  REQUIRE(run_shell("pdftocairo -png -r 96 -singlefile -transp " + pdf_path + " " + stem).code == 0);  // keeps alpha
  const RgbaImage img = decode_png(read_file_bytes(stem + ".png", "test"));
  CHECK(alpha(image_pixel(img, 5, 290)) == 0);
  CHECK(alpha(image_pixel(img, 305, 205)) == 255);
  std::filesystem::remove(pdf_path);
  std::filesystem::remove(stem + ".png");
  d.width = 0;
  CHECK_THROWS_AS(media::encode_pdf(d, {}), ParamError);
  d.width = 10;
  CHECK_THROWS_AS(media::write_pdf_file("/nonexistent-folder/x.pdf", d, {}), ParamError);
}

TEST_CASE("a PDF figure reopens to the state and view that made it; a corrupt one is refused") {
  using namespace peviz::app;
  AppState made;
  made.params.d_model = 24;
  made.params.base = 500.0;
  made.pages.rope_clocks.position = 17.0;
  made.pages.page = Page::rope_clocks;
  const FigureView view{FigureView::one_page, Page::rope_clocks};
  DisplayList list;
  list.width = 200;
  list.height = 100;
  list.text({10, 10}, 16, rgba(0, 0, 0), "position");
  const std::string path = figure_temp_file("reopen.pdf");
  media::write_pdf_file(path, list, figure_metadata(made, view));
  AppState s;
  s.open_request = path;
  handle_file_requests(s, 1.0, 0);
  CHECK_FALSE(s.toast.is_error);
  CHECK(s.pages.page == Page::rope_clocks);
  CHECK(state_to_json(s) == state_to_json(made));
  write_file_atomically(path, [](std::ostream& o) { o << "%PDF-1.5\n1 0 obj << /Info"; });
  AppState t;
  CHECK_THROWS_AS(open_figure(t, path), ParamError);
  CHECK(t.params.d_model == 128);
  std::filesystem::remove(path);
}

TEST_CASE("corpus run: corrupt cairo PDFs give ParamError or a result from the metadata reader, never a crash") {
  const Matrix cells = sample_cells();
  const std::string pdf = media::encode_pdf(sample_display_list(cells), sample_metadata());
  CHECK(read_pdf_text(pdf).at("peviz") == sample_metadata().at("peviz"));  // the intact file round-trips
  int refused = 0;
  for (std::size_t n = 0; n < pdf.size(); n += 1 + n / 16) {  // prefixes
    try {
      read_pdf_text(std::string_view(pdf).substr(0, n));
    } catch (const ParamError&) {
      ++refused;
    }
  }
  CHECK(refused > 0);  // at least the empty and the short prefixes
  // The trailer and the /Info object sit in the last 2 KiB: change each byte there.
  std::string b = pdf;
  for (std::size_t i = pdf.size() > 2048 ? pdf.size() - 2048 : 0; i < b.size(); ++i) {
    const char saved = b[i];
    for (char c : {'\0', '(', ')', '<', '>', '/', ' ', '9'}) {
      b[i] = c;
      try {
        read_pdf_text(b);
      } catch (const ParamError&) {
      }
    }
    b[i] = saved;
  }
}
