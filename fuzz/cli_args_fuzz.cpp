// libFuzzer target: `peviz export ...` with arbitrary arguments parses, validates and runs or exits 2,
// never crashes. Input = arguments separated by newlines. Work is bounded by --max-memory 256KiB;
// arguments that would write or read files are skipped. Run with -close_fd_mask=3 so the
// results and error lines go nowhere (libFuzzer keeps its own report on the original stderr).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"peviz", "export"};
  std::string current;
  for (std::size_t i = 0; i <= size; ++i) {
    if (i == size || data[i] == '\n') {
      if (current.find("out") != std::string::npos || current.find("from") != std::string::npos ||
          current.find("max-memory") != std::string::npos)
        return 0;
      if (!current.empty()) args.push_back(current);
      current.clear();
    } else {
      current += char(data[i]);
    }
  }
  if (args.size() < 3 || args.size() > 40) return 0;
  // Bound the work: every subcommand takes --max-memory after its own flags.
  args.push_back("--max-memory");
  args.push_back("256KiB");

  CLI::App app{"peviz"};
  CLI::App* export_cmd = app.add_subcommand("export");
  export_cmd->require_subcommand(1);
  peviz::cli::register_absolute_exports(*export_cmd);
  peviz::cli::register_relative_exports(*export_cmd);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  peviz::cli::run_guarded([&] {
    try {
      app.parse(int(argv.size()), const_cast<char**>(argv.data()));
    } catch (const CLI::ParseError&) {
      throw peviz::cli::UsageExit{};
    }
  });
  return 0;
}
