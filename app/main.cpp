// peviz executable: headless subcommands (export, bench, ...) or, with none, the interactive window.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "app/gui_main.hpp"
#include "app/render_command.hpp"
#include "cli/commands.hpp"

namespace {

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
  if (what.find("subcommand is required") != std::string::npos) {
    // Name the choices of the deepest subcommand that was given.
    const CLI::App* at = &app;
    while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
    std::string names;
    for (const CLI::App* sub : at->get_subcommands({})) names += (names.empty() ? "" : ", ") + sub->get_name();
    return std::string(at == &app ? "" : at->get_name() + ": ") + "needs one of " + names;
  }
  return what;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"peviz: positional encodings in Transformers, visualised.\n"
               "With no subcommand it opens the interactive window."};
  app.set_version_flag("--version", std::string("peviz ") + PEVIZ_VERSION_STRING);
  CLI::App* export_cmd =
      app.add_subcommand("export", "Compute an encoding or analysis and write it as CSV, NPY or JSON");
  export_cmd->require_subcommand(1);
  peviz::cli::register_absolute_exports(*export_cmd);
  peviz::cli::register_relative_exports(*export_cmd);
  peviz::cli::register_bench(app);
  peviz::cli::register_train(app);
  peviz::app::register_render(app);

  peviz::app::GuiOptions gui;
  peviz::app::add_gui_flags(app, gui);

  int code = 0;
  bool parsed = false;
  code = peviz::cli::run_guarded([&] {
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
      throw peviz::cli::UsageExit{};
    }
  });
  if (code != 0 || !parsed) return code;
  if (!app.get_subcommands().empty()) return 0;  // the subcommand's callback did the work
  return peviz::app::run_gui(gui);
}
