// The bases that keep Men et al.'s B(m) >= 0 for all m < L, scanned upward from core's rope_min_base: the share
// that holds per octave and the last failing base (every base above it holds, up to the scan's end).
//
// Not part of the build (docs/lab.md quotes its output); after a Release build in build/:
//   g++ -O2 -std=c++20 -I. bench/rope_islands.cpp build/libpeviz_core.a -o /tmp/rope_islands
//   /tmp/rope_islands 4096 64 && /tmp/rope_islands 32768 16      (context L, scan span as a factor)
// Each base is decided by a full walk of B(m) over m < L (core's first_negative_rope_bound), bases 0.05% apart.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/rope/rope_bounds.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: rope_islands L SPAN\n");
    return 2;
  }
  const int d = 128;
  const long long L = std::atoll(argv[1]);
  const double span = std::atof(argv[2]), step = 5e-4, octave_width = std::log(2.0);
  const auto smallest = peviz::rope_min_base(d, L);
  if (L < 2 || span <= 1 || !smallest) {
    std::fprintf(stderr, "rope_islands: no smallest base for L %lld (or SPAN <= 1)\n", L);
    return 1;
  }
  const double x0 = std::log(*smallest);
  std::printf("d %d, L %lld: Men's smallest base %.6g; bases %.2f%% apart up to %gx:\n", d, L, *smallest, 100 * step, span);
  double last_fail = 0;
  int octave = 0, walks = 0, holds = 0, edges = 0;
  bool previous = true;
  const auto start = std::chrono::steady_clock::now();
  const auto report = [&] {
    std::printf("  %.3g .. %.3g: %5.1f%% of the bases hold\n", std::exp(x0 + octave * octave_width),
                std::exp(x0 + (octave + 1) * octave_width), 100.0 * holds / walks);
  };
  for (double x = x0; x < x0 + std::log(span); x += step) {
    if (int((x - x0) / octave_width) != octave) {
      report();
      ++octave;
      walks = holds = 0;
    }
    const bool hold = !peviz::first_negative_rope_bound(d, std::exp(x), L - 1).has_value();
    ++walks;
    holds += hold;
    if (!hold) last_fail = std::exp(x);
    edges += hold != previous;
    previous = hold;
  }
  if (walks) report();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("  %d edges between holding and failing; the last failing base %.6g (%.2fx the smallest); %.1f s\n", edges,
              last_fail, last_fail / *smallest, seconds);
}
