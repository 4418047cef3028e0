#!/usr/bin/env bash
# The browser build's engine against the native one, side by side in one run, one thread each: the table and
# the cosine similarity (`peviz bench`), then 300 lab training steps at the default (`peviz train`). The wasm
# side is build-web/peviz.js (the command line compiled by em++, `./setup.sh web --build-only`) run by node.
#   bash bench/web_vs_native.sh [build] [build-web]
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE="${1:-build}/peviz"
WASM=(node --no-experimental-fetch "${2:-build-web}/peviz.js")  # node 18+'s fetch cannot read the .wasm from a path
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); node $(node --version)"
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
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
