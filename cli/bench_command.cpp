// `peviz bench [--json]`: medians of the sinusoidal table, its write floor and its cosine similarity at fixed sizes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/flag_checks.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/base/parallel.hpp"
#include "core/simd/simd_kernels.hpp"
#include "core/encodings/similarity.hpp"

namespace peviz::cli {

namespace {

struct BenchSize {
  int seq_len, d_model;
};
constexpr BenchSize kSizes[] = {{512, 512}, {2048, 512}, {4096, 1024}, {8192, 1024}};

// One warm-up call (which also sizes the output buffer), then the median of `reps` timed calls.
template <class Fn>
double median_ms(Fn&& fn, int reps) {
  fn();
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(ms.begin(), ms.begin() + std::ptrdiff_t(ms.size() / 2), ms.end());
  return ms[ms.size() / 2];
}

// The write floor: filling the same warm buffer with a constant on the same threads, the least any
// kernel that writes L x d floats can take.
void fill_constant(Matrix& out, int threads) {
  parallel_rows(0, out.rows, 1, threads, [&](std::size_t first, std::size_t count) {
    std::fill(out.row(first), out.row(first) + count * out.cols, 0.5f);
  });
}

void run_bench(bool as_json, int reps, int threads) {
  nlohmann::json table = nlohmann::json::object(), sim = nlohmann::json::object(), floor = nlohmann::json::object();
  Matrix out;  // reused across runs: warm buffers, as the GUI uses them
  if (!as_json)
    std::printf("%d threads, %s kernels; write floor = filling the same warm buffer with a constant\n", threads,
                std::string(to_string(best_simd_path())).c_str());
  for (const BenchSize& s : kSizes) {
    EncodingParams p;
    p.seq_len = s.seq_len;
    p.d_model = s.d_model;
    p.threads = threads;
    const std::string key = std::to_string(s.seq_len) + "x" + std::to_string(s.d_model);
    table[key] = median_ms([&] { encode(p, out); }, reps);
    floor[key] = median_ms([&] { fill_constant(out, threads); }, reps);
    sim[key] = median_ms([&] { similarity(p, Metric::cosine, out); }, reps);
    if (!as_json)
      std::printf("L x d = %-10s table %8.3f ms (write floor %7.3f ms, %4.2fx)   cosine similarity %8.3f ms\n",
                  key.c_str(), table[key].get<double>(), floor[key].get<double>(),
                  table[key].get<double>() / floor[key].get<double>(), sim[key].get<double>());
  }
  if (as_json)
    std::printf("%s\n", nlohmann::json{{"table", table},
                                       {"similarity", sim},
                                       {"write_floor", floor},
                                       {"threads", threads},
                                       {"simd", to_string(best_simd_path())}}
                            .dump()
                            .c_str());
}

}  // namespace

void register_bench(CLI::App& app) {
  struct Options {
    bool json = false;
    int reps = int(limits::bench_reps.fallback);
    int threads = 0;
    std::string simd;  // empty: the widest the CPU has
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "bench", "Time the sinusoidal table, the write floor of its size and the cosine similarity (medians)");
  sub->add_flag("--json", o->json,
                "Print {\"table\", \"similarity\", \"write_floor\": {size: ms}, \"threads\", \"simd\"}");
  sub->add_option("--threads", o->threads, "Worker threads, " + range_text(limits::threads) + " (0 = every core)")->capture_default_str();
  sub->add_option("--reps", o->reps, "Timed repetitions per size (after one warm-up), " + range_text(limits::bench_reps))
      ->check(limit_check<int>(limits::bench_reps))
      ->capture_default_str();
  sub->add_option("--simd", o->simd, "Time this kernel path instead of the widest the CPU has: avx512, avx2, baseline")
      ->check([](const std::string& name) {
        return parse_simd_path(name) ? std::string() : "must be avx512, avx2 or baseline, got " + name;
      });
  sub->callback([o] {
    if (!o->simd.empty()) {
      const SimdPath path = *parse_simd_path(o->simd);
      if (!simd_path_supported(path)) throw ParamError("simd", "this CPU cannot run the " + o->simd + " kernels");
      cap_simd_path(path);
    }
    run_bench(o->json, o->reps, resolve_threads(o->threads));
  });
}

}  // namespace peviz::cli
