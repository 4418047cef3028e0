// Spare cores: halves run on the serving thread, errors come back, close ends serving, and splits change no bit.
#include "core/train/spare_cores.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include "tiny_run.hpp"

#include "core/train/gemm.hpp"
#include "core/train/run_queue.hpp"

using namespace peviz::train;

namespace {

// A SpareCores with one thread serving slot 0 until the object is closed.
struct ServedCores {
  SpareCores cores{1};
  std::thread server{[this] { cores.serve(0); }};
  ServedCores() {
    while (!cores.split(2, 1, [](std::size_t, std::size_t) {})) std::this_thread::yield();  // serving now
  }
  ~ServedCores() {
    cores.close();
    server.join();
  }
};

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal;
  std::vector<float> v(n);
  for (float& x : v) x = normal(gen);
  return v;
}

// The settings of one run large enough for every split to happen (products of 700+ rows).
TrainSettings splittable_run(PositionEncoding pe) {
  TrainSettings s = tiny_run(pe, 3, 4);
  s.d_model = 64;
  s.heads = 4;
  s.batch = 32;
  s.train_max = 20;
  s.test_max = 25;
  return s;
}

}  // namespace

TEST_CASE("split: the lower half on the caller, the upper half on the serving thread", "[train][spare]") {
  ServedCores served;
  const std::thread::id me = std::this_thread::get_id();
  std::vector<int> by_me(10, 0), by_other(10, 0);
  std::atomic<bool> upper_started{false};
  const long lent_before = served.cores.lent();
  REQUIRE(served.cores.split(10, 4, [&](std::size_t first, std::size_t end) {
    if (first > 0) upper_started = true;
    for (std::size_t i = first; i < end; ++i) (std::this_thread::get_id() == me ? by_me : by_other)[i] = 1;
    while (!upper_started) std::this_thread::yield();  // else this thread would take the upper half back
  }));
  CHECK(by_me == std::vector<int>{1, 1, 1, 1, 0, 0, 0, 0, 0, 0});
  CHECK(by_other == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 1, 1});
  CHECK(served.cores.lent() == lent_before + 1);
}

TEST_CASE("split: whether the server starts the upper half in time or this thread takes it back, each half runs once", "[train][spare]") {
  SpareCores cores(1);
  std::atomic<bool> serving{false};
  std::thread server([&] {
    serving = true;
    cores.serve(0);
  });
  while (!serving) std::this_thread::yield();
  std::vector<std::size_t> ranges;
  // The server may or may not pick the upper half up in time; either way both halves are computed once.
  std::mutex m;
  while (!cores.split(6, 2, [&](std::size_t first, std::size_t end) {
    std::lock_guard lock(m);
    ranges.push_back(first);
    ranges.push_back(end);
  })) std::this_thread::yield();
  std::sort(ranges.begin(), ranges.end());
  CHECK(ranges == std::vector<std::size_t>{0, 2, 2, 6});
  cores.close();
  server.join();
}

TEST_CASE("split with wait_for_server: the upper half runs on the serving thread even when this thread's half ends first",
          "[train][spare]") {
  SpareCores cores(1, Handoff::wait_for_server);
  std::thread server([&] { cores.serve(0); });
  while (!cores.split(2, 1, [](std::size_t, std::size_t) {})) std::this_thread::yield();  // serving now
  const std::thread::id me = std::this_thread::get_id();
  std::vector<int> by_me(6, 0), by_other(6, 0);
  for (int repeat = 0; repeat < 100; ++repeat) {  // the lower half returns at once: take_back would often keep the upper
    REQUIRE(cores.split(6, 2, [&](std::size_t first, std::size_t end) {
      for (std::size_t i = first; i < end; ++i) (std::this_thread::get_id() == me ? by_me : by_other)[i] += 1;
    }));
  }
  CHECK(by_me == std::vector<int>{100, 100, 0, 0, 0, 0});
  CHECK(by_other == std::vector<int>{0, 0, 100, 100, 100, 100});
  CHECK(cores.lent() == 101);
  cores.close();
  server.join();
}

