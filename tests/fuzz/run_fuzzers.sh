#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD_DIR for SECONDS each on a copy of its seed corpus; any crash fails.
# usage: run_fuzzers.sh BUILD_DIR SECONDS
set -euo pipefail
BUILD_DIR="$(cd "$1" && pwd)"
SECONDS_EACH="${2:-30}"
SRC="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
status=0
for target in "$BUILD_DIR"/*_fuzz; do
  name="$(basename "$target" _fuzz)"
  corpus="$WORK/$name"
  mkdir -p "$corpus"
  [[ -d "$SRC/tests/corpus/$name" ]] && cp "$SRC/tests/corpus/$name"/* "$corpus"/
  log="$WORK/$name.log"
  if (cd "$WORK" && "$target" -close_fd_mask=3 -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=4096 \
        -max_len=8192 "$corpus" >"$log" 2>&1); then
    runs="$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' || echo '?')"
    echo "fuzz $name: $runs executions in ${SECONDS_EACH} s, no crash"
  else
    echo "fuzz $name: FAILED"
    tail -40 "$log"
    status=1
  fi
done
exit $status
