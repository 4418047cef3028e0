// `peviz train`: train the lab's tiny transformer once per position encoding; one JSON line per encoding.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/train/run.hpp"
#include "core/train/run_io.hpp"

namespace peviz::cli {

namespace {

using train::PositionEncoding;
using train::TrainRun;
using train::TrainSettings;

struct TrainCommand {
  TrainSettings settings;
  std::string task = "copy";
  std::string pe = "all";
  int threads = int(limits::train_threads.fallback);
  std::string out;  // run.safetensors; with several encodings "-<pe>" goes before the extension
};

std::vector<PositionEncoding> parse_encodings(const std::string& text) {
  if (text == "all") return {train::kAllPositionEncodings.begin(), train::kAllPositionEncodings.end()};
  std::vector<PositionEncoding> list;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    PositionEncoding pe;
    if (!train::parse_position_encoding(item, pe))
      throw ParamError("pe", "must be nope, sinusoidal, learned, rope, alibi, t5, a comma list of them, or all; got '" +
                                 item + "'");
    if (std::find(list.begin(), list.end(), pe) == list.end()) list.push_back(pe);
  }
  return list;
}

std::string output_path(const std::string& out, PositionEncoding pe, bool several) {
  if (!several) return out;
  const std::size_t slash = out.find_last_of('/'), dot = out.find_last_of('.');
  const std::size_t at = (dot != std::string::npos && (slash == std::string::npos || dot > slash)) ? dot : out.size();
  return out.substr(0, at) + "-" + std::string(train::to_string(pe)) + out.substr(at);
}

// One line on stderr: every run's step count and the slowest ETA, redrawn in place.
void draw_progress(const std::vector<std::unique_ptr<TrainRun>>& runs) {
  std::string line;
  double eta = 0;
  for (const auto& run : runs) {
    const train::TrainSnapshot s = run->snapshot();
    line += std::string(train::to_string(run->settings().pe)) + " " + std::to_string(s.step * 100 / s.steps) + "%  ";
    eta = std::max(eta, s.eta_s);
  }
  std::fprintf(stderr, "\r%s ~%.0f s left ", line.c_str(), eta);
  std::fflush(stderr);
}

void run_train(TrainCommand& c) {
  if (!train::parse_task(c.task, c.settings.task))
    throw ParamError("task", "must be copy, reverse or sort, got '" + c.task + "'");
  const std::vector<PositionEncoding> encodings = parse_encodings(c.pe);
  check_int(limits::train_threads, c.threads);
  std::vector<std::unique_ptr<TrainRun>> runs;
  for (PositionEncoding pe : encodings) {
    TrainSettings s = c.settings;
    s.pe = pe;
    runs.push_back(std::make_unique<TrainRun>(s));  // validates before any training starts
  }
  if (!c.out.empty()) {  // refuse a missing folder now, not after minutes of training
    const std::filesystem::path dir = std::filesystem::absolute(c.out).parent_path();
    if (!std::filesystem::is_directory(dir))
      throw ParamError("out", "cannot write " + c.out + ": " + dir.string() + " is not a folder");
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> cancel{false};
  std::vector<std::thread> workers;
  const int n_workers = std::min<int>(c.threads, int(runs.size()));
  for (int w = 0; w < n_workers; ++w)
    workers.emplace_back([&] {
      for (std::size_t i; (i = next.fetch_add(1)) < runs.size();) runs[i]->train(cancel);
    });
  std::atomic<bool> done{false};
  std::thread progress;
  if (isatty(STDERR_FILENO))
    progress = std::thread([&] {
      while (!done.load()) {
        draw_progress(runs);
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
      }
      std::fprintf(stderr, "\n");
    });
  for (std::thread& w : workers) w.join();
  done = true;
  if (progress.joinable()) progress.join();
  for (const auto& run : runs) {
    if (!c.out.empty()) train::save_run(*run, output_path(c.out, run->settings().pe, runs.size() > 1));
    std::printf("%s\n", train::run_summary_json(*run).dump().c_str());
  }
}

}  // namespace

void register_train(CLI::App& app) {
  auto c = std::make_shared<TrainCommand>();
  TrainSettings& s = c->settings;
  CLI::App* sub = app.add_subcommand("train", "Train a tiny transformer per position encoding on copy/reverse/sort; "
                                              "print one JSON line per encoding (exact match by length)");
  sub->add_option("--task", c->task, "copy | reverse | sort")->capture_default_str();
  sub->add_option("--pe", c->pe, "nope | sinusoidal | learned | rope | alibi | t5, a comma list, or all")
      ->capture_default_str();
  sub->add_option("--steps", s.steps, "Optimizer steps, 1..100000")->capture_default_str();
  sub->add_option("--seed", s.seed, "Seed of the weights, training batches and test sets")->capture_default_str();
  sub->add_option("--layers", s.layers, "Transformer blocks, 1..4")->capture_default_str();
  sub->add_option("--heads", s.heads, "Attention heads, 1..8 (d-model / heads even)")->capture_default_str();
  sub->add_option("--d-model", s.d_model, "Model width, 16..256")->capture_default_str();
  sub->add_option("--batch", s.batch, "Sequences per step, 1..256")->capture_default_str();
  sub->add_option("--train-max", s.train_max, "Training n uniform in [1, train-max], 1..40")->capture_default_str();
  sub->add_option("--test-max", s.test_max, "Test n = 5, 10, ..., test-max (<= 4 x train-max)")->capture_default_str();
  sub->add_option("--test-samples", s.test_samples, "Test sequences per length")->capture_default_str();
  sub->add_option("--base", s.rope_base, "RoPE base")->capture_default_str();
  sub->add_option("--lr", s.lr, "Peak learning rate (AdamW)")->capture_default_str();
  sub->add_option("--warmup", s.warmup, "Linear warm-up steps before the cosine decay")->capture_default_str();
  sub->add_option("--threads", c->threads, "Encodings trained in parallel (each run on one thread)")
      ->capture_default_str();
  sub->add_option("--out", c->out, "Save each run as .safetensors (several encodings: PATH-<pe>.safetensors)");
  sub->callback([c] { run_train(*c); });
}

}  // namespace peviz::cli
