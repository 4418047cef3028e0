// `peviz export attention-scale`: each method's factor on the logits, and the needle's weight, against position.
#include <algorithm>
#include <memory>

#include "cli/commands.hpp"
#include "cli/export_common.hpp"
#include "cli/rope_flags.hpp"
#include "core/base/errors.hpp"
#include "core/io/atomic_file.hpp"
#include "core/models/attention_scale.hpp"

namespace peviz::cli {

namespace {

// A method parameter's flag and the method that reads it.
struct ParamFlag {
  CLI::Option* option = nullptr;
  ScaleMethod method;
};

struct Command {
  std::string config, positions, format = "json", out = "-";
  std::vector<std::string> methods;
  ScaleMethodParams params;
  double margin = limits::needle_margin.fallback, spread = limits::needle_spread.fallback;
  CLI::Option* positions_flag = nullptr;
  std::vector<ParamFlag> param_flags;
};

std::vector<ScaleMethod> chosen_methods(const Command& c) {
  std::vector<ScaleMethod> out;
  for (const std::string& name : c.methods) {
    const ScaleMethod m = parse_scale_method(name);
    if (std::find(out.begin(), out.end(), m) != out.end())
      throw ParamError("method", "names " + name + " twice: name each method once");
    out.push_back(m);
  }
  if (c.methods.empty()) out.assign(std::begin(kAllScaleMethods), std::end(kAllScaleMethods));
  return out;
}

// A method parameter applies to its method only: refused with --config, or when its method is not chosen.
void check_param_flags(const Command& c, const std::vector<ScaleMethod>& methods) {
  for (const ParamFlag& f : c.param_flags) {
    if (f.option->count() == 0) continue;
    const std::string flag = f.option->get_name().substr(2);
    if (!c.config.empty())
      throw ParamError(flag, "sets a method's parameter; with --config the model's own values are used");
    if (std::find(methods.begin(), methods.end(), f.method) == methods.end())
      throw ParamError(flag, "is a parameter of --method " + std::string(to_string(f.method)) + ", which is not chosen");
  }
}

void run(const Command& c) {
  if (c.format != "json") throw ParamError("format", "must be json, got '" + c.format + "'");
  check_out_extension(c.out, c.format);
  if (!c.config.empty() && !c.methods.empty())
    throw ParamError("method", "draws a method's curve; --config draws the model's own: give one of them");
  if (c.out != "-") check_can_write(c.out, "out");
  const std::vector<ScaleMethod> methods = chosen_methods(c);
  check_param_flags(c, methods);
  const std::vector<long long> positions = c.positions_flag->count() == 0
                                               ? default_scale_positions()
                                               : parse_whole_number_list(c.positions, "positions");
  const nlohmann::json j = c.config.empty()
                               ? attention_scale_json(methods, c.params, positions, c.margin, c.spread)
                               : attention_scale_json(load_model_config(c.config), positions, c.margin, c.spread);
  const std::string bytes = j.dump(1) + "\n";
  emit_bytes(c.out, bytes);
}

void add_param(CLI::App* sub, Command& c, const Limit& l, double& value, ScaleMethod m, const std::string& what) {
  CLI::Option* o = sub->add_option("--" + std::string(l.name), value, what + " (" + range_text(l) + ")");
  o->capture_default_str();
  c.param_flags.push_back({o, m});
}

}  // namespace

void register_attention_scale(CLI::App& export_cmd) {
  auto c = std::make_shared<Command>();
  CLI::App* sub = export_cmd.add_subcommand(
      "attention-scale",
      "The factor on q.k/sqrt(d) against the query position for SSMax, log-n, YaRN, Llama 4's temperature or a "
      "model's own layers, and the weight one key with a logit margin keeps among n = position + 1 keys "
      "(docs/attention-scale.md)");
  c->positions_flag = sub->add_option("--positions", c->positions,
                                      "Comma-separated query positions (default: 0, then powers of two to 2^20)");
  sub->add_option("--margin", c->margin, "The needle's logit margin D over the other keys (" +
                                             range_text(limits::needle_margin) + ")")->capture_default_str();
  sub->add_option("--spread", c->spread, "Standard deviation of the other keys' logits (" +
                                             range_text(limits::needle_spread) + "; 0 = all equal)")->capture_default_str();
  sub->add_option("--method", c->methods, "none | ssmax | logn | yarn | llama4, repeatable (default: all)");
  sub->add_option("--config", c->config, "A model's config.json: its own scale per group of layers instead of methods");
  add_param(sub, *c, limits::ssmax_s, c->params.ssmax_s, ScaleMethod::ssmax, "SSMax's s");
  add_param(sub, *c, limits::train_length, c->params.train_length, ScaleMethod::logn, "log-n's training length L");
  add_param(sub, *c, limits::factor, c->params.factor, ScaleMethod::yarn, "YaRN's scale factor s");
  add_param(sub, *c, limits::attn_scale, c->params.attn_scale, ScaleMethod::llama4, "Llama 4's attn_scale");
  add_param(sub, *c, limits::floor_scale, c->params.floor_scale, ScaleMethod::llama4, "Llama 4's floor_scale");
  sub->add_option("--format", c->format, "json")->capture_default_str();
  sub->add_option("--out", c->out, "Output path, or - for stdout")->capture_default_str();
  sub->callback([c] { run(*c); });
}

}  // namespace peviz::cli
