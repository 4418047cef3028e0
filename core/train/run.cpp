// A training run: validation of the settings, the step loop with AdamW, evaluation, thread-safe reads.
#include "core/train/run.hpp"

#include <chrono>
#include <cmath>
#include <sstream>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/encodings/params.hpp"
#include "core/train/fire.hpp"

namespace peviz::train {

namespace {

constexpr std::uint64_t kDataStream = 0xA0761D6478BD642Full;  // training batches: a stream apart from init
constexpr std::uint64_t kPositionStream = 0xE7037ED1A0B428DBull;  // sampled training ids: apart from the batches

int longest_training_sequence(const TrainSettings& s) { return sequence_length(s.task, s.train_max); }
// sequence_length in double, for settings not yet checked (any int n).
double tokens_of(Task task, double n) { return task == Task::add ? 3 * n + 5 : 2 * n + 3; }
int longest_sequence(const TrainSettings& s) { return sequence_length(s.task, std::max(s.train_max, s.test_max)); }

// Tokens and attention values per layer a run's model must hold: a training batch of the longest
// sequences, or one test sequence of the longest length.
int token_capacity(const TrainSettings& s) {
  return std::max(s.batch * longest_training_sequence(s), longest_sequence(s));
}
std::size_t att_capacity(const TrainSettings& s) {
  const std::size_t train = std::size_t(longest_training_sequence(s)), test = std::size_t(longest_sequence(s));
  return std::size_t(s.heads) * std::max(std::size_t(s.batch) * train * train, test * test);
}
// A finished or reopened run only evaluates: buffers for one test sequence of the longest length at a time,
// a fraction of a training batch's activations.
int evaluation_tokens(const TrainSettings& s) { return longest_sequence(s); }
std::size_t evaluation_att(const TrainSettings& s) {
  const std::size_t test = std::size_t(longest_sequence(s));
  return std::size_t(s.heads) * test * test;
}
// Each bounded setting beside its entry in the limits table.
struct BoundedSetting {
  const Limit& limit;
  double value;
  bool integer;
};
std::vector<BoundedSetting> bounded_settings(const TrainSettings& s) {
  return {{limits::train_layers, double(s.layers), true},  {limits::train_heads, double(s.heads), true},
          {limits::train_d_model, double(s.d_model), true}, {limits::train_batch, double(s.batch), true},
          {limits::train_steps, double(s.steps), true},     {limits::train_max, double(s.train_max), true},
          {limits::test_max, double(s.test_max), true},     {limits::test_samples, double(s.test_samples), true},
          {limits::base, s.rope_base, false},               {limits::learning_rate, s.lr, false},
          {limits::warmup, double(s.warmup), true},         {limits::position_range, double(s.position_range), true},
          {limits::train_ema, s.ema_decay, false},          {limits::train_dropout, s.dropout, false}};
}

// Weights of the model, in double (param_layout's count in size_t could overflow for settings not yet checked).
double weight_count(const TrainSettings& s) {
  const double rows = sampler_of(s.pe) == PositionSampler::contiguous ? tokens_of(s.task, s.train_max) : s.position_range;
  const double d = s.d_model, V = kVocab, learned = mechanism_of(s.pe) == PositionMechanism::trainable_table ? rows : 0;
  const double t5 = mechanism_of(s.pe) == PositionMechanism::trainable_bias ? 32.0 * s.heads : 0;
  const double fire = mechanism_of(s.pe) == PositionMechanism::interpolated_bias
                          ? 2.0 * kFireHidden + double(kFireHidden) * s.heads + 2 : 0;
  return 2 * V * d + V + 2 * d + learned * d + t5 + fire + double(s.layers) * (12 * d * d + 13 * d);
}

// Bytes of one training step's buffers (validate's estimate: activations, attention, parameters with gradients and
// moments), in double so that any settings can be asked.
double training_bytes(const TrainSettings& s) {
  const double train_l = tokens_of(s.task, s.train_max), test_l = tokens_of(s.task, std::max(s.train_max, s.test_max));
  const double tokens = std::max(double(s.batch) * train_l, test_l);
  const double att = double(s.heads) * std::max(double(s.batch) * train_l * train_l, test_l * test_l);
  const double per_token = double(s.layers) * 2 * 16 * s.d_model + 4.0 * s.d_model;
  const double fire_buffers = mechanism_of(s.pe) == PositionMechanism::interpolated_bias ? 2 * att : 0;
  return 4 * (tokens * per_token + double(s.layers) * att + fire_buffers + 4 * weight_count(s));
}

// An evaluating model never runs backward (step() rebuilds a training model first): no gradient buffers.
void drop_gradients(Model<float>& m) {
  m.grads = {};
  m.grad_acts = {};
  m.fire_dbias = {};
}

// A layer schedule and DroPE take positions out of attention: they need an encoding that acts there.
void check_acts_in_attention(const TrainSettings& s, const char* flag) {
  if (!takes_layer_schedule(s.pe))
    throw ParamError(flag, "needs an encoding that acts in attention (a rotation or a bias), not " +
                               std::string(to_string(s.pe)) + ", which adds its positions to the embeddings");
}

// A layer schedule leaves some layer with positions and some without: 0, or from 2 (1 would be NoPE throughout)
// to the layer count.
void check_nope_every(const TrainSettings& s) {
  check_int(limits::train_nope_every, s.nope_every);
  if (s.nope_every == 0) return;
  check_acts_in_attention(s, "nope-every");
  if (s.nope_every < 2 || s.nope_every > s.layers)
    throw ParamError("nope-every", "must be 0 (off), or from 2 up to the layers (" + std::to_string(s.layers) +
                                       "), got " + std::to_string(s.nope_every));
}

// DroPE leaves the first step its positions.
void check_drope_steps(const TrainSettings& s) {
  check_int(limits::train_drope_steps, s.drope_steps);
  if (s.drope_steps == 0) return;
  check_acts_in_attention(s, "drope-steps");
  if (s.drope_steps >= s.steps)
    throw ParamError("drope-steps", "must be fewer than the steps (" + std::to_string(s.steps) +
                                        "), so that training starts with positions, got " + std::to_string(s.drope_steps));
}

// Sampled ids must have room for the longest sequence, and the sampler a meaning on the task.
void check_positions(const TrainSettings& s) {
  if (const std::string why = sampler_refusal(sampler_of(s.pe), s.task); !why.empty())
    throw ParamError("pe", std::string(to_string(s.pe)) + " cannot train on " + std::string(to_string(s.task)) + ": " + why);
  const int needed = minimum_position_range(s);
  if (s.position_range >= needed) return;
  if (sampler_of(s.pe) == PositionSampler::coupled)
    throw ParamError("position-range", std::string("must hold the coupled ids of the longest sequence, max(train-max, test-max) + ") +
                                           (s.task == Task::add ? "3" : "2") + " = " + std::to_string(needed) +
                                           ", got " + std::to_string(s.position_range));
  if (sampler_of(s.pe) == PositionSampler::abacus)
    throw ParamError("position-range", std::string("must hold the abacus ids of the longest number, max(train-max, test-max) + ") +
                                           (s.task == Task::add ? "2" : "1") + " = " + std::to_string(needed) +
                                           ", got " + std::to_string(s.position_range));
  throw ParamError("position-range", std::string("must be at least the longest sequence, ") +
                                         (s.task == Task::add ? "3 x max(train-max, test-max) + 5 = " : "2 x max(train-max, test-max) + 3 = ") +
                                         std::to_string(needed) + ", got " + std::to_string(s.position_range));
}

void check_test_max(const TrainSettings& s) {
  if (s.test_max > limits::kTestMaxPerTrainMax * double(s.train_max))
    throw ParamError("test-max", "must be at most " + std::to_string(limits::kTestMaxPerTrainMax) + " x train-max (" +
                                     std::to_string(limits::kTestMaxPerTrainMax * (long long)s.train_max) + "), got " +
                                     std::to_string(s.test_max));
}

}  // namespace

int minimum_position_range(const TrainSettings& s) {
  switch (sampler_of(s.pe)) {
    case PositionSampler::randomized:
    case PositionSampler::random_start: return longest_sequence(s);
    case PositionSampler::coupled: return coupled_span(s.task, std::max(s.train_max, s.test_max)) + 1;
    case PositionSampler::abacus: return abacus_span(s.task, std::max(s.train_max, s.test_max)) + 1;
    default: return 0;
  }
}

void validate(const TrainSettings& s) {
  check_int(limits::train_layers, s.layers);
  check_int(limits::train_heads, s.heads);
  check_int(limits::train_d_model, s.d_model);
  if (s.d_model % s.heads != 0 || (s.d_model / s.heads) % 2 != 0)
    throw ParamError("heads", "d-model / heads must be an even integer (the head dimension), got d-model " +
                                  std::to_string(s.d_model) + " and heads " + std::to_string(s.heads));
  check_int(limits::train_batch, s.batch);
  check_int(limits::train_steps, s.steps);
  check_int(limits::train_max, s.train_max);
  check_int(limits::test_max, s.test_max);
  check_test_max(s);
  check_int(limits::test_samples, s.test_samples);
  check_real(limits::base, s.rope_base);
  check_real(limits::learning_rate, s.lr);
  check_int(limits::warmup, s.warmup);
  check_int(limits::position_range, s.position_range);
  check_real(limits::train_ema, s.ema_decay);
  check_real(limits::train_dropout, s.dropout);
  check_nope_every(s);
  check_drope_steps(s);
  check_positions(s);
  // Activations grow with batch x tokens x d x layers: keep one run under the per-result budget.
  const ModelConfig c = model_config(s);
  const std::size_t per_token = std::size_t(s.layers) * std::size_t(2 * 16 * s.d_model) + 4 * std::size_t(s.d_model);
  const std::size_t att_buffers = std::size_t(s.layers) + (mechanism_of(s.pe) == PositionMechanism::interpolated_bias ? 2 : 0);
  const std::size_t bytes = 4 * (std::size_t(token_capacity(s)) * per_token + att_buffers * att_capacity(s) +
                                 4 * parameter_count(c));
  if (bytes > kDefaultMemoryBudget)
    throw ParamError("batch", "the run would need " + std::to_string(bytes >> 20) + " MiB (over " +
                                  std::to_string(kDefaultMemoryBudget >> 20) + "); lower batch, d-model or layers");
}

void validate_shape(const TrainSettings& s) {
  for (const BoundedSetting& b : bounded_settings(s)) {
    Limit floor_only = b.limit;  // the minimum and the spelling of the table, no maximum
    floor_only.max = limits::kUnbounded;
    if (b.integer)
      check_int(floor_only, (long long)b.value);
    else
      check_real(floor_only, b.value);
  }
  if (s.d_model % s.heads != 0 || (s.d_model / s.heads) % 2 != 0)
    throw ParamError("heads", "d-model / heads must be an even integer (the head dimension), got d-model " +
                                  std::to_string(s.d_model) + " and heads " + std::to_string(s.heads));
  for (const auto& [limit, value] : {std::pair{&limits::train_ema, s.ema_decay}, std::pair{&limits::train_dropout, s.dropout}})
    if (!(value < 1))  // at any size: a decay of 1 never moves, a dropout of 1 keeps nothing
      throw ParamError(std::string(limit->name), "must be below 1, got " + (std::ostringstream() << value).str());
  check_test_max(s);
  check_positions(s);
  // Viewing evaluates one test sequence at a time: its activations, attention and scratch, and the position tables.
  const double L = tokens_of(s.task, std::max(s.train_max, s.test_max)), layers = s.layers;
  const double viewing = 4 * (L * (layers * 32 * s.d_model + 4.0 * s.d_model) + layers * s.heads * L * L + 4 * L * L +
                              L * s.d_model);
  if (viewing > double(kDefaultMemoryBudget))
    throw ParamError("test-max", "evaluating one test sequence would need " + std::to_string(std::llround(viewing / 1048576)) +
                                     " MiB (over " + std::to_string(kDefaultMemoryBudget >> 20) +
                                     "); lower test-max, train-max, d-model or layers");
  const double weight_bytes = 4 * weight_count(s), file_limit = double(std::size_t(1) << 31) - double(1 << 24);
  if (weight_bytes > file_limit)
    throw ParamError("d-model", "the weights would take " + std::to_string(std::llround(weight_bytes / 1048576)) +
                                    " MiB, over the 2032 MiB a run file may hold; lower d-model or layers");
}

std::vector<std::string> beyond_engine_limits(const TrainSettings& s) {
  auto text = [](double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  };
  std::vector<std::string> over;
  for (const BoundedSetting& b : bounded_settings(s))
    if (b.value > b.limit.max) over.push_back(std::string(b.limit.name) + " " + text(b.value) + " > " + text(b.limit.max));
  const double bytes = training_bytes(s);
  if (bytes > double(kDefaultMemoryBudget))
    over.push_back("memory " + std::to_string(std::llround(bytes / 1048576)) + " MiB > " +
                   std::to_string(kDefaultMemoryBudget >> 20));
  return over;
}

bool takes_layer_schedule(PositionEncoding pe) {
  const PositionMechanism m = mechanism_of(pe);
  return m != PositionMechanism::none && m != PositionMechanism::added_table && m != PositionMechanism::trainable_table;
}

TrainSettings run_settings(const TrainSettings& base, PositionEncoding pe) {
  TrainSettings s = base;
  s.pe = pe;
  if (!takes_layer_schedule(pe)) s.nope_every = s.drope_steps = 0;
  return s;
}

bool positions_dropped(const TrainSettings& s, int steps_done) {
  return s.drope_steps > 0 && steps_done > s.steps - s.drope_steps;
}

double run_learning_rate(const TrainSettings& s, int step) {
  const int first = s.steps - s.drope_steps;  // steps with positions
  if (step < first) return learning_rate(step, first, s.lr, s.warmup);
  return learning_rate(step - first, s.drope_steps, s.lr, std::min(s.warmup, s.drope_steps / 10));
}

ModelConfig model_config(const TrainSettings& s) {
  ModelConfig c;
  c.vocab = kVocab;
  c.layers = s.layers;
  c.heads = s.heads;
  c.d_model = s.d_model;
  c.pe = s.pe;
  c.learned_len = longest_training_sequence(s);  // max_len = the longest training sequence
  c.max_positions = longest_sequence(s);
  c.rope_base = s.rope_base;
  c.length_scale = s.length_scale;
  c.nope_every = s.nope_every;
  c.positions_dropped = positions_dropped(s, s.steps);  // the trained model; TrainRun sets it per step
  if (sampler_of(s.pe) != PositionSampler::contiguous) c.position_range = s.position_range;
  return c;  // T5: 32 causal buckets, max distance 128 (ModelConfig defaults, as T5)
}

TrainRun::TrainRun(const TrainSettings& s)
    : settings_((validate(s), s)),
      model_(make_model<float>(model_config(s), token_capacity(s), att_capacity(s), s.seed)),
      data_rng_(s.seed ^ kDataStream),
      position_rng_(s.seed ^ kPositionStream) {
  progress_.steps = s.steps;
  model_.config.positions_dropped = false;  // DroPE: positions until its last steps
  if (s.ema_decay > 0) ema_ = model_.params;  // the average starts at the initial weights
}

TrainRun::TrainRun(const TrainSettings& s, const std::vector<float>& params, TrainSnapshot saved)
    : settings_((validate_shape(s), s)),
      trainable_(beyond_engine_limits(s).empty()),
      model_(make_model<float>(model_config(s), evaluation_tokens(s), evaluation_att(s), s.seed)),
      data_rng_(s.seed ^ kDataStream),
      position_rng_(s.seed ^ kPositionStream) {
  drop_gradients(model_);
  if (params.size() != model_.params.size())
    throw ParamError("from-safetensors", "parameter count " + std::to_string(params.size()) + " does not match the "
                                         "settings (" + std::to_string(model_.params.size()) + ")");
  model_.params = params;
  if (s.ema_decay > 0) ema_ = params;  // a saved run's weights are its average: further steps go on from it
  saved.step = int(saved.loss.size());
  saved.steps = s.steps;
  model_.config.positions_dropped = positions_dropped(s, saved.step);
  saved.evaluated = !saved.accuracy.empty();
  progress_ = std::move(saved);
}

bool TrainRun::step() {
  const int step = progress_.step;  // only this thread writes it
  if (step >= settings_.steps || progress_.diverged_at > 0 || !trainable_) return false;
  resize_buffers(token_capacity(settings_), att_capacity(settings_));  // a reopened or finished run trains on
  const auto t0 = std::chrono::steady_clock::now();
  training_batch(settings_.task, settings_.batch, settings_.train_max, data_rng_, batch_);
  sample_batch_positions(sampler_of(settings_.pe), settings_.task, settings_.position_range, position_rng_, batch_);
  model_.dropout = training_dropout(settings_.dropout, settings_.seed, step);
  model_.config.positions_dropped = positions_dropped(settings_, step + 1);
  const double loss = model_forward(model_, batch_);
  if (!std::isfinite(loss)) {
    model_.dropout = {};
    std::lock_guard<std::mutex> lock(mutex_);
    progress_.diverged_at = step + 1;
    return false;
  }
  model_backward(model_, batch_);
  model_.dropout = {};  // evaluation never drops
  const double lr = run_learning_rate(settings_, step);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    adamw_update(model_.params, model_.grads, adam_, AdamWConfig{}, lr);
    if (!ema_.empty()) ema_update(ema_, model_.params, settings_.ema_decay);
  }
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::lock_guard<std::mutex> lock(mutex_);
  progress_.loss.push_back(float(loss));
  progress_.step = step + 1;
  progress_.steps_per_s = double(progress_.step) / seconds_;
  progress_.eta_s = double(settings_.steps - progress_.step) / progress_.steps_per_s;
  return true;
}

