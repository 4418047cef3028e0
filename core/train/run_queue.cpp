// Worker threads (or the caller, a slice at a time) over a queue of training runs; reopened runs as a finished queue.
#include "core/train/run_queue.hpp"

#include <algorithm>
#include <chrono>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace peviz::train {

RunQueue::RunQueue(std::vector<TrainSettings> runs, int workers, int worker_nice)
    : settings_(std::move(runs)), slots_(std::make_unique<Slot[]>(settings_.size())) {
  for (const TrainSettings& s : settings_) validate(s);
  if (workers == 0) {  // trained by advance(); ended() once the last run has
    cooperative_ = true;
    live_workers_.store(settings_.empty() ? 0 : 1);
    return;
  }
  const int n = std::max(1, workers);  // workers beyond the runs lend their core from the start
  live_workers_.store(n);
  training_workers_.store(n);
  spares_ = std::make_unique<SpareCores>(n);
  for (int i = 0; i < n; ++i) workers_.emplace_back([this, i, worker_nice] { work(i, worker_nice); });
}

RunQueue::RunQueue(std::vector<std::unique_ptr<TrainRun>> finished) : slots_(std::make_unique<Slot[]>(finished.size())) {
  for (std::size_t i = 0; i < finished.size(); ++i) {
    settings_.push_back(finished[i]->settings());
    slots_[i].run = std::move(finished[i]);
    slots_[i].state.store(RunState::done);
  }
  next_.store(settings_.size());
}

RunQueue::~RunQueue() {
  abandon_.store(true);
  cancel_.store(true);
  wait();
}

const TrainRun* RunQueue::run(std::size_t i) const {
  return state(i) == RunState::queued ? nullptr : slots_[i].run.get();
}

std::string RunQueue::error(std::size_t i) const { return state(i) == RunState::failed ? slots_[i].error : ""; }

void RunQueue::wait() {
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
}

// A worker: takes the next queued run until none is left or stop(); each run steps until done, diverged or
// cancelled, then evaluates (skipped when the owner is going away). Then it lends its core to the runs still
// training until the last of them ends.
void RunQueue::work(int index, int nice) {
#ifdef __linux__
  if (nice != 0) setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), nice);  // per thread on Linux
#else
  (void)nice;
#endif
  train_queued();
  if (training_workers_.fetch_sub(1, std::memory_order_acq_rel) == 1)
    spares_->close();
  else
    spares_->serve(index);
  live_workers_.fetch_sub(1, std::memory_order_release);
}

void RunQueue::start_run(std::size_t i) {
  slots_[i].run = std::make_unique<TrainRun>(settings_[i]);
  slots_[i].state.store(RunState::running, std::memory_order_release);
}

void RunQueue::end_run(std::size_t i) {
  if (!abandon_.load()) slots_[i].run->finish(cancel_.load());
  slots_[i].state.store(RunState::done, std::memory_order_release);
}

void RunQueue::fail_run(std::size_t i, const std::exception& e) {  // ParamError, bad_alloc: the others go on
  slots_[i].error = e.what();
  slots_[i].state.store(RunState::failed, std::memory_order_release);
}

void RunQueue::train_queued() {
  UseSpareCores use(spares_.get());
  for (std::size_t i = next_++; i < settings_.size() && !cancel_.load(); i = next_++) {
    try {
      start_run(i);
      while (!cancel_.load(std::memory_order_relaxed) && slots_[i].run->step()) {
      }
      end_run(i);
    } catch (const std::exception& e) {
      fail_run(i, e);
    }
  }
}

bool RunQueue::advance(double seconds) {
  if (!cooperative_ || ended()) return false;
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  do {
    if (current_ >= settings_.size() || (cancel_.load() && state(current_) == RunState::queued)) {
      next_.store(settings_.size());
      live_workers_.store(0, std::memory_order_release);
      return false;
    }
    const std::size_t i = current_;
    try {
      if (state(i) == RunState::queued) start_run(i);
      if (cancel_.load() || !slots_[i].run->step()) {
        end_run(i);
        ++current_;
      }
    } catch (const std::exception& e) {
      fail_run(i, e);
      ++current_;
    }
  } while (std::chrono::steady_clock::now() < until);
  return true;
}

}  // namespace peviz::train
