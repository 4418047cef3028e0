// peviz executable of the GUI-less build (PEVIZ_BUILD_GUI=OFF): `export` and `bench`, no window, no GL.
#include <cstdio>

#include "cli/program.hpp"

int main(int argc, char** argv) {
  peviz::cli::FrontEnd headless;
  headless.run_without_subcommand = [] {
    std::fprintf(stderr, "peviz: this build has no window (PEVIZ_BUILD_GUI=OFF); use 'peviz export' or 'peviz bench'\n");
    return 2;
  };
  return peviz::cli::run_program(argc, argv, headless);
}
