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
#include "cli/flag_checks.hpp"
#include "cli/shared_flags.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/base/limits.hpp"
#include "core/train/run.hpp"
#include "core/train/experiment.hpp"
#include "core/train/run_queue.hpp"
#include "core/train/run_io.hpp"
#include "core/train/twin.hpp"

namespace peviz::cli {

namespace {

using train::PositionEncoding;
using train::TrainRun;
using train::TrainSettings;

struct TrainCommand {
  TrainSettings settings;
  std::string task = "copy";
  std::string pe = "all";
  std::string length_scale = "none";
  std::string seeds;  // "" = --seed alone; "0,1,2" a list; "3" a count from --seed
  int threads = int(limits::train_threads.fallback);
  std::string out;  // run.safetensors; several runs: a set named by train::experiment_file_names
  bool half = false;  // --out weights as F16
  std::string emit_pytorch;  // a folder: write the PyTorch twin of these runs there instead of training
  bool emit = false;         // --emit-pytorch was given (its folder may be empty: refused by the emitter)
  bool list_encodings = false, list_tasks = false;  // print the lab's table (lab_table_json) instead of training
  std::string format;                               // of the lists: text (the default) or json
};

// --pe: names and group names (all, fixes), comma separated; each encoding once, in the order given.
std::vector<PositionEncoding> parse_encodings(const std::string& text) {
  std::vector<PositionEncoding> list;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    std::vector<PositionEncoding> named(1);
    if (!train::parse_position_encoding(item, named[0]) && !train::parse_encoding_group(item, named))
      throw ParamError("pe", "must be " + train::lab_encoding_names() + ", a comma list of them, " +
                                 std::string(train::kClassicGroup) + " (the first six) or " +
                                 std::string(train::kFixesGroup) + " (the rest); got '" + item + "'");
    for (PositionEncoding pe : named) {
      if (std::find(list.begin(), list.end(), pe) != list.end())
        throw ParamError("pe", "names " + std::string(train::to_string(pe)) + " twice (again in '" + item +
                                   "'): name each encoding once");
      list.push_back(pe);
    }
  }
  if (list.empty()) throw ParamError("pe", "names no encoding");
  return list;
}

// --out names a run file: .safetensors, or no extension at all; x.txt is refused before any training, not written
// as safetensors under a text file's name.
void check_run_file_name(const std::string& out) {
  const std::string suffix = std::filesystem::path(out).extension().string();
  if (!suffix.empty() && suffix != ".safetensors")
    throw ParamError("out", "a run is saved as .safetensors (several runs: PATH-<pe>[-seed<S>].safetensors and "
                            "PATH.json), not " + suffix + ": " + out);
}

// --seeds: a comma list of seeds, or a count N meaning --seed, --seed + 1, ..., --seed + N - 1.
std::vector<std::uint64_t> parse_seeds(const std::string& text, std::uint64_t first) {
  if (text.empty()) return {first};
  std::vector<std::uint64_t> seeds;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
      v = item.empty() || item[0] == '-' ? 0 : std::stoull(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size())
      throw ParamError("seeds", "must be a count or a comma list of non-negative integers, got '" + text + "'");
    if (std::find(seeds.begin(), seeds.end(), v) != seeds.end())
      throw ParamError("seeds", "lists seed " + std::to_string(v) + " twice: name each seed once");
    seeds.push_back(v);
  }
  if (text.find(',') == std::string::npos) {  // a count
    const int count = check_int(limits::train_seeds, (long long)std::min<unsigned long long>(seeds[0], 1ULL << 40));
    seeds.clear();
    for (int k = 0; k < count; ++k) seeds.push_back(first + std::uint64_t(k));
  }
  check_int(limits::train_seeds, (long long)seeds.size());
  return seeds;
}

// Every started run's progress and the slowest ETA, on one line.
std::string progress_text(const train::RunQueue& q) {
  std::size_t done = 0;
  std::string line;
  double eta = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q.state(i) == train::RunState::done || q.state(i) == train::RunState::failed) ++done;
    if (q.state(i) != train::RunState::running) continue;
    const train::TrainSnapshot s = q.run(i)->snapshot();
    line += std::string(train::to_string(q.settings(i).pe)) + " seed " + std::to_string(q.settings(i).seed) + " " +
            std::to_string(s.step * 100 / std::max(1, s.steps)) + "%  ";
    eta = std::max(eta, s.eta_s);
  }
  char text[96];
  std::snprintf(text, sizeof text, "%zu of %zu done  ", done, q.size());
  std::string out = text;
  out += line;
  std::snprintf(text, sizeof text, "~%.0f s left", eta);
  out += text;
  return out;
}

