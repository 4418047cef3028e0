// The command line as a whole: misspelt subcommands, stray arguments and every numeric flag out of range answered in
// the one-line form.
#include <catch2/catch.hpp>

#include "flag_probe.hpp"
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

namespace {
// The flags each subcommand needs before it looks at the others (its required ones), by name.
std::string required_flags(const std::string& command) {
  const std::string config = std::string(peviz::test::source_dir) + "/assets/models/";
  if (command == "rope-inv-freq") return "--head-dim 64 --base 10000";
  if (command == "rope-wavelengths") return "--head-dim 64 --base 10000 --context-len 4096";
  if (command == "rope-decay") return "--head-dim 64 --base 10000 --max-distance 10";
  if (command == "rope-precision") return "--head-dim 64 --base 10000 --max-position 1024";
  if (command == "mrope-axis-score") return "--config " + config + "qwen2.5-vl-7b-instruct.json";
  if (command == "layer-map") return "--config " + config + "llama-4-scout-17b-16e.json";
  if (command == "alibi-slopes") return "--heads 4";
  if (command == "alibi-bias") return "--heads 4 --seq-len 8";
  if (command == "t5-buckets" || command == "distance-series") return "--seq-len 8";
  if (command == "shaw") return "--seq-len 8 --max-relative 2";
  return "";
}
}  // namespace

TEST_CASE("every numeric flag of every command refuses a value out of its range in one line of peviz's words") {
  std::vector<std::string> commands = {"", "bench", "train"};  // "": the window's own flags (refused before it opens)
  for (const std::string& sub : subcommand_names(run_peviz("export --help").out)) commands.push_back("export " + sub);
  REQUIRE(commands.size() >= 20);
  int probed = 0;
  for (const std::string& command : commands) {
    const std::string name = command.substr(command.rfind(' ') + 1);
    for (const NumericFlag& f : numeric_flags(run_peviz(command + " --help").out)) {
      for (const std::string& value : bad_values(f)) {
        std::string given = required_flags(name);  // the flag probed replaces its own required value
        if (const std::size_t at = given.find(f.flag + " "); at != std::string::npos)
          given.erase(at, given.find(' ', at + f.flag.size() + 1) - at);
        INFO(command << " " << given << " " << f.flag << " " << value);
        const std::string out = command.rfind("export", 0) == 0 ? " --out /dev/null" : command.empty() ? " --frames 1" : "";
        if (command.empty() && f.flag == "--frames") continue;  // probed below, alone
        const RunResult r = run_shell("timeout 30 " + std::string(peviz::test::peviz_binary) + " " + command + " " + given +
                                      " " + f.flag + " " + value + out);
        check_flag_refusal(f.flag, r.code, r.err);
        ++probed;
      }
    }
  }
  CHECK(probed >= 150);  // every export's flags were reached
  const RunResult frames = run_peviz("--frames -1");
  if (frames.err.find("is not a flag") == std::string::npos) check_flag_refusal("--frames", frames.code, frames.err);
}
