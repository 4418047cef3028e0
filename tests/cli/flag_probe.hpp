// Test helper: every numeric flag a command's --help lists, a value no limit allows for it, and the check that the
// command refuses it in the one wording (one line "peviz: --flag: ...", exit 2), never in CLI11's.
#pragma once
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "run_peviz.hpp"

struct NumericFlag {
  std::string flag, type;  // "--d-model", "INT" (CLI11's INT, UINT or FLOAT, with any :suffix)
};

// The numeric flags of a --help text, in its order.
inline std::vector<NumericFlag> numeric_flags(const std::string& help) {
  static const std::regex option(R"(^\s+(?:-\w,)?(--[a-z0-9-]+) (INT|UINT|FLOAT)\b)");
  std::vector<NumericFlag> flags;
  std::size_t start = 0;
  while (start < help.size()) {
    const std::size_t end = help.find('\n', start);
    const std::string line = help.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::smatch m;
    if (std::regex_search(line, m, option)) flags.push_back({m[1], m[2]});
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return flags;
}

// Values outside every limit of the type (the smallest limit of any flag is -512): a minus sign for an unsigned one.
inline std::vector<std::string> bad_values(const NumericFlag& f) {
  if (f.type == "UINT") return {"-1"};
  if (f.type == "INT") return {"-1000000000"};
  return {"-1e30", "nan"};
}

// The subcommand names a --help text lists under "Subcommands:".
inline std::vector<std::string> subcommand_names(const std::string& help) {
  std::vector<std::string> names;
  const std::size_t at = help.find("Subcommands:");
  if (at == std::string::npos) return names;
  static const std::regex name(R"(^  ([a-z0-9-]+)\s)");
  std::size_t start = help.find('\n', at) + 1;
  while (start > 0 && start < help.size()) {
    const std::size_t end = help.find('\n', start);
    const std::string line = help.substr(start, end - start);
    std::smatch m;
    if (std::regex_search(line, m, name)) names.push_back(m[1]);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return names;
}

// One refusal: exit 2 and one line naming the flag, in peviz's words (no CLI11 "Value ... not in range").
inline void check_flag_refusal(const std::string& flag, int code, const std::string& err) {
  INFO(flag << ": exit " << code << ", said: " << err);
  CHECK(code == 2);
  CHECK(count_lines(err) == 1);
  CHECK(err.rfind("peviz: " + flag + ": ", 0) == 0);
  for (const char* cli11 : {"Value ", "not in range", "should be", "At Most", "Could not convert"})
    CHECK(err.find(cli11) == std::string::npos);
}
