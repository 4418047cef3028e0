// The peviz command line as a whole: the export and bench subcommands, parse errors in our one-line
// form, and a hook through which the GUI build adds its window and `render` on top.
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace peviz::cli {

// What a front end adds to the command line: flags and subcommands (`add`), and what runs when the
// user gave no subcommand (`run_without_subcommand`, returning the exit code).
struct FrontEnd {
  std::function<void(CLI::App&)> add;
  std::function<int()> run_without_subcommand;
};

// Parses argv, runs the chosen subcommand (or front_end.run_without_subcommand) and returns the exit
// code: 0, 1 (a failure that is not the user's input) or 2 (one line naming the flag).
int run_program(int argc, char** argv, const FrontEnd& front_end);

}  // namespace peviz::cli