// The progress on stderr: redrawn in place on a terminal; into a log or a pipe, a line every kLogEvery.
class ProgressPrinter {
 public:
  static constexpr std::chrono::seconds kLogEvery{30};
  bool tty = isatty(STDERR_FILENO);

  void print(const train::RunQueue& q) {
    if (tty) {
      std::fprintf(stderr, "\r%s   ", progress_text(q).c_str());
    } else {
      const auto now = std::chrono::steady_clock::now();
      if (now < next_) return;
      next_ = now + kLogEvery;
      std::fprintf(stderr, "peviz: train: %s\n", progress_text(q).c_str());
    }
    std::fflush(stderr);
  }
  void clear_line() const {
    if (tty) std::fprintf(stderr, "\r\033[K");
  }

 private:
  std::chrono::steady_clock::time_point next_ = std::chrono::steady_clock::now() + kLogEvery;
};

bool finished(train::RunState s) { return s == train::RunState::done || s == train::RunState::failed; }

// `s` as one word of a sh command line: as it is when every character is safe there, else in single quotes.
std::string shell_word(const std::string& s) {
  static constexpr const char* kSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+,:@%";
  if (!s.empty() && s.find_first_not_of(kSafe) == std::string::npos) return s;
  std::string quoted = "'";
  for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// --emit-pytorch: the twin's folder (core/train/twin.hpp), any size validate_shape allows; one warning line names
// every setting beyond what peviz trains itself.
void emit_pytorch(const std::vector<TrainSettings>& settings, const std::string& dir) {
  for (const TrainSettings& s : settings) train::validate_shape(s);
  std::vector<std::string> over;
  for (const TrainSettings& s : settings)
    for (const std::string& o : train::beyond_engine_limits(s))
      if (std::find(over.begin(), over.end(), o) == over.end()) over.push_back(o);
  if (!over.empty()) {
    std::string line;
    for (const std::string& o : over) line += (line.empty() ? "" : ", ") + o;
    std::fprintf(stderr, "peviz: warning: beyond what peviz trains itself (emitted for the PyTorch twin): %s\n",
                 line.c_str());
  }
  const std::vector<std::string> written = train::emit_pytorch_experiment(settings, dir);
  const std::string lab_py = shell_word(dir + "/lab.py");
  std::printf("wrote %s (%zu files); train with: python3 %s, or on N ranks: python3 %s --ranks N\n", dir.c_str(),
              written.size(), lab_py.c_str(), lab_py.c_str());
}

// One aligned line per row of a lab_table_json section: its values, lists joined by commas.
std::string table_text(const nlohmann::ordered_json& rows) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    cells.emplace_back();
    for (const auto& [key, value] : row.items()) {
      std::string cell;
      if (!value.is_array()) cell = value.get<std::string>();
      else for (const auto& v : value) cell += (cell.empty() ? "" : ",") + v.get<std::string>();
      width.resize(std::max(width.size(), cells.back().size() + 1));
      width[cells.back().size()] = std::max(width[cells.back().size()], cell.size());
      cells.back().push_back(cell);
    }
  }
  std::string text;
  for (const auto& line : cells) {
    std::string out;
    for (std::size_t k = 0; k < line.size(); ++k)
      out += k + 1 < line.size() ? line[k] + std::string(width[k] + 2 - line[k].size(), ' ') : line[k];
    text += out + "\n";
  }
  return text;
}

// --list-encodings / --list-tasks: the sections asked for of the lab's table, as text or as lab_table_json.
void print_lab_table(const TrainCommand& c) {
  const std::string format = c.format.empty() ? "text" : c.format;
  if (format != "text" && format != "json") throw ParamError("format", "must be text or json, got '" + format + "'");
  nlohmann::ordered_json j = train::lab_table_json();
  if (!c.list_encodings) j.erase("encodings");
  if (!c.list_tasks) j.erase("tasks");
  if (format == "json") return (void)std::printf("%s\n", j.dump(1).c_str());
  for (const char* section : {"encodings", "tasks"})
    if (j.contains(section)) std::printf("%s", table_text(j[section]).c_str());
}

