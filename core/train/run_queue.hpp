// The one way to train several lab runs: a queue of TrainRuns trained by worker threads, or reopened finished runs.
//
// Use (the Lab page and `peviz train` alike):
//   RunQueue q(settings, workers);   // validates every entry (ParamError), starts `workers` threads
//   q.state(i), q.run(i)->snapshot() // any thread, any time
//   q.stop();                        // running runs stop after their step and evaluate; queued ones never start
//   q.wait();                        // joins the workers
// Runs start in the order given; a worker takes the next queued run when its own ends; when none is queued it
// lends its core to the runs still training (SpareCores). A run's results are the same bits whatever the
// number of workers. The destructor
// abandons: it cancels without evaluating and joins (closing the window mid-run).
// With no workers (where threads_available() is false: the browser) nothing trains until advance() is called,
// which the owner does once a frame: the same runs, steps and results, on the caller's thread.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/train/run.hpp"
#include "core/train/spare_cores.hpp"

namespace peviz::train {

enum class RunState { queued, running, done, failed };

class RunQueue {
 public:
  // One run per settings entry (all validated first), `workers` >= 1 threads at `worker_nice` (Linux: the
  // threads' nice value, so that a window's frame loop is not queued behind them; 0 leaves it), or 0: no
  // threads, the caller trains through advance().
  RunQueue(std::vector<TrainSettings> runs, int workers, int worker_nice = 0);
  // Finished runs (e.g. reopened from files): every state is done, no thread starts.
  explicit RunQueue(std::vector<std::unique_ptr<TrainRun>> finished);
  ~RunQueue();
  RunQueue(const RunQueue&) = delete;
  RunQueue& operator=(const RunQueue&) = delete;

  std::size_t size() const { return settings_.size(); }
  const TrainSettings& settings(std::size_t i) const { return settings_[i]; }
  RunState state(std::size_t i) const { return slots_[i].state.load(std::memory_order_acquire); }
  // The run once it has started (running, done, or failed after its start); nullptr before. Its const members
  // (snapshot, attention_maps, learned_table, parameters) are thread-safe.
  const TrainRun* run(std::size_t i) const;
  std::string error(std::size_t i) const;  // why a run failed (state failed), else ""
  void stop() { cancel_.store(true, std::memory_order_relaxed); }
  bool stopping() const { return cancel_.load(std::memory_order_relaxed); }
  // True once every worker has ended (then wait() returns at once); with no workers, once every run has.
  bool ended() const { return live_workers_.load(std::memory_order_acquire) == 0; }
  // With no workers: steps the current run (and starts, finishes and evaluates runs in order) for about
  // `seconds`, at least one step; false once nothing is left to do. With workers it does nothing.
  bool advance(double seconds);
  void wait();
  // Loop halves that idle workers computed for runs still training (SpareCores::lent).
  long halves_lent() const { return spares_ ? spares_->lent() : 0; }

 private:
  struct Slot {
    std::atomic<RunState> state{RunState::queued};
    std::unique_ptr<TrainRun> run;  // written by its worker before state leaves queued
    std::string error;              // written before state becomes failed
  };
  void work(int index, int nice);
  void train_queued();
  void start_run(std::size_t i);
  void end_run(std::size_t i);
  void fail_run(std::size_t i, const std::exception& e);
  bool cooperative_ = false;
  std::size_t current_ = 0;  // with no workers: the run advance() steps

  std::vector<TrainSettings> settings_;
  std::unique_ptr<Slot[]> slots_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> cancel_{false}, abandon_{false};
  std::atomic<int> live_workers_{0};
  std::atomic<int> training_workers_{0};   // workers still taking runs; the last one to stop closes spares_
  std::unique_ptr<SpareCores> spares_;
  std::vector<std::thread> workers_;
};

}  // namespace peviz::train
