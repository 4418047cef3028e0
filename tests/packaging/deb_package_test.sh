#!/usr/bin/env bash
# Builds the .deb with CPack, checks its metadata and contents, installs it into a scratch root and runs it.
# usage: deb_package_test.sh BUILD_DIR
set -euo pipefail
BUILD_DIR="$1"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$BUILD_DIR" && cpack -G DEB -B "$WORK/out" >"$WORK/cpack.log" 2>&1) || { cat "$WORK/cpack.log"; fail "cpack"; }
DEB="$(ls "$WORK"/out/peviz_*_amd64.deb)"

INFO="$(dpkg-deb --info "$DEB")"
grep -q "Package: peviz" <<<"$INFO" || fail "package name"
DEPENDS="$(dpkg-deb --field "$DEB" Depends)"
echo "Depends: $DEPENDS"
for dep in libc6 libstdc++6 libgl1 fonts-dejavu-core; do
  grep -q "$dep" <<<"$DEPENDS" || fail "Depends lacks $dep"
done
# The GUI links GLFW and GL: dpkg-shlibdeps must have found them.
grep -q "libglfw3" <<<"$DEPENDS" || fail "Depends lacks libglfw3"
# FFmpeg is loaded at run time (dlopen) for MP4s: named by hand, with its sonames' versions.
if "$BUILD_DIR/peviz" --help | grep -qE "^ +render"; then
  for dep in libavcodec libavformat libavutil libswscale; do
    grep -qE "$dep[0-9]+" <<<"$DEPENDS" || fail "Depends lacks $dep"
  done
fi

CONTENTS="$(dpkg-deb --contents "$DEB")"
for path in ./usr/bin/peviz ./usr/share/applications/peviz.desktop ./usr/share/icons/hicolor/scalable/apps/peviz.svg \
            ./usr/share/peviz/shaders/ ./usr/share/peviz/assets/fonts/ ./usr/share/peviz/assets/presets/mpt-7b.json \
            ./usr/share/peviz/assets/lessons/positional-encodings.json; do
  grep -q " $path" <<<"$CONTENTS" || fail "package lacks $path"
done
grep -q "\.glsl" <<<"$CONTENTS" || fail "package has no shaders"
grep -qi "\.ttf" <<<"$CONTENTS" || fail "package has no font"
grep -qi "licen" <<<"$CONTENTS" || fail "package has no font licence"

# Install into a scratch root and run the installed binary from there.
ROOT="$WORK/root"
dpkg-deb -x "$DEB" "$ROOT"
"$ROOT/usr/bin/peviz" --version | grep -q "^peviz " || fail "--version"
OUT="$("$ROOT/usr/bin/peviz" export encoding --d-model 2 --seq-len 2)"
[[ "$OUT" == $'dim_0,dim_1\n0,1\n0.84147096,0.5403023' ]] || fail "installed export printed: $OUT"
if "$ROOT/usr/bin/peviz" --help | grep -qE "^ +render"; then
  command -v xvfb-run >/dev/null || fail "xvfb-run missing"
  # The installed binary must find its shaders and fonts under <root>/usr/share/peviz, not the source tree.
  xvfb-run -a -s "-screen 0 1280x800x24" "$ROOT/usr/bin/peviz" render --view encoding --width 640 --height 400 \
    --out "$WORK/x.png" || fail "installed render"
  [[ -s "$WORK/x.png" ]] || fail "render wrote no PNG"
fi
echo "deb package test passed: $DEB"
