#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: install what is missing, build, then run the app or the tests.
#   ./setup.sh run    install, build (Release) and start the peviz window
#   ./setup.sh test   install, build (Release) and run the whole test suite with ctest, a long
#                     random-input run of the window (peviz --monkey), the suite again under ASan+UBSan
#                     (build-asan/) and every libFuzzer target for 30 s (build-fuzz/). PEVIZ_QUICK=1
#                     stops after the first ctest.
#   ./setup.sh web    install, build the browser app with em++ into build-web/site/ and serve it at
#                     http://127.0.0.1:8080/ with the headers that give it threads (tools/web/serve.py;
#                     PEVIZ_WEB_PORT picks the port; --build-only only builds)
set -euo pipefail

cd "$(dirname "$0")"
MODE="${1:-run}"
BUILD_DIR="${PEVIZ_BUILD_DIR:-build}"

# Debian packages peviz needs to build, test and run (headless tests use Xvfb).
PACKAGES=(build-essential cmake pkg-config libimgui-dev libglfw3-dev python3-glad catch2 libstb-dev
          libcli11-dev nlohmann-json3-dev libpng-dev fonts-dejavu-core xvfb xauth python3-numpy
          clang libclang-rt-14-dev dpkg-dev libopenblas-dev libxsmm-dev ccache
          libcairo2-dev libgif-dev libavcodec-dev libavformat-dev libswscale-dev libavutil-dev
          poppler-utils librsvg2-bin)
# (the last two lines: vector figures and animations; poppler-utils and librsvg2-bin only for tests)
# The lab's PyTorch twin is checked against the engine by tests/twin (they skip without torch); `run` never needs it.
# The browser build: em++ (Debian's emscripten), header-only Eigen for the lab's products; ImGui, zlib and libpng
# come from Debian's source packages (tools/web/fetch_sources.sh); fontTools cuts the page's font to the window's
# glyphs (tools/web/subset_font.py). Its test drives Debian's chromium.
WEB_PACKAGES=(emscripten cmake dpkg-dev libeigen3-dev nlohmann-json3-dev libcli11-dev python3-fonttools)
if [[ "$MODE" == test ]]; then
  PACKAGES+=(python3-torch "${WEB_PACKAGES[@]}" chromium)
  # npm installs the browser test's puppeteer-core; a node from elsewhere (NodeSource) brings its own npm,
  # which Debian's npm package conflicts with.
  command -v npm >/dev/null || PACKAGES+=(npm)
elif [[ "$MODE" == web ]]; then
  PACKAGES=("${WEB_PACKAGES[@]}")
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    echo "setup: missing packages; run this as root, then run me again:"
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
    exit 1
  fi
fi

JOBS="$(nproc 2>/dev/null || echo 2)"
# Every build compiles through Debian's ccache. Its key is the compiler (path, size and mtime), every argument and the
# preprocessed source (every header's text included), so an edit anywhere a file reaches is a miss, never a stale hit.
# CCACHE_BASEDIR makes the absolute paths under this checkout relative before they are hashed or compiled, and the
# build maps the debug info's folder to "." (-fdebug-prefix-map, CMakeLists.txt), so a clone in another folder hits
# what this one compiled. No other build folder's path reaches an object: the few that a program needs are defined in
# one generated file each (tests/build_paths.hpp, app/model/data_files.cpp).
CACHE_FLAGS=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
  CACHE_FLAGS=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# "setup: <stage> took N s" after each stage of a test run, so a CI log shows where its time goes.