TEST_CASE("split: an exception in either half reaches the caller, and the core serves on", "[train][spare]") {
  ServedCores served;
  CHECK_THROWS_WITH(served.cores.split(8, 4,
                                       [](std::size_t first, std::size_t) {
                                         if (first == 4) throw std::runtime_error("upper");
                                       }),
                    "upper");
  CHECK_THROWS_WITH(served.cores.split(8, 4,
                                       [](std::size_t first, std::size_t) {
                                         if (first == 0) throw std::runtime_error("lower");
                                       }),
                    "lower");
  std::atomic<int> calls{0};
  CHECK(served.cores.split(8, 4, [&](std::size_t, std::size_t) { ++calls; }));
  CHECK(calls == 2);
}

TEST_CASE("split is refused without a serving thread, and after close", "[train][spare]") {
  SpareCores cores(2);
  CHECK_FALSE(cores.split(8, 4, [](std::size_t, std::size_t) {}));
  cores.close();
  cores.serve(0);  // returns at once: closed
  CHECK_FALSE(cores.split(8, 4, [](std::size_t, std::size_t) {}));
}

TEST_CASE("split_rows: small loops, no spare cores, align 0 or a single row run whole on this thread", "[train][spare]") {
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  const auto record = [&](std::size_t first, std::size_t end) { calls.emplace_back(first, end); };
  split_rows(100, 16, 1e9, record);  // no UseSpareCores scope
  ServedCores served;
  UseSpareCores use(&served.cores);
  split_rows(100, 16, kMinSplitWork / 2, record);  // not worth a hand-off
  split_rows(1, 1, 1e9, record);                   // nothing to split
  split_rows(100, 0, 1e9, record);                 // align 0: this loop must run whole
  CHECK(calls == std::vector<std::pair<std::size_t, std::size_t>>{{0, 100}, {0, 100}, {0, 1}, {0, 100}});
  calls.clear();
  split_rows(100, 16, 1e9, [&](std::size_t first, std::size_t end) {
    if (first == 0) calls.emplace_back(first, end);  // the upper half runs on the server
  });
  CHECK(calls == std::vector<std::pair<std::size_t, std::size_t>>{{0, 48}});
}

namespace {

// A product cut where gemm_split_align says, in the halves split_rows would make: the whole product's bits.
struct Product {
  Op a, b;
  int m, n, k;
  float alpha, beta;
};

std::size_t align_of(const Product& p) {
  const int lda = p.a == Op::none ? p.k : p.m, ldb = p.b == Op::none ? p.n : p.k;
  return gemm_split_align(p.a, p.b, p.m, p.n, p.k, p.alpha, lda, ldb, p.beta, p.n);
}

bool halves_keep_bits(const Product& p, std::size_t align) {
  const int lda = p.a == Op::none ? p.k : p.m, ldb = p.b == Op::none ? p.n : p.k;
  const std::vector<float> A = random_floats(std::size_t(p.m) * p.k, 1), B = random_floats(std::size_t(p.k) * p.n, 2);
  std::vector<float> whole = random_floats(std::size_t(p.m) * p.n, 3), halves = whole;
  gemm(p.a, p.b, p.m, p.n, p.k, p.alpha, A.data(), lda, B.data(), ldb, p.beta, whole.data(), p.n);
  const int cut = int(split_cut(std::size_t(p.m), align));
  for (const auto [first, rows] : {std::pair{0, cut}, std::pair{cut, p.m - cut}}) {
    const float* a = p.a == Op::none ? A.data() + std::size_t(first) * lda : A.data() + first;
    gemm(p.a, p.b, rows, p.n, p.k, p.alpha, a, lda, B.data(), ldb, p.beta, halves.data() + std::size_t(first) * p.n, p.n);
  }
  return same_bits(whole, halves);
}

}  // namespace

