#!/usr/bin/env bash
# Shows that the twin's parity rule (tests/twin/parity_test.py) catches a wrong formula: in a scratch clone of this
# checkout's HEAD, each mutation alone (a LayerNorm eps of 1e-4 for 1e-5, dropout's scale 1 / (1 - p) + 1e-3, an EMA
# decay of 0.9 read as 0.91; in the twin, then in peviz's engine), peviz rebuilt, parity_test.py run; prints its exit
# status, how many checks failed and the first of them. docs/lab-runs/twin/mutations.txt is its output.
# usage: tools/twin_mutations.sh [SCRATCH_DIR]      (default /tmp/peviz-mutations; needs torch, as ctest -R twin)
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-/tmp/peviz-mutations}"
rm -rf "$scratch" && git clone -q "$here" "$scratch" && cd "$scratch" || exit 1
export CCACHE_BASEDIR="$scratch"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPEVIZ_BUILD_GUI=OFF -DCMAKE_C_COMPILER_LAUNCHER=ccache \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null || exit 1
echo "mutations of $(git -C "$here" rev-parse --short HEAD), $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"

# mutate NAME FILE OLD NEW: every OLD in FILE replaced by NEW (there must be one), the rest of the tree as committed.
mutate() {
  echo "== mutation: $1 ($2: \"$3\" -> \"$4\")"
  git checkout -q -- .
  /usr/bin/python3 - "$2" "$3" "$4" <<'PY' || return
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
if old not in text:
    sys.exit(f"mutation not applied: {old!r} is not in {path}")
open(path, "w").write(text.replace(old, new))
PY
  cmake --build build -j2 --target peviz twin_dump >/dev/null 2>&1 || { echo "build failed"; return; }
  (cd build && /usr/bin/python3 ../tests/twin/parity_test.py --peviz ./peviz --dump tests/twin_dump \
     --assets ../assets/lab >"../parity-$1.log" 2>&1; echo "parity_test.py exit $?")
  echo "FAIL lines: $(grep -c '^FAIL:' "parity-$1.log")"
  grep '^FAIL:' "parity-$1.log" | head -4
}

mutate twin-layernorm-eps core/train/twin/lab.py ", 1e-5)" ", 1e-4)"
mutate twin-dropout-scale core/train/twin/lab_data.py "1.0 / (1.0 - p)  # llround" "1.0 / (1.0 - p) + 1e-3  # llround"
mutate twin-ema-decay core/train/twin/lab.py 'decay = cfg.get("ema_decay", 0)' \
  'decay = cfg.get("ema_decay", 0) and cfg["ema_decay"] + 0.01'
mutate peviz-layernorm-eps core/train/layers.cpp "constexpr T eps = T(1e-5);" "constexpr T eps = T(1e-4);"
mutate peviz-dropout-scale core/train/dropout.hpp ".scale = 1.0 / (1.0 - p)}" ".scale = 1.0 / (1.0 - p) + 1e-3}"
mutate peviz-ema-decay core/train/adamw.cpp "const T d = T(decay), c = T(1.0 - decay);" \
  "const T d = T(decay + 0.01), c = T(1.0 - (decay + 0.01));"
git checkout -q -- .
