// The Reproductions table: each length-generalisation method of the field, the paper's claim, and what the lab's
// shipped seeds of it give (success rate at 2x and 3x the training length, mean and range, time per run).
//
// A method's result is read from an experiment manifest that `peviz train --out` printed (assets/reproductions/,
// compiled into core by CMake: reproduction_files), never typed in: per run its encoding, seed, training length,
// steps, steps per second and exact match per test length. A seed succeeds at k x when its exact match at
// n = k x train_max is at least kSuccessExactMatch. The table's rows (the method, its paper and claim, which runs
// are the method's and which its baseline's, what we think limits our result) are the rows below.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace peviz::train {

inline constexpr double kSuccessExactMatch = 0.9;  // a seed "succeeds" at a length with this exact match or more

// A compiled-in results file: assets/reproductions/<stem>.json, as `peviz train --out` wrote it.
struct ReproductionFile {
  std::string_view stem;
  std::string_view json;
};
std::span<const ReproductionFile> reproduction_files();  // sorted by stem; generated at configure time

// Which runs of a results file: those of one encoding (--pe), every seed.
struct RunSelection {
  std::string_view file;   // a stem of reproduction_files()
  std::string_view pe;
};

struct ReproductionMethod {
  std::string_view method;    // "Abacus"
  std::string_view paper;     // "McLeish et al. (NeurIPS 2024)"
  std::string_view task;      // the task it was made for, as the runs name it
  std::string_view claim;     // the paper's claim, in its words where short
  RunSelection ours;          // the method's runs
  RunSelection baseline;      // the same setting without the method
  std::string_view baseline_name;  // "NoPE", "RoPE", ...
  std::string_view limits;    // what we think limits our result (model size, steps)
};

// Over the seeds of one selection: how many reach kSuccessExactMatch at 2x and 3x, and the exact match there.
struct LengthOutcome {
  int length = 0;         // n = factor x train_max
  int succeeded = 0;      // seeds with exact match >= kSuccessExactMatch
  int tested = 0;         // seeds tested at that length
  double mean = 0, min = 0, max = 0;
};
struct SeedOutcome {
  int seeds = 0;
  int train_max = 0;
  LengthOutcome twice, thrice;
  double seconds_per_run = 0;  // mean of steps / steps_per_s: one run on one thread
};
struct ReproductionRow {
  const ReproductionMethod* method = nullptr;
  SeedOutcome ours, baseline;
};

// The methods, table order.
std::span<const ReproductionMethod> reproduction_methods();
// Reads a selection's runs from its compiled-in file; throws std::runtime_error naming the file when it is missing,
// holds no such run, or lacks a field.
SeedOutcome seed_outcome(const RunSelection& selection);
// Every method's row, table order.
std::vector<ReproductionRow> reproduction_rows();

// "4/5 [0.62 mean, 0.00-1.00]": successes over seeds at that length, then the exact match's mean and range;
// "undefined" where no seed was tested there (a learned table without the rows).
std::string outcome_text(const LengthOutcome& o);
// "4/5", or "undefined" as above.
std::string success_text(const LengthOutcome& o);
// The table as CSV (one header line), Markdown or JSON: method, paper, claim, task, train max, ours and the
// baseline's success and exact match at 2x and 3x, seconds per run, limits.
std::string reproductions_csv(const std::vector<ReproductionRow>& rows);
std::string reproductions_markdown(const std::vector<ReproductionRow>& rows);
std::string reproductions_json(const std::vector<ReproductionRow>& rows);

}  // namespace peviz::train
