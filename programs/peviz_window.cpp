// peviz executable of the GUI build: the command line plus `render` and, with no subcommand, the window.
#include "app/ui/gui_main.hpp"
#include "programs/render_command.hpp"
#include "cli/program.hpp"

int main(int argc, char** argv) {
  peviz::app::GuiOptions gui;
  peviz::cli::FrontEnd window;
  window.add = [&](CLI::App& app) {
    peviz::app::register_render(app);
    peviz::app::add_gui_flags(app, gui);
  };
  window.run_without_subcommand = [&] { return peviz::app::run_gui(gui); };
  return peviz::cli::run_program(argc, argv, window);
}