TEST_CASE("the engine's products are split where the halves keep the whole product's bits", "[train][spare][simd]") {
  // The lab's shapes at d_model 64 and 256 and about 750 tokens, as layers.cpp multiplies them (alpha 1, B not
  // transposed: LIBXSMM's), and the same shapes with alpha 0.7 or B transposed (OpenBLAS's). Every host here has
  // LIBXSMM's kernels, so the engine's own products must split; an OpenBLAS kind may be refused (align 0) on a
  // kernel gemm's check does not trust, never split with other bits.
  const Product engine[] = {{Op::none, Op::none, 768, 64, 192, 1, 0},    {Op::transpose, Op::none, 192, 64, 768, 1, 1},
                            {Op::none, Op::none, 743, 64, 256, 1, 0},    {Op::none, Op::none, 743, 256, 64, 1, 1},
                            {Op::transpose, Op::none, 64, 256, 743, 1, 1}, {Op::transpose, Op::none, 1024, 256, 743, 1, 1},
                            {Op::transpose, Op::none, 128, 128, 300, 1, 1}};
  for (const Product& p : engine) {
    INFO(p.m << " x " << p.n << " x " << p.k << (p.a == Op::transpose ? " A^T" : ""));
    REQUIRE(double(p.m) * p.n * p.k >= kMinGemmSplitWork);
    const std::size_t align = align_of(p);
    REQUIRE(align == kXsmmRowAlign);
    CHECK(halves_keep_bits(p, align));
  }
  // OpenBLAS's kinds: refused (align 0) where the halves would be too small for its regular kernels or where gemm's
  // check finds other bits; with the kernels gemm.cpp names (SkylakeX, Haswell) the larger ones must split.
  const Product blas[] = {{Op::none, Op::transpose, 768, 192, 64, 0.7f, 1},  {Op::none, Op::none, 768, 64, 192, 0.7f, 0},
                          {Op::transpose, Op::none, 192, 64, 768, 0.7f, 1},  {Op::none, Op::transpose, 743, 256, 64, 0.7f, 1},
                          {Op::transpose, Op::none, 64, 256, 743, 0.7f, 1},  {Op::none, Op::none, 743, 64, 256, 0.7f, 0},
                          {Op::none, Op::transpose, 743, 768, 256, 1, 1},    {Op::transpose, Op::none, 1024, 256, 743, 0.7f, 1},
                          {Op::none, Op::transpose, 300, 128, 128, 1, 1},    {Op::transpose, Op::none, 128, 128, 300, 0.7f, 1},
                          {Op::none, Op::transpose, 1024, 768, 256, 0.7f, 0}, {Op::none, Op::none, 1024, 256, 768, 0.7f, 0}};
  const char* kernels = std::getenv("OPENBLAS_CORETYPE");  // as gemm.cpp loaded OpenBLAS
  const bool known_kernels = kernels && (std::string(kernels) == "SkylakeX" || std::string(kernels) == "Haswell");
  for (const Product& p : blas) {
    INFO(p.m << " x " << p.n << " x " << p.k << (p.a == Op::transpose ? " A^T" : "") << (p.b == Op::transpose ? " B^T" : "")
              << " on OpenBLAS's " << (kernels ? kernels : "own choice of") << " kernels");
    const std::size_t align = align_of(p);
    CHECK((align == 0 || align == kBlasRowAlign));
    const std::size_t cut = split_cut(std::size_t(p.m), kBlasRowAlign);
    const bool halves_regular = double(std::min<std::size_t>(cut, std::size_t(p.m) - cut)) * p.n * p.k >= kBlasRegularWork;
    if (!halves_regular) CHECK(align == 0);
    else if (known_kernels) CHECK(align == kBlasRowAlign);
    if (align) CHECK(halves_keep_bits(p, align));
  }
}