# A build stage's line adds what the compiler cache served: "(ccache: H hits, M compiled)".
STAGE_START=$SECONDS
cache_counts() {
  command -v ccache >/dev/null || return 0
  ccache --print-stats | awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
                              $1 == "cache_miss" { m += $2 } END { print h + 0, m + 0 }'
}
read -r CACHE_HITS CACHE_MISSES _ <<<"$(cache_counts) 0 0"
stage_done() {
  local cache="" hits misses
  if command -v ccache >/dev/null; then
    read -r hits misses <<<"$(cache_counts)"
    ((hits + misses > CACHE_HITS + CACHE_MISSES)) &&
      cache=" (ccache: $((hits - CACHE_HITS)) hits, $((misses - CACHE_MISSES)) compiled)"
    CACHE_HITS=$hits CACHE_MISSES=$misses
  fi
  echo "setup: $1 took $((SECONDS - STAGE_START)) s (total $SECONDS s)$cache"
  STAGE_START=$SECONDS
}
# The browser build into build-web/ (PEVIZ_WEB_DIR), its page in build-web/site/: the one-thread build (peviz.js)
# and, from build-web/threads/, the threaded one (peviz-threads.js) that the page loads where it is cross-origin
# isolated.
build_web() {
  local dir="${PEVIZ_WEB_DIR:-build-web}"
  bash tools/web/fetch_sources.sh "$dir/src"
  # emcc's JavaScript optimiser needs Debian's node modules (acorn), whichever node is first on the PATH.
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
  emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPEVIZ_BUILD_TESTS=OFF "${CACHE_FLAGS[@]}" >/dev/null
  cmake --build "$dir" -j "$JOBS"
  emcmake cmake -S . -B "$dir/threads" -DCMAKE_BUILD_TYPE=Release -DPEVIZ_BUILD_TESTS=OFF -DPEVIZ_WEB_THREADS=ON \
    -DPEVIZ_WEB_SOURCES="$PWD/$dir/src" -DPEVIZ_WEB_SITE="$PWD/$dir/site" "${CACHE_FLAGS[@]}" >/dev/null
  cmake --build "$dir/threads" -j "$JOBS" --target peviz_web
  local raw gz name files
  raw="$(du -sk "$dir/site" | cut -f1)"
  echo "setup: web: $dir/site is $((raw / 1024)) MiB in all"
  for name in peviz peviz-threads; do
    files=(index.html peviz-page.js "$name.js" "$name.wasm" "$name.data")
    [[ $name == peviz-threads ]] && files+=("$name.worker.js")
    gz="$(cd "$dir/site" && for f in "${files[@]}"; do gzip -9c "$f"; done | wc -c)"
    echo "setup: web: the first view downloads $((gz / 1024)) KiB gzip with $name.js"
  done
}
# One random-input run of the window (peviz --monkey FRAMES SEED) under its own Xvfb (the first free display from
# DISPLAY_FROM on, so runs started together never race for one), in a scratch configuration (never the user's session
# or presets); exits 1 when it fails.
run_monkey() {
  local frames="$1" seed="$2" display_from="$3" config code
  echo "== peviz --frames $frames --monkey $seed =="
  config="$(mktemp -d)"
  # peviz's own exit code, written from inside: xvfb-run turns a failed clean-up of its own into 5.
  XDG_CONFIG_HOME="$config" xvfb-run -a -n "$display_from" -s "-screen 0 1920x1080x24" \
    sh -c '"$@"; echo $? >"$XDG_CONFIG_HOME/code"' sh "$BUILD_DIR/peviz" --frames "$frames" --monkey "$seed" --reset \
    --size 1600x900 || true
  code="$(cat "$config/code" 2>/dev/null || echo "none")"
  rm -rf "$config"
  [[ "$code" == 0 ]] || { echo "setup: the monkey run with seed $seed failed (exit $code)" >&2; exit 1; }
}
# The random-input test over every page, long, started in the background (each run is one process on about one core,
# so they share the cores with the browser build instead of waiting for it); wait_monkeys prints their lines and exits 1
# if any state check failed. Three fixed seeds share the frames, so a failure is reproducible; PEVIZ_MONKEY_SEEDS picks
# others (any number).
start_monkeys() {
  local frames="${PEVIZ_MONKEY_FRAMES:-12000}" seeds i=0  # in all; timings: docs/testing.md#random-input-test---monkey
  read -r -a seeds <<<"${PEVIZ_MONKEY_SEEDS:-20261123 104729 31337}"
  MONKEY_LOGS="$(mktemp -d)"
  MONKEY_PIDS=()
  for seed in "${seeds[@]}"; do
    run_monkey "$((frames / ${#seeds[@]}))" "$seed" "$((300 + 20 * i))" >"$MONKEY_LOGS/$i.log" 2>&1 &
    MONKEY_PIDS+=("$!")
    i=$((i + 1))
  done
}
wait_monkeys() {
  local failed=0 i
  for i in "${!MONKEY_PIDS[@]}"; do
    wait "${MONKEY_PIDS[$i]}" || failed=1
    cat "$MONKEY_LOGS/$i.log"
  done
  rm -rf "$MONKEY_LOGS"
  ((failed == 0)) || exit 1
}
if [[ "$MODE" == web ]]; then
  build_web
  [[ "${2:-}" == --build-only ]] && exit 0
  PORT="${PEVIZ_WEB_PORT:-8080}"
  echo "setup: web: serving build-web/site at http://127.0.0.1:$PORT/, cross-origin isolated (Ctrl+C stops)"
  exec python3 tools/web/serve.py --port "$PORT" "${PEVIZ_WEB_DIR:-build-web}/site"
