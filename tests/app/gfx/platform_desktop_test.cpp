// The desktop side of the platform layer: a plain frame loop, no address, files that stay where they were written.
#include "app/gfx/platform.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the desktop's frame loop calls frame until it says stop, then done once, and returns done's code") {
  int frames = 0, done = 0;
  const int code = peviz::gfx::run_frame_loop([&] { return ++frames < 5; }, [&] { return ++done == 1 ? 7 : -1; });
  CHECK(frames == 5);
  CHECK(done == 1);
  CHECK(code == 7);
}

TEST_CASE("the desktop has no address, writes every format and keeps files where they were written") {
  CHECK_FALSE(peviz::gfx::in_browser());
  CHECK(peviz::gfx::location_fragment().empty());
  CHECK(peviz::gfx::location_href().empty());
  CHECK_FALSE(peviz::gfx::files_are_downloads());
  CHECK_FALSE(peviz::gfx::ask_for_file());
  for (const char* extension : {".png", ".svg", ".pdf", ".gif", ".mp4"}) CHECK(peviz::gfx::cannot_write(extension).empty());
  CHECK(peviz::gfx::shipped_lab_runs(true) == peviz::gfx::DataState::ready);
  const peviz::gfx::PixelSize page = peviz::gfx::page_pixel_size();
  CHECK((page.width == 0 && page.height == 0));
}
