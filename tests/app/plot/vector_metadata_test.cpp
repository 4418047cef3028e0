// Reading figure metadata back from SVG and PDF: string syntax, dictionaries, and corrupt files
// (every truncation and many byte flips of real files give ParamError or a result, never a crash).
#include <catch2/catch.hpp>

#include "app/plot/svg_writer.hpp"
#include "app/plot/vector_metadata.hpp"
#include "core/base/errors.hpp"
#include "tests/app/plot/sample_display_list.hpp"

using namespace peviz;
using namespace peviz::plot;

namespace {

std::string pdf_string(std::string_view s) {
  std::size_t pos = 0;
  std::string out = parse_pdf_string(s, pos);
  CHECK(pos == s.size());
  return out;
}

// A minimal hand-written PDF whose trailer points at an /Info dictionary with the given body.
std::string tiny_pdf(const std::string& info_body) {
  return "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
         "7 0 obj\n<< " + info_body + " >>\nendobj\n"
         "trailer\n<< /Size 8 /Root 1 0 R /Info 7 0 R >>\n%%EOF\n";
}

// A corpus run: every prefix of `bytes`, and `bytes` with each of many single bytes changed, must parse or
// throw ParamError (anything else, or a crash, fails). Returns how many prefixes were refused.
template <class Reader>
int survives_corruption(const std::string& bytes, Reader read) {
  int refused_prefixes = 0;
  for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 64) {
    try {
      read(std::string_view(bytes).substr(0, n));
    } catch (const ParamError&) {
      ++refused_prefixes;
    }
  }
  std::string b = bytes;
  for (std::size_t i = 0; i < b.size(); i += 1 + i / 32) {
    for (char c : {'\0', '(', ')', '<', '>', '\\', '/', '&', '"', '\xff'}) {
      const char saved = b[i];
      b[i] = c;
      try {
        read(b);
      } catch (const ParamError&) {
      }
      b[i] = saved;
    }
  }
  return refused_prefixes;
}

}  // namespace

TEST_CASE("PDF literal strings: escapes, octal, balanced parentheses, line continuations") {
  CHECK(pdf_string("(abc)") == "abc");
  CHECK(pdf_string("(a(b)c)") == "a(b)c");
  CHECK(pdf_string("(\\(\\)\\\\\\n\\r\\t\\b\\f)") == "()\\\n\r\t\b\f");
  CHECK(pdf_string("(\\101\\61x\\7)") == "A1x\x07");
  CHECK(pdf_string("(a\\\nb\\\r\nc)") == "abc");
  CHECK(pdf_string("(\\q)") == "q");
}

TEST_CASE("PDF hex strings: spaces ignored, an odd last digit padded with 0") {
  CHECK(pdf_string("<414243>") == "ABC");
  CHECK(pdf_string("<41 42\n4>") == "AB@");
  CHECK(pdf_string("<>") == "");
  std::size_t pos = 0;
  CHECK_THROWS_AS(parse_pdf_string("<41zz>", pos), ParamError);
  pos = 0;
  CHECK_THROWS_AS(parse_pdf_string("(open", pos), ParamError);
  pos = 0;
  CHECK_THROWS_AS(parse_pdf_string("<4142", pos), ParamError);
  pos = 0;
  CHECK_THROWS_AS(parse_pdf_string("x", pos), ParamError);
}

TEST_CASE("a PDF's /Info dictionary maps Title, Subject and Creator; other values are skipped") {
  const auto text = read_pdf_text(tiny_pdf(
      "/Producer (x) /Title (caption \\(1\\)) /Nested << /A [1 2 (s) <00>] /B 3 0 R >> /Trapped /False "
      "/Subject <FEFF007B03B8D83DDE00007D> /Creator (caf\\351)"));
  CHECK(text.at("Title") == "caption (1)");
  CHECK(text.at("peviz") == "{\u03b8\U0001F600}");  // UTF-16BE with a surrogate pair
  CHECK(text.at("Software") == "caf\u00e9");       // PDFDocEncoding's é
  CHECK(text.size() == 3);
}

TEST_CASE("a PDF without readable document information is refused with one line") {
  CHECK_THROWS_WITH(read_pdf_text("not a pdf"), Catch::Contains("not a PDF"));
  CHECK_THROWS_WITH(read_pdf_text("%PDF-1.4\ntrailer << /Size 1 >>"), Catch::Contains("no document information"));
  CHECK_THROWS_WITH(read_pdf_text("%PDF-1.4\ntrailer << /Info 9 0 R >>"), Catch::Contains("no document information"));
  CHECK_THROWS_AS(read_pdf_text("%PDF-1.4\n9 0 obj\n[1 2]\ntrailer << /Info 9 0 R >>"), ParamError);
  CHECK_THROWS_AS(read_pdf_text(tiny_pdf("/Title (x) >")), ParamError);
  CHECK_THROWS_AS(read_pdf_text("%PDF-1.4\n9 0 obj\n<< /A [[[[" + std::string(200, '[') + "\ntrailer << /Info 9 0 R >>"), ParamError);
}

TEST_CASE("SVG metadata entries: entities, character references, empty entries") {
  const std::string svg = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><metadata>"
                          "<peviz:entry key='a&amp;b'>x &lt;y&gt; &quot;&apos; &#952;&#x1F600;</peviz:entry>"
                          "<peviz:entry key=\"e\"/></metadata></svg>";
  const auto text = read_svg_text(svg);
  CHECK(text.at("a&b") == "x <y> \"' \u03b8\U0001F600");
  CHECK(text.at("e").empty());
  CHECK_THROWS_AS(read_svg_text("<svg><peviz:entry key=\"k\">&bogus;</peviz:entry></svg>"), ParamError);
  CHECK_THROWS_AS(read_svg_text("<svg><peviz:entry key=\"k\">&#xZZ;</peviz:entry></svg>"), ParamError);
  CHECK_THROWS_AS(read_svg_text("<svg><peviz:entry key=\"k\">open"), ParamError);
  CHECK_THROWS_AS(read_svg_text("<svg><peviz:entry>no key</peviz:entry></svg>"), ParamError);
  CHECK_THROWS_WITH(read_svg_text("hello"), Catch::Contains("not an SVG"));
}

TEST_CASE("read_figure_text tells PNG, SVG and PDF apart and refuses anything else") {
  CHECK_THROWS_WITH(read_figure_text("GIF89a"), Catch::Contains("not a figure file"));
  CHECK_THROWS_AS(read_figure_text("\x89PNG\r\n\x1a\n"), ParamError);
  const RgbaImage one{1, 1, {1, 2, 3, 255}};
  CHECK(read_figure_text(encode_png(one, {{"peviz", "{}"}})).at("peviz") == "{}");
}

TEST_CASE("corpus run: corrupt SVG figures and PDF dictionaries give ParamError or a result, never a crash") {
  const Matrix cells = sample_cells();
  const std::string svg = encode_svg(sample_display_list(cells), sample_metadata());
  const std::string pdf = tiny_pdf("/Title (a\\(b\\)) /Subject <FEFF0041> /Creator (peviz) /X [1 2 << /Y 3 0 R >>]");
  // The intact files read back what was written; their empty and short prefixes are refused.
  CHECK(read_svg_text(svg).at("peviz") == sample_metadata().at("peviz"));
  CHECK(read_pdf_text(pdf).at("Title") == "a(b)");
  CHECK(survives_corruption(svg, [](std::string_view b) { read_svg_text(b); }) > 0);
  CHECK(survives_corruption(pdf, [](std::string_view b) { read_pdf_text(b); }) > 0);
}
