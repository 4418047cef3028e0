#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD_DIR for SECONDS each on a copy of its seed corpus; any crash fails.
# Targets run JOBS at a time (default 2, the machine's cores; each libFuzzer process is single-threaded).
# usage: run_fuzzers.sh BUILD_DIR SECONDS [JOBS]
set -euo pipefail
BUILD_DIR="$(cd "$1" && pwd)"
SECONDS_EACH="${2:-30}"
JOBS="${3:-2}"
SRC="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# One target on its corpus copy; prints its line, returns non-zero on a crash.
fuzz_one() {
  local target="$1" name corpus log
  name="$(basename "$target" _fuzz)"
  corpus="$WORK/$name"
  mkdir -p "$corpus"
  [[ -d "$SRC/tests/corpus/$name" ]] && cp "$SRC/tests/corpus/$name"/* "$corpus"/
  log="$WORK/$name.log"
  if (cd "$WORK" && "$target" -close_fd_mask=3 -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=4096 \
        -max_len=8192 "$corpus" >"$log" 2>&1); then
    echo "fuzz $name: $(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' || echo '?') executions in ${SECONDS_EACH} s, no crash"
  else
    echo "fuzz $name: FAILED"
    tail -40 "$log"
    return 1
  fi
}

status=0
pids=()
for target in "$BUILD_DIR"/*_fuzz; do
  fuzz_one "$target" > "$WORK/$(basename "$target").out" 2>&1 &
  pids+=("$!:$(basename "$target")")
  if (( ${#pids[@]} >= JOBS )); then
    for p in "${pids[@]}"; do wait "${p%%:*}" || status=1; cat "$WORK/${p#*:}.out"; done
    pids=()
  fi
done
for p in "${pids[@]}"; do wait "${p%%:*}" || status=1; cat "$WORK/${p#*:}.out"; done
exit $status
