// Test helper for the PyTorch twin's tests: writes peviz's side of each comparison (batch, loss, gradients, weights).
//
//   twin_dump parity DIR     for each run of DIR/settings.json (peviz train --emit-pytorch): DIR/dump-<pe>-seed<S>
//                            .safetensors holding the first training batch of the run's stream (and the ids of three
//                            test sequences), the loss and every
//                            gradient of that batch from the initial weights (float, and double as hi + lo floats),
//                            the position tables, and the weights and losses after five TrainRun steps, and after
//                            the same five steps of the double engine (as hi + lo floats)
//   twin_dump evaluate RUN   peviz's exact match of a saved run's weights, evaluated again (one JSON line)
//   twin_dump open PATH      open_experiment(PATH): one run_full_json line per run (what the Lab page shows)
// Exit 2 with one line on stderr on bad input.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/io/safetensors.hpp"
#include "core/train/experiment.hpp"
#include "core/train/run_io.hpp"
#include "core/train/adamw.hpp"
#include "core/train/twin.hpp"

namespace {

using namespace peviz;
using namespace peviz::train;
namespace fs = std::filesystem;

constexpr std::uint64_t kDataStream = 0xA0761D6478BD642Full;  // core/train/run.cpp's training stream (lab.py too)
constexpr std::uint64_t kPositionStream = 0xE7037ED1A0B428DBull;  // run.cpp's sampled training ids (lab.py too)

std::string digits17(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

TrainSettings settings_of(const nlohmann::json& j, const nlohmann::json& run) {
  const nlohmann::json& t = j.at("settings");
  TrainSettings s;
  if (!parse_task(t.at("task").get<std::string>(), s.task)) throw ParamError("settings", "unknown task");
  if (!parse_position_encoding(run.at("pe").get<std::string>(), s.pe)) throw ParamError("settings", "unknown pe");
  s.seed = run.at("seed").get<std::uint64_t>();
  s.layers = t.at("layers");
  s.heads = t.at("heads");
  s.d_model = t.at("d_model");
  s.batch = t.at("batch");
  s.steps = t.at("steps");
  s.train_max = t.at("train_max");
  s.test_max = t.at("test_max");
  s.test_samples = t.at("test_samples");
  s.rope_base = t.at("rope_base");
  s.lr = t.at("lr");
  s.warmup = t.at("warmup");
  s.position_range = t.at("position_range");
  s.ema_decay = t.at("ema_decay");
  s.dropout = t.at("dropout");
  if (!parse_length_scale(t.at("length_scale").get<std::string>(), s.length_scale))
    throw std::runtime_error("settings.json: unknown length_scale");
  s.nope_every = t.at("nope_every");
  s.drope_steps = t.at("drope_steps");
  validate(s);
  return s;
}

// Keeps every buffer a tensor's span points into alive until the file is written.
struct Dump {
  std::vector<std::vector<float>> store;
  std::vector<SafetensorsF32> tensors;
  void add(const std::string& name, std::vector<float> values, std::vector<std::uint64_t> shape = {}) {
    if (shape.empty()) shape = {values.size()};
    store.push_back(std::move(values));
    tensors.push_back({name, shape, std::span<const float>(store.back())});
  }
  template <class Int>
  void add_ints(const std::string& name, const std::vector<Int>& values) {
    add(name, std::vector<float>(values.begin(), values.end()));
  }
};

void add_params(Dump& d, const std::string& prefix, const ModelConfig& c, const std::vector<float>& buffer) {
  const ParamLayout layout = param_layout(c);
  for (int p = 0; p < kParamCount; ++p) {
    if (layout.size(Param(p)) == 0) continue;
    std::vector<std::uint64_t> shape;
    for (std::size_t n : param_shape(c, Param(p))) shape.push_back(n);
    const float* at = buffer.data() + layout.offset[std::size_t(p)];
    d.add(prefix + std::string(param_name(Param(p))), std::vector<float>(at, at + layout.size(Param(p))), shape);
  }
}

// Five steps of the run's schedule in the double engine, from `init`: the batches, ids and dropout masks TrainRun
// takes, core's AdamW and EMA in double (adamw.hpp). Returns the weights (the EMA's when on) and the five losses.
std::pair<std::vector<double>, std::vector<double>> five_steps_double(const TrainSettings& s, const ModelConfig& c,
                                                                      const std::vector<float>& init, int tokens,
                                                                      std::size_t att) {
  Model<double> m = make_model<double>(c, tokens, att, s.seed);
  m.params.assign(init.begin(), init.end());
  std::vector<double> ema = s.ema_decay > 0 ? m.params : std::vector<double>{}, losses;
  std::mt19937_64 rng(s.seed ^ kDataStream), position_rng(s.seed ^ kPositionStream);
  AdamWMoments<double> adam;
  PackedBatch b;
  for (int step = 0; step < 5; ++step) {
    training_batch(s.task, s.batch, s.train_max, rng, b);
    sample_batch_positions(sampler_of(s.pe), s.task, s.position_range, position_rng, b);
    m.dropout = training_dropout(s.dropout, s.seed, step);
    m.config.positions_dropped = positions_dropped(s, step + 1);
    losses.push_back(model_forward(m, b));
    model_backward(m, b);
    adamw_update(m.params, m.grads, adam, AdamWConfig{}, run_learning_rate(s, step));
    if (!ema.empty()) ema_update(ema, m.params, s.ema_decay);
  }
  return {ema.empty() ? m.params : ema, losses};
}

// A double buffer as two floats, hi + lo (safetensors here holds floats), each under its prefix.
void add_params64(Dump& d, const std::string& prefix, const ModelConfig& c, const std::vector<double>& values) {
  std::vector<float> hi(values.size()), lo(values.size());
  for (std::size_t i = 0; i < hi.size(); ++i) {
    hi[i] = float(values[i]);
    lo[i] = float(values[i] - double(hi[i]));
  }
  add_params(d, prefix + "hi.", c, hi);
  add_params(d, prefix + "lo.", c, lo);
}

void parity(const std::string& dir) {
  std::ifstream is(fs::path(dir) / "settings.json");
  if (!is) throw ParamError("parity", "cannot read " + dir + "/settings.json");
  const nlohmann::json j = nlohmann::json::parse(is);
  for (const nlohmann::json& run : j.at("runs")) {
    const TrainSettings s = settings_of(j, run);
    const ModelConfig c = model_config(s);
    Dump d;
    // The first batch of the run's stream, from the initial weights.
    std::mt19937_64 rng(s.seed ^ kDataStream);
    PackedBatch b;
    training_batch(s.task, s.batch, s.train_max, rng, b);
    std::mt19937_64 position_rng(s.seed ^ kPositionStream);
    sample_batch_positions(sampler_of(s.pe), s.task, s.position_range, position_rng, b);
    const std::size_t L = std::size_t(sequence_length(s.task, s.train_max));
    ModelConfig first = c;  // the first step's model: with DroPE still with its positions
    first.positions_dropped = positions_dropped(s, 1);
    Model<float> m = make_model<float>(first, s.batch * int(L), std::size_t(s.heads) * std::size_t(s.batch) * L * L, s.seed);
    m.dropout = training_dropout(s.dropout, s.seed, 0);  // the first step's masks
    const double loss = model_forward(m, b);
    model_backward(m, b);
    d.add_ints("tokens", b.tokens);
    d.add_ints("targets", b.targets);
    d.add_ints("positions", b.positions);
    d.add_ints("seq_len", b.seq_len);
    std::vector<int> test_ids;  // the ids of the first three test sequences of the longest test length
    for (const std::vector<int>& ids : test_positions(sampler_of(s.pe), s.task, s.test_max, 3, s.position_range, s.seed))
      test_ids.insert(test_ids.end(), ids.begin(), ids.end());
    d.add_ints("test_ids", test_ids);
    add_params(d, "init.", c, m.params);
    add_params(d, "grad.", c, m.grads);
    if (!m.pe_table.empty()) d.add("table.sinusoid", m.pe_table);
    if (!m.rope.cos.empty()) d.add("table.rope_cos", m.rope.cos), d.add("table.rope_sin", m.rope.sin);
    if (!m.alibi_slopes.empty()) d.add("table.alibi_slopes", std::vector<float>(m.alibi_slopes.begin(), m.alibi_slopes.end()));
    if (!m.t5_bucket.empty()) d.add_ints("table.t5_bucket", m.t5_bucket);
    // The same in the double engine (the one the gradient checks use), from the same weights.
    Model<double> m64 = make_model<double>(first, m.token_capacity, m.att_capacity, s.seed);
    m64.params.assign(m.params.begin(), m.params.end());
    m64.dropout = m.dropout;
    const double loss64 = model_forward(m64, b);
    model_backward(m64, b);
    add_params64(d, "grad64", c, m64.grads);
    // Five optimizer steps as a run takes them.
    TrainRun r(s);
    for (int k = 0; k < 5; ++k) r.step();
    add_params(d, "step5.", c, r.parameters());
    nlohmann::json losses = nlohmann::json::array();
    for (float v : r.snapshot().loss) losses.push_back(double(v));
    const auto [weights64, losses64] = five_steps_double(s, c, m.params, m.token_capacity, m.att_capacity);
    add_params64(d, "step5_64", c, weights64);
    nlohmann::json losses64_json = nlohmann::json::array();
    for (double v : losses64) losses64_json.push_back(digits17(v));
    const std::string name = "dump-" + std::string(to_string(s.pe)) + "-seed" + std::to_string(s.seed) + ".safetensors";
    write_safetensors((fs::path(dir) / name).string(), d.tensors,
                      {{"loss", digits17(loss)}, {"loss64", digits17(loss64)}, {"losses", losses.dump()},
                       {"losses64", losses64_json.dump()},
                       {"n_targets", std::to_string(b.n_targets)}},
                      "parity");
  }
}

void evaluate(const std::string& path) {
  const std::unique_ptr<TrainRun> run = load_run(path);
  run->evaluate();
  std::printf("%s\n", run_summary_json(*run).dump().c_str());
}

void open(const std::string& path) {
  for (const auto& run : open_experiment(path)) std::printf("%s\n", run_full_json(*run).dump().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  try {
    if (mode == "parity") parity(argv[2]);
    else if (mode == "evaluate") evaluate(argv[2]);
    else if (mode == "open") open(argv[2]);
    else {
      std::fprintf(stderr, "usage: twin_dump parity DIR | evaluate RUN.safetensors | open PATH\n");
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "twin_dump: %s\n", e.what());
    return 2;
  }
  return 0;
}
