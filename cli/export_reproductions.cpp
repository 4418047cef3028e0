// `peviz export reproductions`: each method's claim against the lab's seeds of it (core/train/reproductions.hpp).
#include <memory>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "core/base/errors.hpp"
#include "core/io/atomic_file.hpp"
#include "core/train/reproductions.hpp"

namespace peviz::cli {

namespace {

struct ReproductionsCommand {
  std::string format = "md", out = "-";
};

void run_reproductions(const ReproductionsCommand& c) {
  if (c.format != "md" && c.format != "csv" && c.format != "json")
    throw ParamError("format", "must be md, csv or json, got '" + c.format + "'");
  check_out_extension(c.out, c.format);
  if (c.out != "-") check_can_write(c.out, "out");
  const std::vector<train::ReproductionRow> rows = train::reproduction_rows();
  emit_bytes(c.out, c.format == "md"    ? train::reproductions_markdown(rows)
                    : c.format == "csv" ? train::reproductions_csv(rows)
                                        : train::reproductions_json(rows));
}

}  // namespace

void register_reproductions(CLI::App& export_cmd) {
  auto c = std::make_shared<ReproductionsCommand>();
  CLI::App* sub = export_cmd.add_subcommand(
      "reproductions",
      "The Reproductions table: per length-generalisation method its paper and claim, and the lab's seeds of it "
      "against a baseline: seeds reaching 0.9 exact match at 2x and 3x the training length, mean and range, "
      "seconds per run (docs/lab.md)");
  sub->add_option("--format", c->format, "md | csv | json")->capture_default_str();
  sub->add_option("--out", c->out, "Output path, or - for stdout")->capture_default_str();
  sub->callback([c] { run_reproductions(*c); });
}

}  // namespace peviz::cli
