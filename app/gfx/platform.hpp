// What differs between the desktop window and the browser page, besides GL (app/gfx/gl.hpp): how frames are
// driven, the page's address, handing files to the user and taking them from the user, the clipboard, and
// which file formats can be written. platform_desktop.cpp and platform_web.cpp implement it, one per build.
#pragma once
#include <functional>
#include <string>

#include "app/gfx/window.hpp"

namespace peviz::gfx {

// True in the browser build.
bool in_browser();

// Calls frame() once per display frame until it returns false, then done() once, whose exit code it returns.
// The desktop loops; the browser returns 0 at once, calls frame() from its animation frames, and hands done()'s
// code to the page (window.pevizPage.exitCode, for tests).
int run_frame_loop(std::function<bool()> frame, std::function<int()> done);

// Nothing moves until the user does: the desktop sleeps until an input event (or `timeout_s` seconds when it is
// >= 0). The browser cannot block inside a frame: with no timeout it skips its animation frames from the next one
// on until the page sees input, a change of its address, a file or fetched data (web/peviz-page.js counts them),
// so an idle page costs no CPU; with a timeout (a page busy on its own: the Lab's training) it keeps drawing in
// every animation frame: the one-thread build trains inside its frames, and the threaded build's workers leave the
// page a core (background_workers in core/base/parallel.hpp).
void wait_for_input(double timeout_s);

// Input that reached the app outside the page's events, as a dropped file does: emscripten's GLFW reads it
// asynchronously and calls back after the drop event, maybe while the page idles, which this wakes. The desktop's
// callbacks run inside wait_for_input and need nothing.
void input_arrived();

// The browser window's size in device pixels, which the canvas follows ({0, 0} on the desktop).
PixelSize page_pixel_size();

// The page address's fragment without the '#' ("" on the desktop).
std::string location_fragment();
// Puts `fragment` in the address bar without adding a history entry (nothing on the desktop).
void replace_location_fragment(const std::string& fragment);
// The page's whole address ("" on the desktop), for "Copy link to this view".
std::string location_href();

// A file the app has just written, handed to the user: the browser downloads it under its file name (its copy in
// the page's memory stays until the page closes); on the desktop it is already where the user asked.
void deliver_file(const std::string& path);
// True where files the app writes reach the user only through deliver_file (the browser).
bool files_are_downloads();
// Opens the browser's file picker; the chosen file arrives as a dropped file does (take_dropped_path).
// False on the desktop, whose File > Open types a path.
bool ask_for_file();

// Data the browser fetches only when a page needs it, not with the page: the shipped lab runs (assets/lab, every
// file lab/files.txt names; tests/web/serve_test.py prints their size). The desktop has them installed: always ready.
enum class DataState { absent, fetching, ready, failed };
// The state of the shipped lab runs; the first call with `start` begins fetching them into the page's files.
DataState shipped_lab_runs(bool start);

// How far the Lab's training is: optimizer steps done and planned over every run, and runs ended of all runs. The browser
// hands it to the page (window.pevizPage.training, with the time each count was reached: what its tests and
// bench/web_lab_speed.js read); the desktop ignores it.
void report_training(long steps, long planned, int runs_ended, int runs);

// Copies text to the system clipboard.
void copy_text(const std::string& text);

// Why this build cannot write a file of this extension (".pdf", ".gif", ".mp4"), or "" when it can.
std::string cannot_write(const std::string& extension);

}  // namespace peviz::gfx
