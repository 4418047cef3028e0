#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: install what is missing, build, then run the app or the tests.
#   ./setup.sh run    install, build (Release) and start the peviz window
#   ./setup.sh test   install, build (Release) and run the whole test suite with ctest
set -euo pipefail

cd "$(dirname "$0")"
MODE="${1:-run}"
BUILD_DIR="${PEVIZ_BUILD_DIR:-build}"

# Debian packages peviz needs to build, test and run (headless tests use Xvfb).
PACKAGES=(build-essential cmake pkg-config libimgui-dev libglfw3-dev python3-glad catch2 libstb-dev
          libcli11-dev nlohmann-json3-dev libpng-dev fonts-dejavu-core xvfb xauth python3-numpy)

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
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "$JOBS"

case "$MODE" in
  run)  exec "$BUILD_DIR/peviz" "${@:2}" ;;
  test) cd "$BUILD_DIR" && exec ctest --output-on-failure -j "$JOBS" ;;
  *)    echo "usage: ./setup.sh run|test" >&2; exit 2 ;;
esac
