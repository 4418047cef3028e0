// A training run: validation of the settings, the step loop with AdamW, evaluation, thread-safe reads.
#include "core/train/run.hpp"

#include <chrono>
#include <cmath>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/params.hpp"

namespace peviz::train {

namespace {

constexpr std::uint64_t kDataStream = 0xA0761D6478BD642Full;  // training batches: a stream apart from init

int longest_training_sequence(const TrainSettings& s) { return sequence_length(s.train_max); }
int longest_sequence(const TrainSettings& s) { return sequence_length(std::max(s.train_max, s.test_max)); }

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
// An evaluating model never runs backward (step() rebuilds a training model first): no gradient buffers.
void drop_gradients(Model<float>& m) {
  m.grads = {};
  m.grad_acts = {};
}

}  // namespace

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
  if (s.test_max > 4 * s.train_max)
    throw ParamError("test-max", "must be at most 4 x train-max (" + std::to_string(4 * s.train_max) + "), got " +
                                     std::to_string(s.test_max));
  check_int(limits::test_samples, s.test_samples);
  check_real(limits::base, s.rope_base);
  check_real(limits::learning_rate, s.lr);
  check_int(limits::warmup, s.warmup);
  // Activations grow with batch x tokens x d x layers: keep one run under the per-result budget.
  const ModelConfig c = model_config(s);
  const std::size_t per_token = std::size_t(s.layers) * std::size_t(2 * 16 * s.d_model) + 4 * std::size_t(s.d_model);
  const std::size_t bytes = 4 * (std::size_t(token_capacity(s)) * per_token + std::size_t(s.layers) * att_capacity(s) +
                                 4 * parameter_count(c));
  if (bytes > kDefaultMemoryBudget)
    throw ParamError("batch", "the run would need " + std::to_string(bytes >> 20) + " MiB (over " +
                                  std::to_string(kDefaultMemoryBudget >> 20) + "); lower batch, d-model or layers");
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
  return c;  // T5: 32 causal buckets, max distance 128 (ModelConfig defaults, as T5)
}

TrainRun::TrainRun(const TrainSettings& s)
    : settings_((validate(s), s)),
      model_(make_model<float>(model_config(s), token_capacity(s), att_capacity(s), s.seed)),
      data_rng_(s.seed ^ kDataStream) {
  progress_.steps = s.steps;
}

TrainRun::TrainRun(const TrainSettings& s, const std::vector<float>& params, TrainSnapshot saved)
    : settings_((validate(s), s)),
      model_(make_model<float>(model_config(s), evaluation_tokens(s), evaluation_att(s), s.seed)),
      data_rng_(s.seed ^ kDataStream) {
  drop_gradients(model_);
  if (params.size() != model_.params.size())
    throw ParamError("from-safetensors", "parameter count " + std::to_string(params.size()) + " does not match the "
                                         "settings (" + std::to_string(model_.params.size()) + ")");
  model_.params = params;
  saved.step = int(saved.loss.size());
  saved.steps = s.steps;
  saved.evaluated = !saved.accuracy.empty();
  progress_ = std::move(saved);
}

bool TrainRun::step() {
  const int step = progress_.step;  // only this thread writes it
  if (step >= settings_.steps || progress_.diverged_at > 0) return false;
  resize_buffers(token_capacity(settings_), att_capacity(settings_));  // a reopened or finished run trains on
  const auto t0 = std::chrono::steady_clock::now();
  training_batch(settings_.task, settings_.batch, settings_.train_max, data_rng_, batch_);
  const double loss = model_forward(model_, batch_);
  if (!std::isfinite(loss)) {
    std::lock_guard<std::mutex> lock(mutex_);
    progress_.diverged_at = step + 1;
    return false;
  }
  model_backward(model_, batch_);
  const double lr = learning_rate(step, settings_.steps, settings_.lr, settings_.warmup);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    adamw_update(model_.params, model_.grads, adam_, AdamWConfig{}, lr);
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
  m.params = model_.params;
  return m;
}

std::vector<int> TrainRun::test_sequence(int n, int index) const {
  check_int(Limit{"length", 1, double(std::max(settings_.train_max, settings_.test_max)), 0}, n);
  check_int(Limit{"index", 0, double(settings_.test_samples - 1), 0}, index);
  return test_sequences(settings_.task, n, index + 1, settings_.seed)[std::size_t(index)];
}

std::vector<int> TrainRun::greedy_answer(int n, int index) const {
  const std::vector<int> seq = test_sequence(n, index);
  const int L = sequence_length(n);
  if (settings_.pe == PositionEncoding::learned && L > model_config(settings_).learned_len) return {};
  Model<float> m = private_copy(L, std::size_t(settings_.heads) * std::size_t(L) * std::size_t(L));
  return train::greedy_answer(m, seq, n);
}

std::optional<std::vector<std::vector<Matrix>>> TrainRun::attention_maps(int n, int index) const {
  check_int(Limit{"length", 1, double(std::max(settings_.train_max, settings_.test_max)), 0}, n);
  check_int(Limit{"index", 0, double(settings_.test_samples - 1), 0}, index);
  const int L = sequence_length(n);
  if (settings_.pe == PositionEncoding::learned && L > model_config(settings_).learned_len) return std::nullopt;
  Model<float> m = private_copy(L, std::size_t(settings_.heads) * std::size_t(L) * std::size_t(L));
  const std::vector<std::vector<int>> seqs = test_sequences(settings_.task, n, index + 1, settings_.seed);
  return train::attention_maps(m, seqs[std::size_t(index)]);
}

Matrix TrainRun::learned_table() const {
  if (settings_.pe != PositionEncoding::learned) return {};
  Matrix t(std::size_t(model_config(settings_).learned_len), std::size_t(settings_.d_model));
  std::lock_guard<std::mutex> lock(mutex_);
  const float* wpe = model_.param(Param::wpe);
  std::copy(wpe, wpe + t.data.size(), t.data.begin());
  return t;
}

std::vector<float> TrainRun::parameters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return model_.params;
}

}  // namespace peviz::train
