// `peviz export` subcommands of the relative family (filled in by the relative-family work).
#include "cli/commands.hpp"

namespace peviz::cli {

void register_relative_exports(CLI::App&) {}

}  // namespace peviz::cli
