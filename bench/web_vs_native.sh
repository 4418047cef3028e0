#!/usr/bin/env bash
# The browser build's engine against the native one, side by side in one run, one thread each: the table and
# the cosine similarity (`peviz bench`), then 300 lab training steps at the default (`peviz train`). The wasm
# side is build-web/peviz.js (the command line compiled by em++, `./setup.sh web --build-only`) run by node.
# Then the Lab itself: the default experiment natively on every core (`peviz train --pe all`), and the browser
# Lab in headless chromium, one thread against threads (bench/web_lab_speed.js; PEVIZ_WEB_LAB_ARGS adds its flags,
# e.g. "--budget-s 600"; PEVIZ_WEB_LAB=0 skips this part).
#   bash bench/web_vs_native.sh [build] [build-web]
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE="${1:-build}/peviz"
WASM=(node --no-experimental-fetch "${2:-build-web}/peviz.js")  # node 18+'s fetch cannot read the .wasm from a path
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); node $(node --version)"
echo "== instruction sets: $(grep -m1 -o -w -E 'avx512f|avx2|sse4_2' /proc/cpuinfo | sort -u | xargs)"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for side in native wasm; do
  if [[ $side == native ]]; then cmd=("$NATIVE"); else cmd=("${WASM[@]}"); fi
  echo "== $side: peviz bench --threads 1 --reps 21"
  "${cmd[@]}" bench --threads 1 --reps 21
done
# The native build's narrower kernels, for the kernel the browser's wasm SIMD compares with.
for simd in avx2 baseline; do
  echo "== native: peviz bench --threads 1 --reps 21 --simd $simd"
  "$NATIVE" bench --threads 1 --reps 21 --simd "$simd" | tail -1
done
for side in native wasm; do
  if [[ $side == native ]]; then cmd=("$NATIVE"); else cmd=("${WASM[@]}"); fi
  echo "== $side: peviz train --task copy --pe rope --steps 300 --threads 1 (the default model; loss and speed)"
  start=$(date +%s.%N)
  "${cmd[@]}" train --task copy --pe rope --steps 300 --threads 1 2>/dev/null | tail -1 | cut -c1-400
  echo "wall $(echo "$(date +%s.%N) - $start" | bc) s"
done
if [[ "${PEVIZ_WEB_LAB:-1}" != 0 ]]; then
  echo "== native: peviz train --task copy --pe all --threads $(nproc) (the Lab's default experiment; load $(cut -d' ' -f1-3 /proc/loadavg))"
  start=$(date +%s.%N)
  "$NATIVE" train --task copy --pe all --threads "$(nproc)" 2>/dev/null | cut -c1-120
  echo "wall $(echo "$(date +%s.%N) - $start" | bc) s"
  echo "== browser: node bench/web_lab_speed.js ${PEVIZ_WEB_LAB_ARGS:-} (load $(cut -d' ' -f1-3 /proc/loadavg))"
  # shellcheck disable=SC2086  # the flags are words
  node bench/web_lab_speed.js --site "${2:-build-web}/site" ${PEVIZ_WEB_LAB_ARGS:-}
fi
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
