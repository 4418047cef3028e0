#!/bin/sh
# Which kernels Debian's OpenBLAS runs on this CPU, and what the training step gains from the right ones: the engine's
# matrix shapes (bench/gemm_shapes.cpp) and `peviz train` with OpenBLAS's own choice against OPENBLAS_CORETYPE=SkylakeX,
# alternating, one thread, beside PyTorch (bench/torch_peer.py).
# usage: bench/openblas_kernels.sh [build/peviz] > out.txt   (about 4 minutes; needs libxsmm-dev, libdnnl-dev, libeigen3-dev)
PEVIZ=${1:-build/peviz}
HERE=$(dirname "$0")
g++ -O3 -DNDEBUG -std=c++20 -march=native -I/usr/include/eigen3 $(pkg-config --cflags openblas) "$HERE/gemm_shapes.cpp" \
  $(pkg-config --libs openblas) -lxsmm -ldnnl -o /tmp/gemm_shapes || exit 1
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
  "family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') model $(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== OpenBLAS's own choice of kernels: $(OPENBLAS_VERBOSE=2 /tmp/gemm_shapes 2>&1 >/dev/null | head -1)"
echo "== the engine's shapes, OpenBLAS's own choice"
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 /tmp/gemm_shapes
echo "== the engine's shapes, OPENBLAS_CORETYPE=SkylakeX"
OPENBLAS_CORETYPE=SkylakeX OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 /tmp/gemm_shapes
echo "== peviz train --pe rope --steps 300 --threads 1, steps/s, alternating"
for round in 1 2 3; do
  for kernels in own SkylakeX; do
    if [ $kernels = own ]; then r=$("$PEVIZ" train --pe rope --steps 300 --test-samples 1 --test-max 5 --threads 1)
    else r=$(OPENBLAS_CORETYPE=SkylakeX "$PEVIZ" train --pe rope --steps 300 --test-samples 1 --test-max 5 --threads 1); fi
    echo "$r" | /usr/bin/python3 -c "import json,sys; r=json.load(sys.stdin); print('$kernels', round(r['steps_per_s'], 1))"
  done
done
echo "== PyTorch, the same model (bench/torch_peer.py --pe rope --steps 300)"
OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$HERE/torch_peer.py" --pe rope --steps 300
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
