// `peviz export layer-map --config FILE`: how each layer of a model sees position and over what span.
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/models/model_config.hpp"

namespace peviz::cli {

namespace {

nlohmann::json layer_json(const ModelConfig& m, const ModelLayer& l, std::size_t index) {
  const std::string scale = query_scale_formula(m, l);
  return {{"index", index},
          {"positions", to_string(l.positions)},
          {"attention", to_string(l.attention)},
          {"window", l.window ? nlohmann::json(l.window) : nlohmann::json(nullptr)},
          {"query_scale", scale.empty() ? nlohmann::json(nullptr) : nlohmann::json(scale)},
          {"layer_type", l.layer_type}};
}

std::string layer_map_json(const ModelConfig& m) {
  nlohmann::json layers = nlohmann::json::array();
  for (std::size_t i = 0; i < m.layers.size(); ++i) layers.push_back(layer_json(m, m.layers[i], i));
  const nlohmann::json j = {{"model", m.name}, {"model_type", m.model_type}, {"layers", layers}, {"unmodelled", m.unmodelled}};
  return j.dump(2) + "\n";
}

// One row per layer; the unmodelled fields follow as "# unmodelled: ..." lines after the table.
std::string layer_map_csv(const ModelConfig& m) {
  std::ostringstream csv;
  csv << "index,positions,attention,window,query_scale,layer_type\n";
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const ModelLayer& l = m.layers[i];
    csv << i << ',' << to_string(l.positions) << ',' << to_string(l.attention) << ',';
    if (l.window) csv << l.window;
    csv << ',' << query_scale_formula(m, l) << ',' << l.layer_type << '\n';
  }
  for (const std::string& u : m.unmodelled) csv << "# unmodelled: " << u << '\n';
  return csv.str();
}

// The map of the model at `config`, as JSON or CSV. ParamError("config") for a model whose layers it cannot list.
std::string layer_map_text(const std::string& config, bool json) {
  const ModelConfig m = load_model_config(config);
  if (m.scheme != PositionScheme::rope)
    throw ParamError("config", m.name + " (model_type '" + m.model_type + "') uses " +
                                   std::string(to_string(m.scheme)) + " positions, the same in every layer");
  if (m.layers.empty()) throw ParamError("config", "num_hidden_layers is missing: the layers cannot be listed");
  return json ? layer_map_json(m) : layer_map_csv(m);
}

}  // namespace

void register_layer_map(CLI::App& export_cmd) {
  struct Command {
    std::string config, format = "json", out = "-";
  };
  auto c = std::make_shared<Command>();
  CLI::App* sub = export_cmd.add_subcommand(
      "layer-map", "Per layer of a model's config.json: RoPE, NoPE or none; full, sliding, chunked or linear "
                   "attention and its window; Llama 4's query scale; the positional fields peviz does not model");
  sub->add_option("--config", c->config, "A model's config.json (Hugging Face)")->required();
  sub->add_option("--format", c->format, "json | csv")->capture_default_str();
  sub->add_option("--out", c->out, "Output path, or - for stdout")->capture_default_str();
  sub->callback([c] {
    emit_text_table(c->format, c->out, [&](bool json) { return layer_map_text(c->config, json); });
  });
}

}  // namespace peviz::cli
