// The peviz command line as a whole (see program.hpp): shared by the GUI and the GUI-less builds.
#include "cli/program.hpp"

#include <cstdio>
#include <string>

#include "cli/commands.hpp"

namespace peviz::cli {

namespace {

// The deepest subcommand given on the command line (the app itself when none was).
const CLI::App* deepest_given(const CLI::App& app) {
  const CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return at;
}

// "export, bench, train, ...": the subcommands `at` offers.
std::string subcommand_names(const CLI::App& at) {
  std::string names;
  for (const CLI::App* sub : at.get_subcommands({})) names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

// CLI11's parse errors in our one-line form: "--flag: rule" where the text allows it.
std::string usage_message(const CLI::ParseError& e, const CLI::App& app) {
  const std::string what = e.what();
  const std::string prefix = "Could not convert: ";
  if (what.rfind(prefix, 0) == 0) {  // "Could not convert: --base = abc"
    const std::size_t eq = what.find(" = ", prefix.size());
    if (eq != std::string::npos) {
      const std::string flag = what.substr(prefix.size(), eq - prefix.size());
      return flag + ": must be a number of the type and range shown by --help, got '" + what.substr(eq + 3) + "'";
    }
  }
  if (const std::string extra = "The following argument was not expected: "; what.rfind(extra, 0) == 0) {
    // "peviz trian": name the subcommands of the deepest one given (the top level's for a misspelt one).
    const CLI::App* at = deepest_given(app);
    const std::string names = subcommand_names(*at);
    const std::string given = what.substr(extra.size());
    if (names.empty()) return "'" + given + "' is not a flag or value of " + (at == &app ? "peviz" : at->get_name()) +
                              " (see --help)";
    return "'" + given + "' is not a subcommand" + (at == &app ? "" : " of " + at->get_name()) + ": use one of " + names +
           " (see --help)";
  }
  if (what.find("subcommand is required") != std::string::npos) {
    // Name the choices of the deepest subcommand that was given.
    const CLI::App* at = deepest_given(app);
    return std::string(at == &app ? "" : at->get_name() + ": ") + "needs one of " + subcommand_names(*at);
  }
  return what;
}

void add_headless_commands(CLI::App& app) {
  CLI::App* export_cmd =
      app.add_subcommand("export", "Compute an encoding or analysis and write it as CSV, NPY or JSON");
  export_cmd->require_subcommand(1);
  register_absolute_exports(*export_cmd);
  register_relative_exports(*export_cmd);
  register_bench(app);
  register_train(app);
}

}  // namespace

int run_program(int argc, char** argv, const FrontEnd& front_end) {
  CLI::App app{"peviz: positional encodings in Transformers, visualised.\n"
               "With no subcommand it opens the interactive window (in a build that has one)."};
  app.set_version_flag("--version", std::string("peviz ") + PEVIZ_VERSION_STRING);
  add_headless_commands(app);
  if (front_end.add) front_end.add(app);

  bool parsed = false;
  const int code = run_guarded([&] {
    try {
      app.parse(argc, argv);
      parsed = true;
    } catch (const CLI::CallForHelp& e) {
      app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
      app.exit(e);
    } catch (const CLI::Success& e) {
      app.exit(e);
    } catch (const CLI::ParseError& e) {
      std::fprintf(stderr, "peviz: %s\n", usage_message(e, app).c_str());
      throw UsageExit{};
    }
  });
  if (code != 0 || !parsed) return code;
  if (!app.get_subcommands().empty()) return 0;  // the subcommand's callback did the work
  return front_end.run_without_subcommand();
}

}  // namespace peviz::cli
