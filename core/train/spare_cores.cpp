// Handing half a loop to an idle worker: one slot per worker, a small state machine on an atomic.
#include "core/train/spare_cores.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace peviz::train {

namespace {

// absent: nobody serves the slot; idle: its worker waits for a half; claimed: a run is filling in the half (or
// took it back); posted: the half waits for the worker; running: the worker computes it; done: the run collects
// it and sets idle; closed: serve() returns.
enum State : int { absent, idle, claimed, posted, running, done, closed };

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// A serving worker spins this long after each half before it sleeps: the next product of the same
// training step follows within microseconds, and a futex wake-up would cost about as much as a small half.
constexpr auto kSpin = std::chrono::microseconds(200);

thread_local SpareCores* t_cores = nullptr;

}  // namespace

struct alignas(64) SpareCores::Slot {  // one cache line each: the slots of two workers never share one
  std::atomic<int> state{absent};
  const RangeFn* fn = nullptr;  // written while claimed, read while posted
  std::size_t begin = 0, end = 0;
  std::exception_ptr error;
};

SpareCores::SpareCores(int slots, Handoff handoff)
    : slots_(std::make_unique<Slot[]>(std::size_t(std::max(slots, 0)))), count_(slots), handoff_(handoff) {}

SpareCores::~SpareCores() { close(); }

namespace {
// Waits until `state` leaves `from`: spins first, then sleeps on the atomic.
int wait_while(std::atomic<int>& state, int from) {
  const auto spin_until = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; ++i) {
    const int s = state.load(std::memory_order_acquire);
    if (s != from) return s;
    cpu_relax();
    if ((i & 255) == 255 && std::chrono::steady_clock::now() > spin_until) break;
  }
  state.wait(from, std::memory_order_acquire);
  return state.load(std::memory_order_acquire);
}
// The run waits for a half the worker is computing: spins (it should end as soon as this thread's own half),
// and yields the core after a while in case the worker was preempted.
void wait_for_done(const std::atomic<int>& state) {
  for (int i = 0; state.load(std::memory_order_acquire) != done; ++i) {
    if (i < 4096)
      cpu_relax();
    else
      std::this_thread::yield();
  }
}
}  // namespace

void SpareCores::serve(int slot) {
  Slot& s = slots_[std::size_t(slot)];
  int expected = absent;
  if (!s.state.compare_exchange_strong(expected, idle, std::memory_order_acq_rel)) return;  // closed already
  for (int state = idle;;) {
    state = wait_while(s.state, state);
    if (state == closed) return;
    if (state != posted) continue;  // claimed: the half is being filled in
    int expected_posted = posted;
    if (!s.state.compare_exchange_strong(expected_posted, running, std::memory_order_acq_rel)) continue;  // taken back
    try {
      (*s.fn)(s.begin, s.end);
    } catch (...) {
      s.error = std::current_exception();
    }
    lent_.fetch_add(1, std::memory_order_relaxed);
    s.state.store(done, std::memory_order_release);
    s.state.notify_all();
    state = done;
  }
}

void SpareCores::close() {
  for (int i = 0; i < count_; ++i) {
    Slot& s = slots_[std::size_t(i)];
    for (;;) {
      int expected = s.state.load(std::memory_order_acquire);
      if (expected == closed) break;
      if ((expected == idle || expected == absent) &&
          s.state.compare_exchange_weak(expected, closed, std::memory_order_acq_rel)) {
        s.state.notify_all();
        break;
      }
      std::this_thread::yield();  // a half is in flight: its run collects it within a product's time
    }
  }
}

bool SpareCores::split(std::size_t n, std::size_t cut, const RangeFn& fn) {
  for (int i = 0; i < count_; ++i) {
    Slot& s = slots_[std::size_t(i)];
    int expected = idle;
    if (s.state.load(std::memory_order_relaxed) != idle) continue;  // a read keeps the line shared while busy
    if (!s.state.compare_exchange_strong(expected, claimed, std::memory_order_acq_rel)) continue;
    s.fn = &fn;
    s.begin = cut;
    s.end = n;
    s.error = nullptr;
    s.state.store(posted, std::memory_order_release);
    s.state.notify_all();
    std::exception_ptr mine;
    try {
      fn(0, cut);
    } catch (...) {
      mine = std::current_exception();
    }
    int expected_posted = posted;
    if (handoff_ == Handoff::take_back &&
        s.state.compare_exchange_strong(expected_posted, claimed, std::memory_order_acq_rel)) {
      // The worker has not started (its core is busy elsewhere): this thread computes the upper half too.
      s.state.store(idle, std::memory_order_release);
      if (mine) std::rethrow_exception(mine);
      fn(cut, n);
      return true;
    }
    wait_for_done(s.state);
    std::exception_ptr theirs = s.error;
    s.state.store(idle, std::memory_order_release);
    if (mine) std::rethrow_exception(mine);
    if (theirs) std::rethrow_exception(theirs);
    return true;
  }
  return false;
}

UseSpareCores::UseSpareCores(SpareCores* cores) : previous_(t_cores) { t_cores = cores; }
UseSpareCores::~UseSpareCores() { t_cores = previous_; }

void split_rows(std::size_t n, std::size_t align, double work, const RangeFn& fn, double min_work) {
  const std::size_t cut = split_cut(n, align);
  const bool worth = t_cores && work >= min_work && cut > 0 && cut < n;
  if (!worth || !t_cores->split(n, cut, fn)) fn(0, n);
}

}  // namespace peviz::train
