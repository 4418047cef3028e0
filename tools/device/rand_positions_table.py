"""The table of tools/device/rand_positions_proto.py's JSON lines: exact match per method, range L, steps and
evaluation positions, min-max over the seeds. usage: python3 tools/device/rand_positions_table.py FILE.jsonl ..."""
import collections
import json
import sys


def main(paths):
    rows = [json.loads(line) for path in paths for line in open(path) if line.startswith("{")]
    groups = collections.OrderedDict()
    for r in rows:
        groups.setdefault((r["method"], r["L"], r["steps"]), []).append(r)
    print("method        L    steps  seeds  eval          n=10       n=20       n=25       n=30       n=35       n=40"
          "   (exact match, min-max over seeds)")
    for (method, span, steps), runs in groups.items():
        for ev in ("plain", "sampled"):
            if runs[0][ev] is None:
                continue
            cells = []
            for n in ("10", "20", "25", "30", "35", "40"):
                v = [r[ev][n] for r in runs]
                cells.append(f"{min(v):.2f}-{max(v):.2f}" if min(v) != max(v) else f"{v[0]:.2f}")
            seeds = ",".join(str(r["seed"]) for r in runs)
            print(f"{method:12}  {str(span or '-'):4} {steps:5}  {seeds:5}  {ev:8}  " + "  ".join(f"{c:>9}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
