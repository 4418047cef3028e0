#!/bin/sh
# The classroom screenshots of docs/img/classroom: Basics and every lesson step in presentation mode at
# 1280 x 720 and 1920 x 1080 (the screen is the size: presentation mode is full screen), every page in the
# window at 1280 x 720. usage: tools/classroom_screenshots.sh [build/peviz] [out-dir]
PEVIZ=${1:-build/peviz}
OUT=${2:-docs/img/classroom}
STEPS=$(/usr/bin/python3 -c "import json; print(len(json.load(open('assets/lessons/positional-encodings.json'))['steps']))")
mkdir -p "$OUT"
shot() {  # screen WxH, window WxH, file, peviz flags...
  screen=$1 size=$2 file=$3; shift 3
  XDG_CONFIG_HOME=$(mktemp -d) xvfb-run -a -s "-screen 0 ${screen}x24" "$PEVIZ" --reset --hide-pointer --size "$size" \
    --frames 20 --screenshot "$OUT/$file" "$@" > /dev/null || echo "failed: $file" >&2
}
for screen in 1280x720 1920x1080; do
  shot $screen $screen present-$screen-basics.png --present --view basics
  step=1
  while [ $step -le "$STEPS" ]; do
    shot $screen $screen present-$screen-step$step.png --present --lesson positional-encodings --lesson-step $step
    step=$((step + 1))
  done
done
for page in basics rope-clocks rope-decay context-extension alibi t5-shaw distance linear-shift criteria learned precision lab; do
  shot 1920x1080 1280x720 window-1280x720-$page.png --view $page
done
# Palette-quantised (about a third of the bytes) when pngquant is installed (apt-get install pngquant).
if command -v pngquant > /dev/null; then pngquant --quality 80-95 --speed 1 --force --ext .png "$OUT"/*.png; fi
