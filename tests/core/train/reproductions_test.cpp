// The Reproductions table: its compiled-in results are the shipped files, every method has its seeds, and the
// outcome of a selection is what counting the runs by hand gives.
#include "core/train/reproductions.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/build_paths.hpp"

using namespace peviz::train;

namespace {

std::string file_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("the compiled-in results are assets/reproductions/*.json, as peviz train wrote them", "[train][reproductions]") {
  const std::filesystem::path dir = std::filesystem::path(peviz::test::source_dir) / "assets" / "reproductions";
  std::size_t on_disk = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) on_disk += entry.path().extension() == ".json";
  REQUIRE(reproduction_files().size() == on_disk);
  for (const ReproductionFile& f : reproduction_files()) {
    INFO(f.stem);
    CHECK(f.json == file_text(dir / (std::string(f.stem) + ".json")));
    CHECK(nlohmann::json::parse(f.json)["format"] == "peviz-lab-experiment-1");
  }
}

TEST_CASE("every method has five seeds or more, of the task it was made for, beside its baseline's", "[train][reproductions]") {
  for (const ReproductionRow& r : reproduction_rows()) {
    INFO(r.method->method);
    CHECK(r.ours.seeds >= 5);
    CHECK(r.baseline.seeds >= 5);
    CHECK(r.ours.train_max == r.baseline.train_max);
    CHECK(r.ours.twice.length == 2 * r.ours.train_max);
    CHECK(r.ours.thrice.length == 3 * r.ours.train_max);
    CHECK(r.ours.thrice.tested == r.ours.seeds);  // every shipped run tested to 3x
    CHECK(r.ours.seconds_per_run > 0);
    CHECK_FALSE(r.method->limits.empty());
  }
}

TEST_CASE("a selection's outcome is what counting its runs gives", "[train][reproductions]") {
  for (const ReproductionMethod& m : reproduction_methods()) {
    const nlohmann::json file = nlohmann::json::parse(
        std::find_if(reproduction_files().begin(), reproduction_files().end(),
                     [&](const ReproductionFile& f) { return f.stem == m.ours.file; })->json);
    int seeds = 0, succeeded = 0;
    double sum = 0, lowest = 1, highest = 0;
    for (const nlohmann::json& run : file["runs"]) {
      if (run["pe"] != m.ours.pe) continue;
      const double em = run["exact_match"][std::to_string(3 * run["train_max"].get<int>())].get<double>();
      ++seeds;
      succeeded += em >= 0.9;
      sum += em;
      lowest = std::min(lowest, em);
      highest = std::max(highest, em);
    }
    const SeedOutcome o = seed_outcome(m.ours);
    INFO(m.method);
    CHECK(o.seeds == seeds);
    CHECK(o.thrice.succeeded == succeeded);
    CHECK(o.thrice.mean == Approx(sum / seeds));
    CHECK(o.thrice.min == lowest);
    CHECK(o.thrice.max == highest);
  }
  CHECK_THROWS_WITH(seed_outcome({"add-methods", "t5"}), "assets/reproductions/add-methods.json holds no t5 run");
  CHECK_THROWS_WITH(seed_outcome({"nowhere", "rope"}), "no results file assets/reproductions/nowhere.json");
}

TEST_CASE("an outcome reads as successes over seeds, then mean and range", "[train][reproductions]") {
  LengthOutcome o{.length = 30, .succeeded = 4, .tested = 5, .mean = 0.625, .min = 0, .max = 1};
  CHECK(outcome_text(o) == "4/5 [0.62 mean, 0.00-1.00]");
  CHECK(outcome_text(LengthOutcome{}) == "undefined");
}

TEST_CASE("the table's CSV keeps one row per method whatever commas its texts hold", "[train][reproductions]") {
  const std::vector<ReproductionRow> rows = reproduction_rows();
  const std::string csv = reproductions_csv(rows);
  std::istringstream in(csv);
  std::string line;
  std::vector<int> fields;
  while (std::getline(in, line)) {
    int count = 1;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      count += c == ',' && !quoted;
    }
    fields.push_back(count);
  }
  REQUIRE(fields.size() == rows.size() + 1);
  for (int f : fields) CHECK(f == 21);
  const nlohmann::json j = nlohmann::json::parse(reproductions_json(rows));
  CHECK(j["rows"].size() == rows.size());
}
