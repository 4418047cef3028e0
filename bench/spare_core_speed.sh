#!/bin/sh
# One lab run on one thread against the same run on two (the idle worker lends its core), alternating.
# usage: bench/spare_core_speed.sh [build/peviz] [steps]   (prints date, load, one line per measurement;
# the final losses of both must be equal to the bit: the split changes no result)
PEVIZ=${1:-build/peviz}
STEPS=${2:-600}
date -u; uptime
for pe in rope t5 nope; do
  for round in 1 2; do
    for threads in 1 2; do
      "$PEVIZ" train --pe $pe --steps $STEPS --test-samples 1 --test-max 5 --threads $threads |
        /usr/bin/python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print('%-5s threads %d  steps/s %6.2f  final loss %r' % (r['pe'], $threads, r['steps_per_s'], r['final_loss']))"
    done
  done
done
uptime
