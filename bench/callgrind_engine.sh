#!/bin/sh
# The training engine's self instructions in a callgrind profile: repeatable under load, unlike a round of
# bench/step_ab.sh. The run's total, then the engine's and OpenBLAS's functions above 1 M instructions, names cut short.
# usage: bench/callgrind_engine.sh CALLGRIND_OUT, the profile made by e.g.
#   PEVIZ_SIMD=avx2 LIBXSMM_TARGET=hsw OPENBLAS_CORETYPE=Haswell valgrind --tool=callgrind --callgrind-out-file=X.out \
#     build/peviz train --pe rope --steps 4 --warmup 1 --test-samples 1 --test-max 5 --threads 1 --seed 3
callgrind_annotate --inclusive=no --threshold=100 "$1" | grep -E 'PROGRAM TOTALS|peviz::train|_ZZN5peviz5train|openblas' |
  sed -E 's/^ +//; s/ \( *[0-9.]+%\) +/ /; s/\?\?\?://; s/ *\[[^]]*\] *$//; s/peviz::train::|\(anonymous namespace\):://g' |
  sed -E 's/_ZZN5peviz5train7RangeFnC4IZNS0_12_GLOBAL__N_122for_each_sequence_headIZNS0_17attention_forward.*/attention_forward (its per-head lambda)/;
          s/attention_backward<float>\(.*\{lambda\(int.*/attention_backward (its per-head lambda)/;
          s/RangeFn::RangeFn<(void )?([a-z_]+)<float>.*\{lambda\(unsigned long, unsigned long\)#([0-9])\}.*/\2 (its lambda #\3)/;
          s/^([0-9,]+) ([a-z_]+)<([a-z_]+)\(.*/\1 \2 (in \3)/;
          s/^([0-9,]+) (void |double |unsigned long |float const\* |std::vector<float, std::allocator<float> > )?([A-Za-z_0-9:]+(<float>)?)\(.*/\1 \3/' |
  awk '{n = $1; gsub(",", "", n); if ($0 ~ /PROGRAM/ || n + 0 >= 1000000) print}'