void TrainRun::train(const std::atomic<bool>& cancel) {
  while (!cancel.load(std::memory_order_relaxed) && step()) {
  }
  finish(cancel.load());
}

void TrainRun::finish(bool cancelled) {
  bool diverged = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    progress_.cancelled = cancelled && progress_.step < settings_.steps && progress_.diverged_at == 0;
    diverged = progress_.diverged_at > 0;
    if (!ema_.empty()) model_.params = ema_;  // evaluation and the run file read the average
  }
  if (!diverged) evaluate();
  resize_buffers(evaluation_tokens(settings_), evaluation_att(settings_));
  adam_ = AdamWState{};  // more steps start the moments afresh, as after a reload
}

void TrainRun::resize_buffers(int tokens, std::size_t att) {
  if (model_.token_capacity == tokens && model_.att_capacity == att) return;
  Model<float> m = make_model<float>(model_config(settings_), tokens, att, settings_.seed);
  if (tokens < token_capacity(settings_)) drop_gradients(m);
  std::lock_guard<std::mutex> lock(mutex_);
  m.params = std::move(model_.params);
  m.config.positions_dropped = model_.config.positions_dropped;  // DroPE: as far as the run has got
  model_ = std::move(m);
}

void TrainRun::evaluate() {
  std::vector<LengthAccuracy> acc = evaluate_lengths(model_, settings_.task, test_lengths(settings_.test_max),
                                                     settings_.test_samples, settings_.seed);
  std::lock_guard<std::mutex> lock(mutex_);
  progress_.accuracy = std::move(acc);
  progress_.evaluated = true;
}