TEST_CASE("OpenBLAS's Haswell kernels: halves cut at 16 rows change bits, at 48 they keep them", "[train][spare][simd]") {
  // The cause of the AVX2 hosts' failures: the kernel takes the rows in tiles of 12 (docs/benchmarks.md). Only
  // where OpenBLAS runs its Haswell kernels (every AVX2 host, and the suite's forced-AVX2 run).
  const char* kernels = std::getenv("OPENBLAS_CORETYPE");
  if (!kernels || std::string(kernels) != "Haswell") {
    WARN("SKIPPED: OPENBLAS_CORETYPE is not Haswell here (the forced-AVX2 run of core_tests sets it)");
    return;
  }
  const Product p{Op::none, Op::transpose, 743, 768, 256, 0.7f, 1};
  CHECK_FALSE(halves_keep_bits(p, 16));
  CHECK(halves_keep_bits(p, 48));
  CHECK(align_of(p) == kBlasRowAlign);
}

namespace {

// Trains `settings` alone and again with a spare core serving it: the core takes halves, the bits stay.
void check_served_run_keeps_bits(const TrainSettings& settings) {
  TrainRun alone(settings);
  alone.train(std::atomic<bool>{false});
  // The server is serving before the run starts, and wait_for_server leaves every posted half to it, so halves
  // are lent however the machine is loaded.
  SpareCores cores(1, Handoff::wait_for_server);
  std::thread server([&] { cores.serve(0); });
  while (!cores.split(2, 1, [](std::size_t, std::size_t) {})) std::this_thread::yield();  // serving now
  const long lent_before = cores.lent();
  TrainRun served(settings);
  {
    UseSpareCores use(&cores);
    served.train(std::atomic<bool>{false});
  }
  cores.close();
  server.join();
  CHECK(cores.lent() > lent_before);
  CHECK(same_bits(served.snapshot().loss, alone.snapshot().loss));
  CHECK(same_bits(served.parameters(), alone.parameters()));
  const auto& served_accuracy = served.snapshot().accuracy;
  const auto& alone_accuracy = alone.snapshot().accuracy;
  REQUIRE(served_accuracy.size() == alone_accuracy.size());
  for (std::size_t i = 0; i < alone_accuracy.size(); ++i)
    CHECK(served_accuracy[i].exact_match == alone_accuracy[i].exact_match);
}

}  // namespace

TEST_CASE("a run served by a spare core lends it halves, and keeps its bits", "[train][spare]") {
  for (PositionEncoding pe : kAllPositionEncodings) {
    INFO(to_string(pe));
    check_served_run_keeps_bits(splittable_run(pe));
  }
}

TEST_CASE("with EMA and dropout on, a run served by a spare core keeps its bits (the masks do not see the split)",
          "[train][spare]") {
  for (PositionEncoding pe : {PositionEncoding::rope, PositionEncoding::t5, PositionEncoding::fire}) {
    INFO(to_string(pe));
    TrainSettings s = splittable_run(pe);
    s.ema_decay = 0.9;
    s.dropout = 0.2;
    check_served_run_keeps_bits(s);
  }
}

TEST_CASE("one run on two workers keeps the bits of the run alone, however many halves the idle worker took", "[train][spare]") {
  // Whether the second worker serves before the run ends depends on the machine's load (the test above proves the
  // lending); the run's results must not.
  for (PositionEncoding pe : {PositionEncoding::rope, PositionEncoding::alibi, PositionEncoding::learned}) {
    INFO(to_string(pe));
    const TrainSettings settings = splittable_run(pe);
    RunQueue two({settings}, 2);
    two.wait();
    REQUIRE(two.state(0) == RunState::done);
    TrainRun alone(settings);
    alone.train(std::atomic<bool>{false});
    CHECK(same_bits(two.run(0)->snapshot().loss, alone.snapshot().loss));
    CHECK(same_bits(two.run(0)->parameters(), alone.parameters()));
  }
}
