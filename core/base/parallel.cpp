// Row ranges over std::thread workers, cut at aligned boundaries.
#include "core/base/parallel.hpp"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

#include "core/base/limits.hpp"

namespace peviz {

bool threads_available() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return false;
#else
  return true;
#endif
}

int background_workers() {
  const int cores = std::max(1, int(std::thread::hardware_concurrency()));
#ifdef __EMSCRIPTEN__
  return std::max(1, cores - 1);  // navigator.hardwareConcurrency: one core for the page (parallel.hpp)
#else
  return cores;
#endif
}

int resolve_threads(int requested) {
  check_int(limits::threads, requested);
#ifdef __EMSCRIPTEN__
  return 1;  // the page's thread may not wait on a worker that the Lab's training holds (parallel.hpp)
#else
  if (!threads_available()) return 1;
  if (requested > 0) return requested;
  const unsigned cores = std::thread::hardware_concurrency();
  return int(std::clamp<unsigned>(cores, 1u, unsigned(limits::threads.max)));
#endif
}

void parallel_rows(std::size_t first, std::size_t count, std::size_t align, int threads,
                   const std::function<void(std::size_t, std::size_t)>& fn) {
  align = std::max<std::size_t>(align, 1);
  const std::size_t end = first + count;
  // Cut points: multiples of `align` inside the range, shared out evenly by whole units.
  const std::size_t units = (end + align - 1) / align - first / align;
  const std::size_t workers = std::min<std::size_t>(std::size_t(std::max(threads, 1)), units);
  if (workers <= 1) {
    if (count > 0) fn(first, count);
    return;
  }
  auto bound = [&](std::size_t w) {
    if (w == 0) return first;
    if (w == workers) return end;
    return std::clamp((first / align + units * w / workers) * align, first, end);
  };
  std::vector<std::exception_ptr> errors(workers);
  auto run = [&](std::size_t w) {
    try {
      if (bound(w + 1) > bound(w)) fn(bound(w), bound(w + 1) - bound(w));
    } catch (...) {
      errors[w] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(run, w);
  run(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace peviz
