#!/usr/bin/env bash
# Writes peviz's mrope-positions rows for the cases tools/device/mrope_check.py compares with transformers.
# usage: tools/device/mrope_cases.sh PEVIZ > docs/model-config-runs/mrope-positions-peviz.json
set -euo pipefail
peviz="$1"
first=1
echo "["
for c in "1 2 3 2" "4 4 6 4" "3 5 2 1" "1 1 1 1" "6 3 7 5"; do
  read -r b h w a <<<"$c"
  rows="$("$peviz" export mrope-positions --text-before "$b" --grid-h "$h" --grid-w "$w" --text-after "$a" --format json)"
  [[ $first == 1 ]] || echo ","
  first=0
  printf '{"text_before": %s, "grid_h": %s, "grid_w": %s, "text_after": %s, "rows": %s}\n' "$b" "$h" "$w" "$a" \
    "$(echo "$rows" | /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); n=j["shape"][1]; d=j["data"]; print(json.dumps([d[i:i+n] for i in range(0,len(d),n)]))')"
done
echo "]"
