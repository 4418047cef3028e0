// The command line as a whole: misspelt subcommands and stray arguments answered in the one-line form.
#include <catch2/catch.hpp>

#include "run_peviz.hpp"

TEST_CASE("a misspelt subcommand names the subcommands there are") {
  const RunResult r = run_peviz("trian");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("peviz: 'trian' is not a subcommand: use one of export, bench, train", 0) == 0);
  CHECK(r.err.find("(see --help)\n") != std::string::npos);
  CHECK(count_lines(r.err) == 1);
}

TEST_CASE("a missing or stray subcommand argument gets one line naming the choices or the subcommand") {
  const RunResult missing = run_peviz("export");
  CHECK(missing.code == 2);
  CHECK(missing.err.rfind("peviz: export: needs one of encoding, similarity", 0) == 0);
  check_refused("train foo", "peviz: 'foo' is not a flag or value of train (see --help)");
  check_refused("export encoding --d-model 8 --seq-len 4 extra",
                "peviz: 'extra' is not a flag or value of encoding (see --help)");
}
