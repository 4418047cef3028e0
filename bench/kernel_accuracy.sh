#!/bin/sh
# The six-encoding default with OpenBLAS's own choice of kernels (what peviz ran before it named them itself), to set
# beside the run with peviz's choice in bench/step_profile.sh's output: other kernels round the products otherwise,
# so the final losses and accuracies move within the kernel-to-kernel spread (docs/lab-runs/twin/README.md).
# usage: bench/kernel_accuracy.sh [build/peviz] > out.txt   (about 10 minutes where OpenBLAS falls back to Prescott)
PEVIZ=${1:-build/peviz}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf 'int main() { return 0; }\n' > "$TMP/probe.c"
cc "$TMP/probe.c" -Wl,--no-as-needed $(pkg-config --libs openblas) -o "$TMP/probe" || exit 1
OWN=$(OPENBLAS_VERBOSE=2 "$TMP/probe" 2>&1 | sed -n 's/^Core: //p' | head -1)
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')" \
  "model $(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== OPENBLAS_CORETYPE=$OWN peviz train --task copy --pe all --threads 2 --seed 0"
start=$(date +%s.%N)
OPENBLAS_CORETYPE=$OWN "$PEVIZ" train --task copy --pe all --threads 2 --seed 0 2>/dev/null | /usr/bin/python3 -c "
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(f\"{r['pe']:11} {r['steps_per_s']:6.1f} steps/s  final loss {r['final_loss']:.3g}  exact match \" +
          ' '.join(f'{n}:{v}' for n, v in r['exact_match'].items()))"
echo "wall $(/usr/bin/python3 -c "print(round($(date +%s.%N) - $start, 1))") s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
