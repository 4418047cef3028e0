// Tests for core/base/parallel: every row exactly once, aligned cuts, and results that ignore the thread count.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "core/encodings/absolute_encodings.hpp"
#include "core/base/parallel.hpp"
#include "core/encodings/similarity.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

TEST_CASE("parallel_rows covers every row once and cuts at multiples of the alignment") {
  for (int threads : {1, 2, 3, 8})
    for (std::size_t align : {1u, 7u, 512u})
      for (auto [first, count] : {std::pair<std::size_t, std::size_t>{0, 0}, {0, 1}, {3, 100}, {700, 5000}}) {
        INFO("threads " << threads << ", align " << align << ", rows " << first << " + " << count);
        std::vector<int> seen(first + count, 0);
        std::mutex m;
        std::vector<std::pair<std::size_t, std::size_t>> calls;
        parallel_rows(first, count, align, threads, [&](std::size_t from, std::size_t n) {
          std::lock_guard<std::mutex> lock(m);
          calls.emplace_back(from, n);
          for (std::size_t r = from; r < from + n; ++r) ++seen[r];
        });
        for (std::size_t r = first; r < first + count; ++r) REQUIRE(seen[r] == 1);
        CHECK(calls.size() <= std::size_t(threads));
        for (auto [from, n] : calls) {
          CHECK(n > 0);
          CHECK((from == first || from % align == 0));
        }
      }
}

TEST_CASE("parallel_rows rethrows a worker's exception") {
  CHECK_THROWS_AS(parallel_rows(0, 100, 1, 4,
                                [](std::size_t from, std::size_t) {
                                  if (from > 0) throw std::runtime_error("worker failed");
                                }),
                  std::runtime_error);
}

TEST_CASE("--threads: 0 is every core, the table says the range") {
  CHECK(resolve_threads(0) >= 1);
  CHECK(resolve_threads(3) == 3);
  CHECK(param_error_of([] { resolve_threads(-1); }) == "threads: must be an integer in [0, 256], got -1");
  CHECK(param_error_of([] { resolve_threads(257); }) == "threads: must be an integer in [0, 256], got 257");
}

TEST_CASE("background work gets one worker per core on the desktop (the browser keeps one for the page)") {
  const int cores = std::max(1, int(std::thread::hardware_concurrency()));
  CHECK(background_workers() == cores);
  CHECK(background_workers() >= 1);
}

TEST_CASE("the table and the similarity have the same bits on 1, 2, 3 and 7 threads", "[threads]") {
  for (Encoding e : {Encoding::sinusoidal, Encoding::learned})
    for (Metric metric : {Metric::dot, Metric::cosine}) {
      EncodingParams p;
      p.encoding = e;
      p.seq_len = 1500;
      p.max_len = 1500;
      p.d_model = 40;
      p.threads = 1;
      const Matrix table = encode(p);
      Matrix one;
      similarity(p, metric, one);
      for (int threads : {2, 3, 7}) {
        INFO(to_string(e) << ", " << to_string(metric) << ", threads " << threads);
        p.threads = threads;
        const Matrix t = encode(p);
        REQUIRE(t.data.size() == table.data.size());
        CHECK(std::memcmp(t.data.data(), table.data.data(), t.data.size() * sizeof(float)) == 0);
        const SimilarityRows rows = prepare_similarity_rows(p, metric);
        std::vector<float> streamed(one.data.size());
        rows.fill(0, p.seq_len, streamed.data());
        CHECK(std::memcmp(streamed.data(), one.data.data(), streamed.size() * sizeof(float)) == 0);
      }
    }
}