TrainSnapshot TrainRun::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return progress_;
}

Model<float> TrainRun::private_copy(int tokens, std::size_t att) const {
  Model<float> m = make_model<float>(model_config(settings_), tokens, att, 0);
  std::lock_guard<std::mutex> lock(mutex_);
  m.params = ema_.empty() ? model_.params : ema_;
  m.config.positions_dropped = model_.config.positions_dropped;
  return m;
}

std::vector<int> TrainRun::test_sequence(int n, int index) const {
  check_int(Limit{.name = "length", .min = 1, .max = double(std::max(settings_.train_max, settings_.test_max)), .fallback = 1}, n);
  check_int(Limit{.name = "index", .min = 0, .max = double(settings_.test_samples - 1), .fallback = 0}, index);
  return test_sequences(settings_.task, n, index + 1, settings_.seed)[std::size_t(index)];
}

std::vector<int> TrainRun::test_position_ids(int n, int index) const {
  test_sequence(n, index);  // checks n and index
  return test_positions(sampler_of(settings_.pe), settings_.task, n, index + 1, settings_.position_range,
                        settings_.seed)[std::size_t(index)];
}

std::vector<int> TrainRun::greedy_answer(int n, int index) const {
  const std::vector<int> seq = test_sequence(n, index);
  const int L = sequence_length(settings_.task, n);
  if (!length_defined(model_config(settings_), settings_.task, n)) return {};
  Model<float> m = private_copy(L, std::size_t(settings_.heads) * std::size_t(L) * std::size_t(L));
  return train::greedy_answer(m, seq, test_position_ids(n, index));
}

