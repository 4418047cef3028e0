// Figure metadata readers: SVG <metadata> entries and a PDF's /Info dictionary (PDF 32000-1:2008,
// 7.3.4 strings, 7.3.7 dictionaries, 7.5.5 trailer, 14.3.3 document information).
#include "app/plot/vector_metadata.hpp"

#include <algorithm>
#include <cstdint>

#include "core/base/errors.hpp"
#include "core/io/png_file.hpp"

namespace peviz::plot {

namespace {

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | cp >> 6);
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | cp >> 12);
    out += char(0x80 | (cp >> 6 & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | cp >> 18);
    out += char(0x80 | (cp >> 12 & 0x3F));
    out += char(0x80 | (cp >> 6 & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// ---- SVG ----

std::string xml_unescape(std::string_view s, const std::string& param) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const std::size_t end = s.find(';', i);
    if (end == std::string_view::npos || end - i > 12) throw ParamError(param, "the SVG's metadata has a broken '&' entity");
    const std::string_view name = s.substr(i + 1, end - i - 1);
    if (name == "amp") out += '&';
    else if (name == "lt") out += '<';
    else if (name == "gt") out += '>';
    else if (name == "quot") out += '"';
    else if (name == "apos") out += '\'';
    else if (name.size() >= 2 && name[0] == '#') {
      const bool hex = name[1] == 'x' || name[1] == 'X';
      const std::string_view digits = name.substr(hex ? 2 : 1);
      std::uint32_t cp = 0;
      if (digits.empty()) throw ParamError(param, "the SVG's metadata has an empty character reference");
      for (char c : digits) {
        const int d = c >= '0' && c <= '9' ? c - '0' : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10 : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) throw ParamError(param, "the SVG's metadata has a malformed character reference");
        cp = std::min<std::uint32_t>(cp * (hex ? 16 : 10) + std::uint32_t(d), 0x110000);
      }
      append_utf8(out, cp);
    } else {
      throw ParamError(param, "the SVG's metadata has an unknown entity &" + std::string(name) + ";");
    }
    i = end;
  }
  return out;
}

// ---- PDF ----

bool pdf_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0'; }
bool pdf_delimiter(char c) { return std::string_view("()<>[]{}/%").find(c) != std::string_view::npos; }

void skip_space(std::string_view b, std::size_t& pos) {
  while (pos < b.size()) {
    if (pdf_space(b[pos])) ++pos;
    else if (b[pos] == '%') {  // a comment runs to the end of the line
      while (pos < b.size() && b[pos] != '\n' && b[pos] != '\r') ++pos;
    } else break;
  }
}

// A regular token (number, keyword, or a name after its '/').
std::string_view regular_token(std::string_view b, std::size_t& pos) {
  const std::size_t start = pos;
  while (pos < b.size() && !pdf_space(b[pos]) && !pdf_delimiter(b[pos])) ++pos;
  return b.substr(start, pos - start);
}

bool is_unsigned(std::string_view t) {
  return !t.empty() && t.size() <= 10 && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string literal_string(std::string_view b, std::size_t& pos, const std::string& param) {
  std::string out;
  int depth = 1;
  ++pos;  // '('
  while (pos < b.size()) {
    const char c = b[pos++];
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) return out;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (pos >= b.size()) break;
    const char e = b[pos++];
    switch (e) {
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case '\r':
        if (pos < b.size() && b[pos] == '\n') ++pos;
        break;  // line continuation
      case '\n': break;
      default:
        if (e >= '0' && e <= '7') {
          int v = e - '0';
          for (int k = 0; k < 2 && pos < b.size() && b[pos] >= '0' && b[pos] <= '7'; ++k) v = v * 8 + (b[pos++] - '0');
          out += char(v & 0xFF);
        } else {
          out += e;  // \( \) \\ and unknown escapes: the character itself
        }
    }
  }
  throw ParamError(param, "the PDF has an unterminated string");
}

std::string hex_string(std::string_view b, std::size_t& pos, const std::string& param) {
  std::string out;
  int pending = -1;
  ++pos;  // '<'
  while (pos < b.size()) {
    const char c = b[pos++];
    if (c == '>') {
      if (pending >= 0) out += char(pending << 4);  // an odd last digit is followed by 0
      return out;
    }
    if (pdf_space(c)) continue;
    const int d = hex_digit(c);
    if (d < 0) throw ParamError(param, "the PDF has a malformed hex string");
    if (pending < 0) pending = d;
    else {
      out += char(pending << 4 | d);
      pending = -1;
    }
  }
  throw ParamError(param, "the PDF has an unterminated hex string");
}

