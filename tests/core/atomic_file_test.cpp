// Tests for core/atomic_file: all-or-nothing writes and bounded reads.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"

namespace fs = std::filesystem;
using namespace peviz;

TEST_CASE("a failed fill leaves neither the target nor a temporary file") {
  const fs::path dir = fs::temp_directory_path() / "peviz-atomic-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string target = (dir / "x.csv").string();
  CHECK_THROWS_AS(write_file_atomically(target, [](std::ostream& os) {
                    os << "half";
                    throw std::runtime_error("boom");
                  }),
                  std::runtime_error);
  CHECK(fs::is_empty(dir));

  write_file_atomically(target, [](std::ostream& os) { os << "whole"; });
  CHECK(read_file_bytes(target, "in") == "whole");
  CHECK((fs::status(target).permissions() & fs::perms::owner_read) != fs::perms::none);
  CHECK_THROWS_AS(read_file_bytes(target, "in", 3), ParamError);
  CHECK_THROWS_AS(write_file_atomically((dir / "no" / "such" / "dir.csv").string(), [](std::ostream&) {}), ParamError);
  CHECK_THROWS_AS(write_file_atomically(dir.string(), [](std::ostream&) {}), ParamError);
  fs::remove_all(dir);
}

TEST_CASE("a device target is written in place, never replaced") {
  write_file_atomically("/dev/null", [](std::ostream& os) { os << "discarded"; });
  CHECK(fs::is_character_file("/dev/null"));
}
