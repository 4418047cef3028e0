// Tests for core/io/atomic_file: all-or-nothing writes and bounded reads.
#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <csignal>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

namespace fs = std::filesystem;
using namespace peviz;

TEST_CASE("a failed fill leaves neither the target nor a temporary file") {
  const fs::path dir = fs::path(unique_temp_path("atomic"));
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

TEST_CASE("a result over --max-output or over the free space is refused naming both sizes") {
  const fs::path dir = fs::path(unique_temp_path("size"));
  fs::create_directories(dir);
  const std::string target = (dir / "x.npy").string();
  try {
    check_output_size(target, 64ull << 20, true, 1ull << 20, "the NPY output");
    FAIL("not refused");
  } catch (const ParamError& e) {
    CHECK(e.param == "max-output");
    CHECK(e.rule == "the NPY output would take 64 MiB, over the --max-output limit of 1 MiB");
  }
  try {  // 1 PiB fits no test machine's disk
    check_output_size(target, 1ull << 50, false, 1ull << 50, "the CSV output");
    FAIL("not refused");
  } catch (const ParamError& e) {
    CHECK(e.param == "out");
    CHECK(e.rule.rfind("the CSV output could take up to 1048576 GiB but " + dir.string() + " has ", 0) == 0);
  }
  try {  // sizes that print alike are given in bytes too
    check_output_size("-", (64ull << 30) + 16, true, 64ull << 30, "the NPY output");
    FAIL("not refused");
  } catch (const ParamError& e) {
    CHECK(e.rule == "the NPY output would take 64 GiB (68719476752 bytes), over the --max-output limit of 64 GiB "
                    "(68719476736 bytes)");
  }
  check_output_size("-", 1ull << 50, true, 1ull << 50, "the NPY output");          // stdout: no free-space check
  check_output_size("/dev/null", 1ull << 50, true, 1ull << 50, "the NPY output");  // a device: none either
  check_output_size(target, 1000, true, 1000, "the NPY output");
  CHECK(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST_CASE("SIGINT during a guarded write removes the temporary file and is reported once") {
  const fs::path dir = fs::path(unique_temp_path("signal"));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string target = (dir / "x.csv").string();
  try {
    write_file_atomically(target, [](std::ostream& os) {
      os << "half";
      std::raise(SIGINT);  // the guard turns it into a flag ...
      throw_if_interrupted();  // ... that the writer's next poll throws
    });
    FAIL("not interrupted");
  } catch (const Interrupted& e) {
    CHECK(e.signal == SIGINT);
    CHECK(std::string(e.what()) == "interrupted by SIGINT");
  }
  CHECK(fs::is_empty(dir));
  throw_if_interrupted();  // outside a guard, and after being reported: nothing pending
  // The default action is back after the guard: a later write that never polls completes normally.
  write_file_atomically(target, [](std::ostream& os) { os << "whole"; });
  CHECK(read_file_bytes(target, "in") == "whole");
  fs::remove_all(dir);
}

TEST_CASE("check_can_write refuses, before any work, what write_file_atomically would refuse after it") {
  const fs::path dir = fs::path(unique_temp_path("can-write"));
  fs::remove_all(dir);
  fs::create_directories(dir);
  check_can_write((dir / "run.safetensors").string());
  CHECK(fs::is_empty(dir));  // the probe leaves nothing
  CHECK_THROWS_WITH(check_can_write((dir / "no" / "run.safetensors").string()),
                    Catch::Contains("cannot write") && Catch::Contains("No such file"));
  CHECK_THROWS_WITH(check_can_write(dir.string()), Catch::Contains("it is a directory"));
  // A folder nobody can create files in, root included (the tests may run as root, which ignores modes).
  CHECK_THROWS_WITH(check_can_write("/proc/peviz-run.safetensors"), Catch::StartsWith("out: cannot write"));
  check_can_write("/dev/null");  // written in place
  fs::remove_all(dir);
}