void run_train(TrainCommand& c) {
  if (c.list_encodings || c.list_tasks) return print_lab_table(c);
  if (!c.format.empty()) throw ParamError("format", "goes with --list-encodings or --list-tasks");
  if (!train::parse_task(c.task, c.settings.task))
    throw ParamError("task", "must be " + train::task_names() + ", got '" + c.task + "'");
  if (!train::parse_length_scale(c.length_scale, c.settings.length_scale))
    throw ParamError("length-scale", "must be none, ssmax or logn, got '" + c.length_scale + "'");
  const std::vector<PositionEncoding> encodings = parse_encodings(c.pe);
  if (c.settings.nope_every != 0 && std::none_of(encodings.begin(), encodings.end(), train::takes_layer_schedule))
    throw ParamError("nope-every", "needs an encoding that acts in attention (a rotation or a bias); " + c.pe +
                                       " adds its positions to the embeddings");
  if (c.settings.drope_steps != 0 && std::none_of(encodings.begin(), encodings.end(), train::takes_layer_schedule))
    throw ParamError("drope-steps", "needs an encoding that acts in attention (a rotation or a bias); " + c.pe +
                                        " adds its positions to the embeddings");
  const std::vector<std::uint64_t> seeds = parse_seeds(c.seeds, c.settings.seed);
  check_int(limits::train_threads, c.threads);
  const std::vector<TrainSettings> settings = train::experiment_settings(c.settings, encodings, seeds);
  if (c.emit) return emit_pytorch(settings, c.emit_pytorch);
  for (const TrainSettings& s : settings) train::validate(s);  // before any training starts
  check_run_file_name(c.out);
  // Every file --out will write, refused now (a missing or read-only folder) rather than after minutes of training.
  for (const std::string& path : train::experiment_output_files(settings, c.out)) check_can_write(path);
  InterruptGuard interrupts;  // Ctrl+C stops the runs; nothing is written
  // Without threads (the command line compiled by em++, run by node) this thread trains, between the prints.
  const bool threads = threads_available();
  train::RunQueue queue(settings, threads ? c.threads : 0);
  ProgressPrinter progress;
  const bool tty = progress.tty;
  std::size_t printed = 0;
  for (;;) {  // print each run's line as soon as it and every run before it have ended
    progress.print(queue);
    for (; printed < queue.size() && finished(queue.state(printed)); ++printed) {
      progress.clear_line();
      if (queue.state(printed) == train::RunState::failed) throw std::runtime_error(queue.error(printed));
      std::printf("%s\n", train::run_summary_json(*queue.run(printed)).dump().c_str());
      std::fflush(stdout);
    }
    if (printed == queue.size()) break;
    throw_if_interrupted();  // the queue's destructor then stops every run at once, without evaluating
    if (!threads) queue.advance(tty ? 0.25 : 0.02);
    else std::this_thread::sleep_for(std::chrono::milliseconds(tty ? 250 : 20));
  }
  queue.wait();
  if (c.out.empty()) return;
  std::vector<const train::TrainRun*> runs;
  for (std::size_t i = 0; i < queue.size(); ++i) runs.push_back(queue.run(i));
  const std::vector<std::string> written = train::save_experiment(runs, c.out, c.half);
  std::fprintf(stderr, "peviz: wrote %zu file%s: ", written.size(), written.size() == 1 ? "" : "s");
  for (std::size_t i = 0; i < written.size(); ++i) std::fprintf(stderr, "%s%s", i ? ", " : "", written[i].c_str());
  std::fprintf(stderr, "\n");
}

}  // namespace

