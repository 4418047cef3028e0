#!/bin/sh
# Every benchmark docs/benchmarks.md quotes, in one run, each beside its peer: the load before and after each.
# usage: bench/all.sh [build/peviz] > bench.txt   (about 10 minutes; builds /tmp/sgemm_peak and /tmp/gemm_ceiling)
PEVIZ=${1:-build/peviz}
HERE=$(dirname "$0")
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
step() { echo; echo "== $*"; date -u; uptime; }

step "the table and the similarity, peviz bench against NumPy (OPENBLAS_NUM_THREADS=1), alternating"
for round in 1 2 3; do
  "$PEVIZ" bench
  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$HERE/numpy_peer.py"
done
uptime

step "a whole export process against the NumPy script, 4096 x 1024 cosine similarity, 5 pairs"
OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$HERE/numpy_peer.py" whole-process "$PEVIZ" 4096 1024 "$OUT" 5
echo '$ /usr/bin/time -f "%e s, %M KiB" peviz export similarity --metric cosine --seq-len 32768 --d-model 1024 --format npy --quiet'
/usr/bin/time -f "%e s, %M KiB" "$PEVIZ" export similarity --metric cosine --seq-len 32768 --d-model 1024 --format npy \
  --quiet --out "$OUT/big.npy"
rm -f "$OUT/big.npy"
uptime

step "training, one thread each, against PyTorch (bench/train_speed.sh 300, then bench/speed_pairs.py)"
"$HERE/train_speed.sh" "$PEVIZ" 300 > "$OUT/speed.txt"
cat "$OUT/speed.txt"
/usr/bin/python3 "$HERE/speed_pairs.py" "$OUT/speed.txt"

step "one lab run on one thread against two (bench/spare_core_speed.sh 600)"
"$HERE/spare_core_speed.sh" "$PEVIZ" 600

step "the lab's default: six encodings, one seed, two runs at a time"
/usr/bin/time -f "%e s wall, %U s user" "$PEVIZ" train --task copy --pe all --threads 2 --seed 0
uptime

step "the single-thread SGEMM peak, alone and two at once; the matrix products' ceiling of one lab step"
g++ -O3 -std=c++20 $(pkg-config --cflags openblas) "$HERE/sgemm_peak.cpp" $(pkg-config --libs openblas) -o /tmp/sgemm_peak
g++ -O2 -std=c++20 $(pkg-config --cflags openblas) "$HERE/gemm_ceiling.cpp" $(pkg-config --libs openblas) -o /tmp/gemm_ceiling
OPENBLAS_NUM_THREADS=1 /tmp/sgemm_peak
echo "two at once:"
OPENBLAS_NUM_THREADS=1 /tmp/sgemm_peak & OPENBLAS_NUM_THREADS=1 /tmp/sgemm_peak; wait
OPENBLAS_NUM_THREADS=1 /tmp/gemm_ceiling
uptime
