// `peviz export models-compared --config A [--config B ...]`: the Context extension page's table of real models,
// one row per model and RoPE layer type, with a legend that says what each column holds (its "ok" column included).
#include <cstdio>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "core/base/errors.hpp"
#include "core/io/atomic_file.hpp"
#include "core/models/model_comparison.hpp"
#include "core/models/model_config.hpp"

namespace peviz::cli {

namespace {

// Columns the export adds to the page's (kComparisonColumns): what its cells fold into one ("48, 12 NoPE",
// "llama3 x8", a "no"'s hover), each after the column it details.
struct ExtraColumn {
  const char* key;
  const char* after;
  const char* meaning;
};
constexpr ExtraColumn kExtraColumns[] = {
    {"nope_layers", "layers", "of the layers, those that attend without positions (NoPE)."},
    {"linear_layers", "nope_layers", "of the layers, those that are not attention (linear attention)."},
    {"factor", "scaling", "the scaling's factor (1 without scaling)."},
    {"pairs", "pairs_turning_extended", "R/2, the rotating pairs the two turn columns count of."},
    {"first_failing_m", "ok", "where ok is no, the first distance m with B(m) < 0 at the model's base."},
};

// One row's values, by key: numbers as numbers, text as text, null where the config does not say.
nlohmann::json row_of(const RopeModelSummary& m) {
  const auto unless_zero = [](int v) { return v ? nlohmann::json(v) : nlohmann::json(nullptr); };
  return {{"model", m.name},
          {"layers", unless_zero(m.layers)},
          {"nope_layers", m.nope_layers},
          {"linear_layers", m.positionless_layers},
          {"rotary_dim", m.rotary_dim},
          {"base", m.base},
          {"scaling", std::string(to_string(m.scaling))},
          {"factor", m.factor},
          {"original_len", m.original_len},
          {"extended_len", m.extended_len},
          {"span", m.span},
          {"pairs_turning_original", m.pairs_turning_original},
          {"pairs_turning_extended", m.pairs_turning_extended},
          {"pairs", m.wavelength.size()},
          {"critical_dim", m.critical_dim},
          {"men_min_base", m.min_base ? nlohmann::json(*m.min_base) : nlohmann::json(nullptr)},
          {"ok", m.fails_at ? "no" : "yes"},
          {"first_failing_m", m.fails_at ? nlohmann::json(*m.fails_at) : nlohmann::json(nullptr)}};
}

// The columns in order with their meanings: the page's, each followed by the export's details of it.
std::vector<std::pair<std::string, std::string>> columns() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const ComparisonColumn& c : kComparisonColumns) {
    out.emplace_back(c.key, c.meaning);
    for (bool added = true; added;) {  // the details of the last column added (linear_layers after nope_layers)
      added = false;
      for (const ExtraColumn& e : kExtraColumns)
        if (out.back().first == e.after) {
          out.emplace_back(e.key, e.meaning);
          added = true;
          break;
        }
    }
  }
  return out;
}

// A CSV cell: empty for null, a number as JSON writes it (shortest round trip), text quoted when it must be.
std::string cell(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (!v.is_string()) return v.dump();
  const std::string text = v.get<std::string>();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char ch : text) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

// The header row, one row per model, then "# key: meaning" for every column (a page column's meaning starts with
// the page's short title for it: "orig.: the context it was trained on").
std::string table_csv(const std::vector<nlohmann::json>& rows) {
  const auto cols = columns();
  std::ostringstream csv;
  for (std::size_t i = 0; i < cols.size(); ++i) csv << (i ? "," : "") << cols[i].first;
  csv << '\n';
  for (const nlohmann::json& r : rows) {
    for (std::size_t i = 0; i < cols.size(); ++i) csv << (i ? "," : "") << cell(r.at(cols[i].first));
    csv << '\n';
  }
  for (const auto& [key, meaning] : cols) csv << "# " << key << ": " << meaning << '\n';
  return csv.str();
}

std::string table_json(const std::vector<nlohmann::json>& rows) {
  nlohmann::json legend = nlohmann::json::array();
  for (const auto& [key, meaning] : columns()) legend.push_back({{"key", key}, {"meaning", meaning}});
  return nlohmann::json{{"columns", legend}, {"models", rows}}.dump(2) + "\n";
}

// Every RoPE layer type of every config, summarised as the page does (one row each).
std::vector<nlohmann::json> table_rows(const std::vector<std::string>& configs) {
  std::vector<nlohmann::json> rows;
  for (const std::string& path : configs) {
    const ModelConfig m = load_model_config(path);
    if (m.scheme != PositionScheme::rope)
      throw ParamError("config", path + ": " + m.name + " uses " + std::string(to_string(m.scheme)) +
                                     " positions; the table compares RoPE models");
    for (const LayerTypeRope& t : m.layer_types)
      rows.push_back(row_of(summarize_rope_model(m, m.layer_types.size() > 1 ? t.layer_type : "")));
  }
  return rows;
}

}  // namespace

void register_model_comparison(CLI::App& export_cmd) {
  struct Command {
    std::vector<std::string> configs;
    std::string format = "csv", out = "-";
  };
  auto c = std::make_shared<Command>();
  CLI::App* sub = export_cmd.add_subcommand(
      "models-compared", "The Context extension page's table of real RoPE models: contexts, scaling, the pairs that "
                         "turn, Liu et al.'s d_extra, Men et al.'s smallest base and whether the model's base holds "
                         "(ok), one row per model and layer type, with what each column means");
  sub->add_option("--config", c->configs, "A model's config.json (Hugging Face); repeat for more models")->required();
  sub->add_option("--format", c->format, "csv | json")->capture_default_str();
  sub->add_option("--out", c->out, "Output path, or - for stdout")->capture_default_str();
  sub->callback([c] {
    emit_text_table(c->format, c->out, [&](bool json) {
      const std::vector<nlohmann::json> rows = table_rows(c->configs);
      return json ? table_json(rows) : table_csv(rows);
    });
  });
}

}  // namespace peviz::cli
