// peviz in the browser (`./setup.sh web`): the window's app on the page's canvas. There is no session file
// between visits: the page's address carries the view (#view=..., app/model/view_link.hpp). The query string
// takes the window's test flags: ?monkey=SEED&frames=N (random input over every page, as `peviz --monkey`),
// ?hide_pointer, ?train (press the Lab's Train at start, as --train); the page reads the exit code from
// window.pevizPage.exitCode when the run ends.
#include <algorithm>
#include <charconv>
#include <optional>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <emscripten.h>
#include <malloc.h>
#include <sys/stat.h>

#include "app/ui/gui_main.hpp"

namespace {

// The value of `key` in a query string "?a=1&b" ("" for a bare key; nullopt when absent).
std::optional<std::string> query_value(std::string_view query, std::string_view key) {
  if (!query.empty() && query.front() == '?') query.remove_prefix(1);
  while (!query.empty()) {
    const std::string_view pair = query.substr(0, query.find('&'));
    query.remove_prefix(std::min(query.size(), pair.size() + 1));
    const std::string_view name = pair.substr(0, pair.find('='));
    if (name == key) return std::string(pair.size() > name.size() ? pair.substr(name.size() + 1) : "");
  }
  return std::nullopt;
}

template <class T>
bool read_number(const std::string& text, T& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

// Bytes of the wasm heap in use (malloc's count), for the browser test's memory check.
extern "C" EMSCRIPTEN_KEEPALIVE long peviz_heap_in_use() { return long(mallinfo().uordblks); }

int main() {
  // Emscripten's file system starts with umask 0777, so the files the app writes (mode 0666 & ~umask) could not
  // be written to or read back: the usual 022 instead.
  ::umask(022);
  peviz::app::GuiOptions gui;
  gui.reset = true;
  const std::string query = emscripten_run_script_string("window.location.search");
  if (const auto seed = query_value(query, "monkey")) {
    std::uint64_t value = 0;
    const auto frames = query_value(query, "frames");
    if (!read_number(*seed, value) || !frames || !read_number(*frames, gui.frames) || gui.frames <= 0) {
      std::fprintf(stderr, "peviz: ?monkey=SEED needs &frames=N (whole numbers), got %s\n", query.c_str());
      return 2;
    }
    gui.monkey = value;
  }
  gui.hide_pointer = query_value(query, "hide_pointer").has_value();
  gui.train = query_value(query, "train").has_value();
  return peviz::app::run_gui(gui);
}
