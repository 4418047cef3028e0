#!/bin/sh
# peviz train against bench/torch_peer.py, one thread each, alternating, same model/task/batch/optimizer.
# usage: bench/train_speed.sh [build/peviz] [steps]   (prints date, load, one JSON line per measurement)
# Both peers run their defaults: the lab's default model (core/base/limits.hpp, section "training").
PEVIZ=${1:-build/peviz}
STEPS=${2:-300}
date -u; uptime
for pe in rope t5 sinusoidal; do
  for round in 1 2; do
    "$PEVIZ" train --pe $pe --steps $STEPS --test-samples 1 --test-max 5 |
      /usr/bin/python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print(json.dumps({'peer': 'peviz', 'pe': r['pe'], 'steps_per_s': r['steps_per_s']}))"
    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$(dirname "$0")/torch_peer.py" --pe $pe --steps $STEPS
  done
done
uptime