std::optional<std::vector<std::vector<Matrix>>> TrainRun::attention_maps(int n, int index) const {
  check_int(Limit{.name = "length", .min = 1, .max = double(std::max(settings_.train_max, settings_.test_max)), .fallback = 1}, n);
  check_int(Limit{.name = "index", .min = 0, .max = double(settings_.test_samples - 1), .fallback = 0}, index);
  const int L = sequence_length(settings_.task, n);
  if (!length_defined(model_config(settings_), settings_.task, n)) return std::nullopt;
  Model<float> m = private_copy(L, std::size_t(settings_.heads) * std::size_t(L) * std::size_t(L));
  const std::vector<std::vector<int>> seqs = test_sequences(settings_.task, n, index + 1, settings_.seed);
  return train::attention_maps(m, seqs[std::size_t(index)], test_position_ids(n, index));
}

Matrix TrainRun::learned_table() const {
  if (mechanism_of(settings_.pe) != PositionMechanism::trainable_table) return {};
  Matrix t(std::size_t(model_config(settings_).position_rows()), std::size_t(settings_.d_model));
  std::lock_guard<std::mutex> lock(mutex_);
  const float* wpe = (ema_.empty() ? model_.params.data() : ema_.data()) + model_.layout.offset[int(Param::wpe)];
  std::copy(wpe, wpe + t.data.size(), t.data.begin());
  return t;
}

std::vector<float> TrainRun::parameters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ema_.empty() ? model_.params : ema_;
}

}  // namespace peviz::train