void register_train(CLI::App& app) {
  auto c = std::make_shared<TrainCommand>();
  TrainSettings& s = c->settings;
  CLI::App* sub = app.add_subcommand("train", "Train a tiny transformer per position encoding on " +
                                                  train::task_names("/", "/") +
                                                  "; print one JSON line per encoding and seed (exact match by length)");
  sub->add_option("--task", c->task, train::task_names(" | ", " | "))->capture_default_str();
  sub->add_option("--pe", c->pe, train::lab_encoding_names(" | ") + ", a comma list; " +
                                   std::string(train::kClassicGroup) + " = the first six, " +
                                   std::string(train::kFixesGroup) + " = the rest (docs/lab.md)")
      ->capture_default_str();
  sub->add_option("--steps", s.steps, "Optimizer steps, " + range_text(limits::train_steps))->capture_default_str();
  sub->add_option("--seed", s.seed, "Seed of the weights, training batches and test sets")
      ->check(non_negative_integer())
      ->capture_default_str();
  sub->add_option("--seeds", c->seeds, "Several seeds per encoding: a comma list (0,1,2), or a count N (--seed .. "
                                       "--seed + N - 1); one JSON line per encoding and seed");
  sub->add_option("--layers", s.layers, "Transformer blocks, " + range_text(limits::train_layers))->capture_default_str();
  // Checked in run_train: --emit-pytorch takes sizes beyond these ranges (GPT-2 small's 12 heads of d_model 768).
  add_shared_flag(*sub, shared_flags::heads, s.heads, limits::train_heads, LimitRange::checked_later)
      ->capture_default_str();
  add_shared_flag(*sub, shared_flags::d_model, s.d_model, limits::train_d_model, LimitRange::checked_later)
      ->capture_default_str();
  sub->add_option("--batch", s.batch, "Sequences per step, " + range_text(limits::train_batch))->capture_default_str();
  sub->add_option("--train-max", s.train_max, "Training n uniform in [1, train-max], train-max in " + range_text(limits::train_max))->capture_default_str();
  sub->add_option("--test-max", s.test_max, "Test n = 5, 10, ..., test-max (<= 4 x train-max)")->capture_default_str();
  sub->add_option("--test-samples", s.test_samples, "Test sequences per length")->capture_default_str();
  add_shared_flag(*sub, shared_flags::base, s.rope_base, limits::base)->capture_default_str();
  sub->add_option("--lr", s.lr, "Peak learning rate (AdamW)")->capture_default_str();
  sub->add_option("--warmup", s.warmup, "Linear warm-up steps before the cosine decay")->capture_default_str();
  sub->add_option("--position-range", s.position_range, "rand-* and coupled: position ids in [0, position-range), " +
                                                            range_text(limits::position_range) +
                                                            "; rand-*: at least the longest sequence, coupled: its ids' span + 1")
      ->capture_default_str();
  sub->add_option("--ema", s.ema_decay, "Decay of the weights' moving average, " + range_text(limits::train_ema) +
                                          ": evaluated, drawn and saved in place of the weights; 0 = off (docs/lab.md)")
      ->capture_default_str();
  sub->add_option("--dropout", s.dropout, "Dropout on the attention probabilities and both residual branches in "
                                          "training, " + range_text(limits::train_dropout) + "; 0 = off (docs/lab.md)")
      ->capture_default_str();
  sub->add_option("--length-scale", c->length_scale, "none | ssmax | logn: the attention logits of a query that sees n "
                                                    "keys times s ln n (SSMax, s trained per layer and head) or "
                                                    "max(1, ln n / ln L) (log-n, L the longest training sequence) "
                                                    "(docs/lab.md)")
      ->capture_default_str();
  sub->add_option("--nope-every", s.nope_every, "A layer schedule: every this-many-th layer attends without the "
                                                "encoding (no rotation, no bias), as SmolLM3's and Llama 4's every "
                                                "fourth; 0 = off, else 2..layers (docs/lab.md)")
      ->capture_default_str();
  sub->add_option("--drope-steps", s.drope_steps, "DroPE: the last this-many steps train without positions (no "
                                                  "rotation, no bias), and the model is tested without them; 0 = "
                                                  "off, else fewer than --steps (docs/lab.md)")
      ->capture_default_str();
  sub->add_option("--threads", c->threads, "Threads: runs trained in parallel; a thread with no run left computes half of a running run's larger loops (results do not depend on it)")
      ->capture_default_str();
  CLI::Option* out = sub->add_option("--out", c->out, "Save the run as PATH (.safetensors); several runs: PATH-<pe>[-seed<S>].safetensors, their loss and "
                                  "accuracy CSVs, and PATH.json listing them (File > Open reopens either)");
  sub->add_flag("--half", c->half, "With --out: weights as float16 (half the size; curves and accuracies as trained)");
  sub->add_option("--emit-pytorch", c->emit_pytorch,
                  "Train nothing: write DIR/lab.py (these runs in PyTorch, one process or --ranks N), settings.json "
                  "and peviz's initial weights; sizes beyond peviz's own limits are allowed (docs/lab.md)")
      ->type_name("DIR")
      ->each([c](const std::string&) { c->emit = true; })
      ->excludes(out);
  sub->add_flag("--list-encodings", c->list_encodings, "Train nothing: print the encodings (name, the model the "
                                                         "PyTorch twin builds, position ids, group)");
  sub->add_flag("--list-tasks", c->list_tasks, "Train nothing: print the tasks (name, the position ids they take)");
  sub->add_option("--format", c->format, "Of --list-encodings / --list-tasks: text (default) or json (both flags: "
                                         "the lab_table.json --emit-pytorch writes)");
  sub->callback([c] { run_train(*c); });
}

}  // namespace peviz::cli
