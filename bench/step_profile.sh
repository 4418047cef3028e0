#!/bin/sh
# The training step against the machine's limit, in one run: the single-thread SGEMM peak, peviz train's steps/s and
# GFLOP/s (bench/train_flops.py) beside PyTorch with OpenBLAS's own kernels and with the same kernels as peviz's,
# where the step's time goes (perf, by function), and the six-encoding default's wall time.
# usage: bench/step_profile.sh [build/peviz] > out.txt   (about 8 minutes; needs linux-perf, python3-torch)
PEVIZ=${1:-build/peviz}
HERE=$(dirname "$0")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# peviz names OpenBLAS's kernels from the instruction set (core/train/gemm.cpp); the peak and PyTorch get the same name.
KERNELS=$(grep -qw avx512f /proc/cpuinfo && echo SkylakeX || echo Haswell)
g++ -O3 -DNDEBUG -std=c++20 $(pkg-config --cflags openblas) "$HERE/sgemm_peak.cpp" $(pkg-config --libs openblas) \
  -o "$TMP/sgemm_peak" || exit 1
steps_per_s() { /usr/bin/python3 -c "import json,sys; print(round(json.load(sys.stdin)['steps_per_s'], 2))"; }
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
  "family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') model $(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== kernels: OPENBLAS_CORETYPE=$KERNELS (peviz's choice); OpenBLAS's own: $(OPENBLAS_VERBOSE=2 "$TMP/sgemm_peak" 2>&1 >/dev/null | head -1)"
echo "== rope, 300 steps, one thread each, alternating: peviz, PyTorch (own kernels), PyTorch ($KERNELS), SGEMM peak"
for round in 1 2 3; do
  p=$("$PEVIZ" train --pe rope --steps 300 --test-samples 1 --test-max 5 --threads 1 | steps_per_s)
  t=$(OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$HERE/torch_peer.py" --pe rope --steps 300 | steps_per_s)
  k=$(OPENBLAS_CORETYPE=$KERNELS OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$HERE/torch_peer.py" --pe rope --steps 300 | steps_per_s)
  peak=$(OPENBLAS_CORETYPE=$KERNELS OPENBLAS_NUM_THREADS=1 "$TMP/sgemm_peak" | sed -n 's/.*, \([0-9.]*\) GFLOP\/s.*/\1/p' | head -1)
  gflops=$(/usr/bin/python3 "$HERE/train_flops.py" --steps-per-s "$p" | sed -n 's/.*: \([0-9.]*\) GFLOP\/s/\1/p')
  /usr/bin/python3 -c "p, t, k, g, peak = $p, $t, $k, $gflops, $peak
print(f'round $round: peviz {p} steps/s = {g} GFLOP/s = {100 * g / peak:.0f}% of the peak {peak}; '
      f'PyTorch {t} (peviz {p / t:.2f}x), PyTorch with $KERNELS {k} (peviz {p / k:.2f}x)')"
done
/usr/bin/python3 "$HERE/train_flops.py" | head -1
echo "== where a step's time goes: perf record of peviz train --pe rope --steps 300 --threads 1 (self time, top 20)"
perf record -q -F 2000 -g -o "$TMP/perf.data" -- "$PEVIZ" train --pe rope --steps 300 --test-samples 1 --test-max 5 \
  --threads 1 > /dev/null 2>&1
perf report -q -i "$TMP/perf.data" --no-children --sort dso,symbol --percent-limit 0.8 -g none 2>/dev/null |
  sed 's/  */ /g' | head -20
echo "== the same profile by library (LIBXSMM's generated kernels are the [JIT] line)"
perf report -q -i "$TMP/perf.data" --no-children --sort dso -g none 2>/dev/null | sed 's/  */ /g' | head -6
echo "== the six-encoding default: peviz train --task copy --pe all --threads 2 --seed 0"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
"$PEVIZ" train --task copy --pe all --threads 2 --seed 0 | /usr/bin/python3 -c "
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(f\"{r['pe']:11} {r['steps_per_s']:6.1f} steps/s  final loss {r['final_loss']:.3g}  exact match \" +
          ' '.join(f'{n}:{v}' for n, v in r['exact_match'].items()))"
echo "wall $(/usr/bin/python3 -c "print(round($(date +%s.%N) - $start, 1))") s; SGEMM peak after it: $(OPENBLAS_CORETYPE=$KERNELS OPENBLAS_NUM_THREADS=1 "$TMP/sgemm_peak" | head -1)"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
