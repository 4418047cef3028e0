#!/bin/sh
# Two builds of peviz, one training step speed each, alternating in one run (an engine change against its parent:
# these hosts' speed swings within minutes, so only side-by-side rounds compare). One thread, the default model.
# Many short rounds and the median of their ratios: one round's ratio can swing by 30% here.
# A change of a few percent hides in that swing: with PERF_PATTERN set (a grep -E pattern of function names), each
# build is also profiled (perf record, one run each) and the self-time shares of the matching functions printed,
# which a uniform slowdown of the host does not move.
# With TORCH=1 each round also times PyTorch 1.13 on the same model (bench/torch_peer.py, one thread, the same
# steps) after the two builds, and prints each build against it. The environment reaches all three, so
# PEVIZ_SIMD=avx2 LIBXSMM_TARGET=hsw OPENBLAS_CORETYPE=Haswell times what an AVX2 host without AVX-512 runs.
# TRAIN_FLAGS adds options to every peviz run (e.g. "--dropout 0.1"; not to PyTorch's).
# usage: [PERF_PATTERN=...] [TORCH=1] [TRAIN_FLAGS=...] bench/step_ab.sh BEFORE_PEVIZ AFTER_PEVIZ [PE] [ROUNDS] [STEPS] > out.txt
#        (about 8 s a round at the default, 25 s with TORCH=1; the profiles need linux-perf, TORCH python3-torch)
BEFORE=$1
AFTER=$2
PE=${3:-rope}
ROUNDS=${4:-11}
STEPS=${5:-150}
[ -x "$BEFORE" ] && [ -x "$AFTER" ] || { echo "usage: bench/step_ab.sh BEFORE_PEVIZ AFTER_PEVIZ [PE] [ROUNDS]" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
steps_per_s() { /usr/bin/python3 -c "import json,sys; print(round(json.load(sys.stdin)['steps_per_s'], 2))"; }
run() { "$1" train --pe "$PE" --steps "$STEPS" --test-samples 1 --test-max 5 --threads 1 $TRAIN_FLAGS | steps_per_s; }
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== environment: PEVIZ_SIMD=${PEVIZ_SIMD:-} LIBXSMM_TARGET=${LIBXSMM_TARGET:-} OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-}"
echo "== $PE, $STEPS steps, one thread${TRAIN_FLAGS:+, $TRAIN_FLAGS}; before: $BEFORE ($("$BEFORE" --version 2>/dev/null | head -1)); after: $AFTER ($("$AFTER" --version 2>/dev/null | head -1))"
round=1
while [ "$round" -le "$ROUNDS" ]; do
  b=$(run "$BEFORE")
  a=$(run "$AFTER")
  t=0
  [ -n "$TORCH" ] && t=$(OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$(dirname "$0")/torch_peer.py" --pe "$PE" --steps "$STEPS" |
    steps_per_s)
  /usr/bin/python3 -c "b, a, t = $b, $a, $t
peer = f'; PyTorch {t} steps/s, before {b / t:.2f}x, after {a / t:.2f}x' if t else ''
print(f'round $round: before {b} steps/s, after {a} steps/s{peer}, after / before {a / b:.3f}')"
  round=$((round + 1))
done | tee "$TMP/rounds"
/usr/bin/python3 -c "import statistics, sys
r = sorted(float(l.split()[-1]) for l in open('$TMP/rounds'))
print(f'median after / before {statistics.median(r):.3f} over {len(r)} rounds (lowest {r[0]:.3f}, highest {r[-1]:.3f})')"
if [ -n "$PERF_PATTERN" ]; then
  for build in before after; do
    [ "$build" = before ] && peviz=$BEFORE || peviz=$AFTER
    echo "== $build: perf record of $PE, 300 steps, one thread (self time of the functions matching $PERF_PATTERN)"
    perf record -q -o "$TMP/$build.data" "$peviz" train --pe "$PE" --steps 300 --test-samples 1 --test-max 5 \
      --threads 1 > /dev/null 2>&1
    perf report -i "$TMP/$build.data" --no-children --stdio 2>/dev/null | grep -v '^#' | grep -E "$PERF_PATTERN" |
      sed 's/  */ /g' | cut -c1-140
  done
fi
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