fi
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${CACHE_FLAGS[@]}"
# run builds what the window needs (the peviz binary); test builds everything, the test programs too.
if [[ "$MODE" == run ]]; then
  cmake --build "$BUILD_DIR" -j "$JOBS" --target peviz
else
  cmake --build "$BUILD_DIR" -j "$JOBS"
  stage_done "the install and the Release build"
fi

case "$MODE" in
  run)  exec "$BUILD_DIR/peviz" "${@:2}" ;;
  test)
    # The browser build and what its test drives chromium with (tests/web/package-lock.json), before ctest; the
    # random-input runs beside it (not during ctest, whose browser and window tests wait on real time).
    [[ "${PEVIZ_QUICK:-0}" == 1 ]] || start_monkeys
    build_web
    (cd tests/web && npm ci --no-audit --no-fund --loglevel=error)
    [[ "${PEVIZ_QUICK:-0}" == 1 ]] || wait_monkeys
    stage_done "the browser build and the random-input runs"
    (cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS")
    stage_done "the test suite"
    [[ "${PEVIZ_QUICK:-0}" == 1 ]] && exit 0
    echo "== the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer =="
    cmake -S . -B "$BUILD_DIR-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPEVIZ_SANITIZE=ON "${CACHE_FLAGS[@]}"
    cmake --build "$BUILD_DIR-asan" -j "$JOBS"
    stage_done "the sanitizer build"
    # Leaks inside Mesa's software GL driver are not ours: see tests/lsan.supp. The browser test runs in the first
    # ctest only: its wasm is not instrumented, and the window it compares with is app_tests' under ASan here. So do
    # the forced-AVX2 and ATen-capability reruns (*_avx2, *_aten_*): they check bits across instruction sets, and
    # the code they run is run here natively, peviz's AVX2 kernels by the tests that compare every path. And so does
    # twin_parity (263 s here, nearly all of it PyTorch's): the instrumented twin_dump and peviz it starts run here in
    # twin_table (every encoding and task) and twin_distributed.
    SUPP="$(pwd)/tests/lsan.supp"
    (cd "$BUILD_DIR-asan" && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$SUPP" \
       UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j "$JOBS" \
       -E "deb_package|web_browser|web_serve|_avx2$|_aten_|^twin_parity$")
    stage_done "the suite under the sanitizers"
    echo "== libFuzzer targets, ${PEVIZ_FUZZ_SECONDS:-30} s each =="
    CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR-fuzz" -DCMAKE_BUILD_TYPE=Release -DPEVIZ_BUILD_GUI=OFF \
      -DPEVIZ_BUILD_TESTS=OFF -DPEVIZ_FUZZ=ON "${CACHE_FLAGS[@]}"
    cmake --build "$BUILD_DIR-fuzz" -j "$JOBS"
    stage_done "the fuzzer build"
    bash tests/fuzz/run_fuzzers.sh "$BUILD_DIR-fuzz" "${PEVIZ_FUZZ_SECONDS:-30}"
    stage_done "the fuzzers"
    if command -v ccache >/dev/null; then echo "== the compiler cache =="; ccache -s; fi
    ;;
  *)    echo "usage: ./setup.sh run|test|web [--build-only]" >&2; exit 2 ;;
esac
