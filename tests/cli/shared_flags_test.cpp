// Tests for cli/shared_flags.hpp: a shared flag's spelling from its limits row, one help line with the range, the
// limits table's refusal, and a limits row of another name refused at registration.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "cli/shared_flags.hpp"

using namespace peviz;
using namespace peviz::cli;

TEST_CASE("a shared flag: its name, its help with the command's range, the limits table's refusal") {
  CLI::App app;
  int heads = 0;
  CLI::Option* flag = add_shared_flag(app, shared_flags::heads, heads, limits::alibi_heads);
  CHECK(flag->get_name() == "--heads");
  CHECK(flag->get_description() == "Attention heads, " + range_text(limits::alibi_heads));
  app.parse("--heads 12", false);
  CHECK(heads == 12);
  CHECK_THROWS_WITH(app.parse("--heads 0", false), Catch::Contains("must be an integer in [1, 4096], got 0"));
}

TEST_CASE("the window's range when the window registers it") {
  CLI::App app;
  int d_model = 0;
  add_shared_flag(app, shared_flags::d_model, d_model, limits::d_model, LimitRange::window);
  CHECK(app.get_option("--d-model")->get_description() ==
        std::string(shared_flags::d_model.help) + ", " + window_range_text(limits::d_model));
  CHECK_THROWS_WITH(app.parse("--d-model 5000", false), Catch::Contains("must be an integer in [1, 4096], got 5000"));
}

TEST_CASE("a limits row of another name is a programming error") {
  CLI::App app;
  double base = 0;
  CHECK_THROWS_AS(add_shared_flag(app, shared_flags::base, base, limits::factor), std::logic_error);
}

TEST_CASE("a flag the command checks itself names its range and takes any number") {
  CLI::App app;
  int heads = 0;
  add_shared_flag(app, shared_flags::heads, heads, limits::train_heads, LimitRange::checked_later);
  CHECK(app.get_option("--heads")->get_description() == "Attention heads, " + range_text(limits::train_heads));
  app.parse("--heads 12", false);
  CHECK(heads == 12);
}
