// Splitting row ranges over worker threads so that the result never depends on how many there are.
#pragma once
#include <cstddef>
#include <functional>

namespace peviz {

// --threads: 0 means every core the machine has (std::thread::hardware_concurrency, at least 1); always 1 in
// the browser builds, even the threaded one: parallel_rows joins its threads, and the page's thread waiting on a
// worker that has not started (the pool's workers busy training) would never return.
// Throws ParamError("threads", ...) outside limits::threads.
int resolve_threads(int requested);
// False where this process cannot start threads (the browser's one-thread build, compiled without pthreads):
// then the lab trains cooperatively (RunQueue with no workers). The browser's threaded build (cross-origin
// isolated pages, peviz-threads.js) trains on worker threads as the desktop does.
bool threads_available();
// Threads for background work (the Lab's runs, each on one): one per core, at least one. In the browser's threaded
// build one per core but one: a page cannot lower its workers' priority (the desktop nices them), so a core stays
// with the page's own thread, which keeps drawing the training's progress.
int background_workers();

// Calls fn(first, count) on disjoint sub-ranges covering rows [first, first + count), cut at multiples
// of `align` rows (counted from 0) where possible, on up to `threads` threads (the caller's thread
// is one of them). Every row is computed by exactly one call, so a kernel whose rows do not depend
// on the sub-range gives the same bits for any thread count. Rethrows the first exception.
void parallel_rows(std::size_t first, std::size_t count, std::size_t align, int threads,
                   const std::function<void(std::size_t, std::size_t)>& fn);

}  // namespace peviz