// A PDF text string as UTF-8: UTF-16BE after FE FF, UTF-8 after EF BB BF (PDF 2.0), else
// PDFDocEncoding, read as Latin-1 (the two differ only in 0x80..0x9F and a few controls).
std::string text_string_to_utf8(std::string_view s) {
  std::string out;
  if (s.size() >= 2 && (unsigned char)s[0] == 0xFE && (unsigned char)s[1] == 0xFF) {
    for (std::size_t i = 2; i + 1 < s.size(); i += 2) {
      std::uint32_t u = std::uint32_t((unsigned char)s[i]) << 8 | (unsigned char)s[i + 1];
      if (u >= 0xD800 && u <= 0xDBFF && i + 3 < s.size()) {
        const std::uint32_t lo = std::uint32_t((unsigned char)s[i + 2]) << 8 | (unsigned char)s[i + 3];
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
          u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
          i += 2;
        }
      }
      append_utf8(out, u);
    }
    return out;
  }
  if (s.size() >= 3 && s.substr(0, 3) == "\xEF\xBB\xBF") return std::string(s.substr(3));
  for (char c : s) append_utf8(out, (unsigned char)c);
  return out;
}

// Skips one value (a string, a nested dictionary or array, a name, a number or keyword).
void skip_value(std::string_view b, std::size_t& pos, const std::string& param) {
  int depth = 0;
  do {
    skip_space(b, pos);
    if (pos >= b.size()) throw ParamError(param, "the PDF ends inside a dictionary");
    const char c = b[pos];
    if (c == '(' || (c == '<' && (pos + 1 >= b.size() || b[pos + 1] != '<'))) {
      parse_pdf_string(b, pos, param);
    } else if (c == '<' || c == '[') {
      pos += c == '<' ? 2 : 1;
      if (++depth > 64) throw ParamError(param, "the PDF nests dictionaries too deeply");
    } else if (c == '>' || c == ']') {
      if (c == '>' && (pos + 1 >= b.size() || b[pos + 1] != '>')) throw ParamError(param, "the PDF has a stray '>'");
      pos += c == '>' ? 2 : 1;
      if (--depth < 0) throw ParamError(param, "the PDF has an unbalanced dictionary");
    } else if (c == '/') {
      ++pos;
      regular_token(b, pos);
    } else if (regular_token(b, pos).empty()) {
      throw ParamError(param, std::string("the PDF has an unexpected '") + c + "'");
    }
  } while (depth > 0);
}

// Position just past "N G obj" for the last definition of object N G, or npos.
std::size_t find_object(std::string_view b, std::string_view number, std::string_view generation) {
  const std::string head = std::string(number) + " " + std::string(generation) + " obj";
  for (std::size_t at = b.rfind(head); at != std::string_view::npos; at = at == 0 ? std::string_view::npos : b.rfind(head, at - 1)) {
    if (at == 0 || pdf_space(b[at - 1])) return at + head.size();
  }
  return std::string_view::npos;
}

}  // namespace

std::string parse_pdf_string(std::string_view bytes, std::size_t& pos, const std::string& param) {
  if (pos >= bytes.size()) throw ParamError(param, "the PDF ends where a string should be");
  if (bytes[pos] == '(') return literal_string(bytes, pos, param);
  if (bytes[pos] == '<') return hex_string(bytes, pos, param);
  throw ParamError(param, "the PDF has no string where one should be");
}

