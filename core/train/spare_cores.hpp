// Idle training workers lend their core to the runs still training: a run splits a loop in two halves.
//
// RunQueue trains one run per worker thread. When no queued run is left, a worker whose run has ended
// would idle while the others train; instead it serves here, and each running run hands it the upper
// half of its larger loops (matrix products by rows, attention by heads, GELU, LayerNorm, AdamW).
// Every split is cut so that each output element is computed by the same operations in the same order
// as without the split (tests/core/train/spare_cores_test.cpp checks the products and whole runs), so a
// run's results are the same bits whatever the number of workers.
#pragma once
#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <type_traits>

namespace peviz::train {

// A non-owning reference to a callable fn(begin, end) (no allocation per loop, unlike std::function): the
// callable must outlive the call it is passed to, as a lambda written in the call's argument list does.
class RangeFn {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, RangeFn>>>
  RangeFn(F&& f)  // NOLINT(google-explicit-constructor): lambdas convert implicitly
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, std::size_t begin, std::size_t end) { (*static_cast<std::remove_reference_t<F>*>(o))(begin, end); }) {}
  void operator()(std::size_t begin, std::size_t end) const { call_(object_, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, std::size_t, std::size_t);
};

// What split() does when this thread's half is done and the serving thread has not started the other:
// take_back computes it here (no core waits on a preempted one); wait_for_server leaves it to the server
// however late it starts (the tests' proof that a whole run's halves are lent, under any load).
enum class Handoff { take_back, wait_for_server };

class SpareCores {
 public:
  explicit SpareCores(int slots, Handoff handoff = Handoff::take_back);
  ~SpareCores();
  SpareCores(const SpareCores&) = delete;
  SpareCores& operator=(const SpareCores&) = delete;

  // Called by a worker with nothing left to train: computes the halves handed to `slot` until close().
  void serve(int slot);
  // Ends every serve() (once its current half is done) and refuses later ones. Call when no run trains.
  void close();
  // fn(0, cut) on this thread and fn(cut, n) on an idle serving thread; false (nothing called) when none is idle.
  bool split(std::size_t n, std::size_t cut, const RangeFn& fn);
  // Halves computed by serving threads so far.
  long lent() const { return lent_.load(std::memory_order_relaxed); }

 private:
  struct Slot;
  std::unique_ptr<Slot[]> slots_;
  int count_;
  Handoff handoff_;
  std::atomic<long> lent_{0};
};

// The spare cores of the calling thread's run for the lifetime of the scope (RunQueue sets it per worker).
class UseSpareCores {
 public:
  explicit UseSpareCores(SpareCores* cores);
  ~UseSpareCores();
  UseSpareCores(const UseSpareCores&) = delete;
  UseSpareCores& operator=(const UseSpareCores&) = delete;

 private:
  SpareCores* previous_;
};

// fn over rows [0, n): in two halves cut at split_cut(n, align) when the calling thread has a spare core idle and the
// loop is worth it (`work`, in multiply-adds or element operations, >= min_work), else fn(0, n) on this thread; align 0
// never splits. fn must compute each row the same way whatever range it is given.
inline constexpr double kMinSplitWork = 1 << 15;
// The multiple of align nearest n / 2 (rounding half up); 0 for align 0.
inline std::size_t split_cut(std::size_t n, std::size_t align) { return align ? (n / 2 + align / 2) / align * align : 0; }
void split_rows(std::size_t n, std::size_t align, double work, const RangeFn& fn, double min_work = kMinSplitWork);

}  // namespace peviz::train
