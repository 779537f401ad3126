#!/usr/bin/env bash
# Builds attnviz, starts it under Xvfb on the default sample model (or MODEL) with its example sentence, and saves
# the window after the first decode (the app's own --screenshot, which grabs the window with QWidget::grab) to
# docs/screenshot.png (or OUT). Settings go to a throw-away folder: your own are never read or written.
#   scripts/screenshot.sh [OUT] [extra attnviz arguments, e.g. MODEL --sentence "..." --step 3]
# BUILD_DIR (default build/release) picks the build tree; it is configured with the release preset when missing.
# SCREEN (default 1600x1000x24) sizes Xvfb's screen: e.g. SCREEN=3000x2000x24 QT_SCALE_FACTOR=2 for a 200 % shot.
# Language and theme: LANG=zh_CN.UTF-8 (the system locale) or the app's own --language zh_CN / --theme dark.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screenshot.png}
shift || true
build=${BUILD_DIR:-build/release}
if [ ! -f "$build/CMakeCache.txt" ]; then
  if [ "$build" = build/release ]; then cmake --preset release >/dev/null
  else cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null; fi
fi
cmake --build "$build" --target attnviz -j 2 >/dev/null

config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
mkdir -p "$(dirname "$out")"
tmp_png="$config/shot.png"
XDG_CONFIG_HOME="$config" xvfb-run -a -s "-screen 0 ${SCREEN:-1600x1000x24}" \
  "$build/app/attnviz" --screenshot "$tmp_png" "$@"

# Keep the committed picture small (< 500 KB): strip metadata, recompress; reduce colours only if still too big.
convert "$tmp_png" -strip -define png:compression-level=9 "$out"
if [ "$(stat -c %s "$out")" -gt 500000 ]; then
  convert "$tmp_png" -strip -colors 255 -define png:compression-level=9 "$out"
fi
echo "wrote $out ($(identify -format '%wx%h' "$out"), $(( $(stat -c %s "$out") / 1024 )) KB)"
