// The browser side of app/gfx/platform.hpp: emscripten's main loop, the page's address, downloads, the file
// picker and the clipboard, through small JavaScript functions (EM_JS) over the page's own web/peviz-page.js.
#include "app/gfx/platform.hpp"

#include <cstdlib>
#include <utility>

#include <emscripten.h>

namespace peviz::gfx {

namespace {

EM_JS(char*, js_location_fragment, (), {
  const text = window.location.hash.replace(/^#/, "");
  const bytes = lengthBytesUTF8(text) + 1;
  const out = _malloc(bytes);
  stringToUTF8(text, out, bytes);
  return out;
});
EM_JS(char*, js_location_href, (), {
  const text = window.location.href;
  const bytes = lengthBytesUTF8(text) + 1;
  const out = _malloc(bytes);
  stringToUTF8(text, out, bytes);
  return out;
});
EM_JS(void, js_replace_fragment, (const char* fragment), {
  const hash = "#" + UTF8ToString(fragment);
  if (window.location.hash !== hash) history.replaceState(null, "", hash);
});
EM_JS(void, js_download, (const char* path), {
  const name = UTF8ToString(path);
  const bytes = FS.readFile(name);
  pevizPage.download(name.split("/").pop(), bytes);
});
EM_JS(void, js_pick_file, (), { pevizPage.pickFile(); });
// lab/files.txt (written by the build) names the files; each goes to /peviz/assets/lab, then the page calls
// peviz_lab_runs_arrived(1), or (0) when any fetch failed.
EM_JS(void, js_fetch_lab_runs, (), { pevizPage.fetchFolder("lab/", "/peviz/assets/lab/", "_peviz_lab_runs_arrived"); });
EM_JS(void, js_report_training, (double steps, double planned, int ended, int runs), {
  pevizPage.reportTraining(steps, planned, ended, runs);
});
EM_JS(void, js_copy_text, (const char* text), { pevizPage.copyText(UTF8ToString(text)); });

std::string take_js_string(char* text) {
  std::string out = text ? text : "";
  std::free(text);
  return out;
}

EM_JS(void, js_finished, (int code), { pevizPage.finished(code); });
// Every animation frame counts (tests wait for them); the drawn ones count apart.
EM_JS(void, js_frame_done, (int drawn), {
  pevizPage.frameCount++;
  if (drawn) pevizPage.framesDrawn++;
});
// How many inputs (events, address changes, files, fetched data) the page has seen since the last call.
EM_JS(int, js_take_inputs, (), {
  const n = pevizPage.inputs;
  pevizPage.inputs = 0;
  return n;
});
EM_JS(int, js_page_width, (), { return Math.round(window.innerWidth * (window.devicePixelRatio || 1)); });
EM_JS(int, js_page_height, (), { return Math.round(window.innerHeight * (window.devicePixelRatio || 1)); });

struct Loop {
  std::function<bool()> frame;
  std::function<int()> done;
};

bool g_waiting = false;  // wait_for_input ran: skip frames until the page sees input

void one_frame(void* arg) {
  if (g_waiting && js_take_inputs() == 0) {
    js_frame_done(0);
    return;
  }
  g_waiting = false;
  auto* loop = static_cast<Loop*>(arg);
  const bool more = loop->frame();
  js_frame_done(1);
  if (more) return;
  emscripten_cancel_main_loop();
  js_finished(loop->done());
  delete loop;
}

DataState g_lab_runs = DataState::absent;

}  // namespace

bool in_browser() { return true; }

// A page busy on its own (timeout_s >= 0: the Lab's training) draws in every animation frame the browser gives:
// the one-thread build trains inside its frames, and the threaded build's workers leave the page a core of its own
// (background_workers), so its progress moves at the browser's frame rate without slowing them.
void wait_for_input(double timeout_s) {
  if (timeout_s >= 0.0) return;
  js_take_inputs();  // what arrived before this frame is in this frame already
  g_waiting = true;
}

EM_JS(void, js_input_arrived, (), { pevizPage.inputs++; });
void input_arrived() { js_input_arrived(); }

int run_frame_loop(std::function<bool()> frame, std::function<int()> done) {
  // The page's animation frames drive the loop; main() returns and the runtime stays (no infinite loop).
  emscripten_set_main_loop_arg(one_frame, new Loop{std::move(frame), std::move(done)}, 0, false);
  return 0;
}

PixelSize page_pixel_size() { return {js_page_width(), js_page_height()}; }

std::string location_fragment() { return take_js_string(js_location_fragment()); }
void replace_location_fragment(const std::string& fragment) { js_replace_fragment(fragment.c_str()); }
std::string location_href() { return take_js_string(js_location_href()); }

void deliver_file(const std::string& path) { js_download(path.c_str()); }
bool files_are_downloads() { return true; }
bool ask_for_file() {
  js_pick_file();
  return true;
}

DataState shipped_lab_runs(bool start) {
  if (start && g_lab_runs == DataState::absent) {
    g_lab_runs = DataState::fetching;
    js_fetch_lab_runs();
  }
  return g_lab_runs;
}

void report_training(long steps, long planned, int runs_ended, int runs) {
  static long last_steps = -1, last_planned = -1;
  static int last_ended = -1, last_runs = -1;
  if (steps == last_steps && planned == last_planned && runs_ended == last_ended && runs == last_runs) return;
  last_steps = steps;
  last_planned = planned;
  last_ended = runs_ended;
  last_runs = runs;
  js_report_training(double(steps), double(planned), runs_ended, runs);
}

void copy_text(const std::string& text) { js_copy_text(text.c_str()); }

std::string cannot_write(const std::string& extension) {
  if (extension == ".pdf") return "PDF needs cairo, which the browser build does not have: save SVG, or use the desktop app";
  if (extension == ".gif" || extension == ".mp4")
    return "animations (GIF, MP4) are recorded by the desktop app; the browser saves PNG and SVG figures";
  return {};
}

}  // namespace peviz::gfx

extern "C" EMSCRIPTEN_KEEPALIVE void peviz_lab_runs_arrived(int ok) {
  peviz::gfx::g_lab_runs = ok ? peviz::gfx::DataState::ready : peviz::gfx::DataState::failed;
}