std::map<std::string, std::string> read_svg_text(std::string_view bytes, const std::string& param) {
  const std::size_t svg = bytes.find("<svg");
  if (svg == std::string_view::npos || bytes.find_first_not_of(" \t\r\n\xEF\xBB\xBF") != bytes.find('<'))
    throw ParamError(param, "not an SVG file (no <svg> element)");
  std::map<std::string, std::string> text;
  constexpr std::string_view kOpen = "<peviz:entry", kClose = "</peviz:entry>";
  for (std::size_t at = bytes.find(kOpen, svg); at != std::string_view::npos; at = bytes.find(kOpen, at + 1)) {
    const std::size_t tag_end = bytes.find('>', at);
    if (tag_end == std::string_view::npos) throw ParamError(param, "the SVG ends inside a metadata element");
    const std::string_view tag = bytes.substr(at, tag_end - at);
    const std::size_t key_at = tag.find(" key=");
    if (key_at == std::string_view::npos || key_at + 6 > tag.size() || (tag[key_at + 5] != '"' && tag[key_at + 5] != '\''))
      throw ParamError(param, "the SVG's metadata entry has no key");
    const std::size_t key_end = tag.find(tag[key_at + 5], key_at + 6);
    if (key_end == std::string_view::npos) throw ParamError(param, "the SVG's metadata entry has an unterminated key");
    const std::string key = xml_unescape(tag.substr(key_at + 6, key_end - key_at - 6), param);
    if (tag.back() == '/') {  // <peviz:entry key="k"/>
      text[key] = "";
      continue;
    }
    const std::size_t close = bytes.find(kClose, tag_end);
    if (close == std::string_view::npos) throw ParamError(param, "the SVG's metadata entry \"" + key + "\" is not closed");
    text[key] = xml_unescape(bytes.substr(tag_end + 1, close - tag_end - 1), param);
  }
  return text;
}

std::map<std::string, std::string> read_pdf_text(std::string_view bytes, const std::string& param) {
  if (bytes.substr(0, std::min<std::size_t>(bytes.size(), 1024)).find("%PDF-") == std::string_view::npos)
    throw ParamError(param, "not a PDF file (no %PDF- header)");
  // The last /Info N G R (the trailer's, or an xref stream's dictionary; the last one after updates).
  std::size_t pos = std::string_view::npos;
  std::string_view number, generation;
  for (std::size_t at = bytes.rfind("/Info"); at != std::string_view::npos; at = at == 0 ? std::string_view::npos : bytes.rfind("/Info", at - 1)) {
    std::size_t p = at + 5;
    if (p < bytes.size() && !pdf_space(bytes[p])) continue;  // "/InfoX"
    skip_space(bytes, p);
    number = regular_token(bytes, p);
    skip_space(bytes, p);
    generation = regular_token(bytes, p);
    skip_space(bytes, p);
    if (is_unsigned(number) && is_unsigned(generation) && regular_token(bytes, p) == "R") {
      pos = find_object(bytes, number, generation);
      break;
    }
  }
  if (pos == std::string_view::npos) throw ParamError(param, "the PDF has no document information (it was not saved by peviz)");
  skip_space(bytes, pos);
  if (bytes.substr(pos, 2) != "<<") throw ParamError(param, "the PDF's document information is not a dictionary");
  pos += 2;
  std::map<std::string, std::string> text;
  for (;;) {
    skip_space(bytes, pos);
    if (pos >= bytes.size()) throw ParamError(param, "the PDF ends inside its document information");
    if (bytes.substr(pos, 2) == ">>") break;
    if (bytes[pos] != '/') {  // the rest of a value: "0 R" after the "12" of a reference
      skip_value(bytes, pos, param);
      continue;
    }
    ++pos;
    const std::string_view key = regular_token(bytes, pos);
    skip_space(bytes, pos);
    const auto known = std::find_if(std::begin(kPdfInfoKeys), std::end(kPdfInfoKeys), [&](const auto& k) { return key == k.first; });
    if (known != std::end(kPdfInfoKeys) && pos < bytes.size() && (bytes[pos] == '(' || bytes[pos] == '<') &&
        bytes.substr(pos, 2) != "<<")
      text[known->second] = text_string_to_utf8(parse_pdf_string(bytes, pos, param));
    else
      skip_value(bytes, pos, param);
  }
  return text;
}

std::map<std::string, std::string> read_figure_text(std::string_view bytes, const std::string& param) {
  if (bytes.substr(0, 8) == "\x89PNG\r\n\x1a\n") return read_png_text(bytes, param);
  if (bytes.substr(0, 1024).find("%PDF-") != std::string_view::npos) return read_pdf_text(bytes, param);
  if (bytes.substr(0, 4096).find("<svg") != std::string_view::npos) return read_svg_text(bytes, param);
  throw ParamError(param, "not a figure file (PNG, SVG or PDF)");
}

}  // namespace peviz::plot
