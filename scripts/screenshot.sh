#!/usr/bin/env bash
# Screenshots of attnviz under Xvfb, each the window saved after its first decode (the app's own --screenshot, which
# grabs the window with QWidget::grab). Settings go to a throw-away folder: your own are never read or written.
#   scripts/screenshot.sh [OUT] [attnviz arguments, e.g. MODEL --sentence "..." --step 3]   one picture (default
#                                                  docs/screenshot.png on the default sample model)
#   scripts/screenshot.sh --all                    every screenshot of docs/, from scripts/screenshots.txt
#   scripts/screenshot.sh --only docs/F.png        that one of them
#   scripts/screenshot.sh --list                   each file with the command that makes it
#   scripts/screenshot.sh --check                  each line's arguments checked by `attnviz --check` (no window;
#                                                  the CTest screenshot_commands), exit 1 naming the lines that fail
# A list line may hold several shots separated by --next, each with --crop and --caption TEXT, joined --tile CxR.
# A line whose arguments start with the word `cli` runs attnviz-cli instead (a `render`; the script adds --out).
# @toy@ is the PyTorch example's model (docs/pytorch.md), trained into the build tree by python/example_toy.py when
# missing, which needs PyTorch (apt-get install python3-torch); --check runs its lines on a stand-in sample model.
# BUILD_DIR (default build/release) picks the build tree; it is configured with the release preset when missing
# (--check only needs ATTNVIZ, the program to check with). SCREEN (default 1600x1000x24) sizes Xvfb's screen, as a
# list line may set it (with QT_SCALE_FACTOR=2 for a 200 % shot). Language and theme: LANG=zh_CN.UTF-8 (the system
# locale) or the app's own --language zh_CN / --theme dark.
set -euo pipefail
cd "$(dirname "$0")/.."
list=scripts/screenshots.txt
build=${BUILD_DIR:-build/release}

ensure_built() {
  if [ ! -f "$build/CMakeCache.txt" ]; then
    if [ "$build" = build/release ]; then cmake --preset release >/dev/null
    else cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null; fi
  fi
  cmake --build "$build" --target attnviz attnviz-cli -j 2 >/dev/null
}

toy=$build/toy.safetensors

# The PyTorch example's model, trained once into the build tree (400 steps, seeded: about a minute).
ensure_toy() {
  [ -f "$toy" ] && return 0
  /usr/bin/python3 -c 'import torch' 2>/dev/null ||
    { echo "screenshot.sh: @toy@ needs PyTorch (apt-get install python3-torch)" >&2; return 1; }
  /usr/bin/python3 python/example_toy.py --steps 400 --out "$toy" >/dev/null
}

# One attnviz-cli picture: OUT, then the CLI's arguments (a render; --out is added).
shoot_cli() {
  local out=$1
  shift
  if [[ " $* " == *" $toy "* ]]; then ensure_toy || return 1; fi
  local scratch
  scratch=$(mktemp -d)
  "$build/app/attnviz-cli" "$@" --out "$scratch/shot.png" >/dev/null || { rm -rf "$scratch"; return 1; }
  save_png "$scratch/shot.png" "$out"
  rm -rf "$scratch"
}

# An attnviz-cli line checked by running it into a scratch folder, the toy model replaced by a sample model where it
# has not been trained (the arguments are what is checked). ATTNVIZ_CLI defaults to the one beside ATTNVIZ.
check_cli() {
  local cli=${ATTNVIZ_CLI:-$(dirname "${ATTNVIZ:-$build/app/attnviz}")/attnviz-cli} args=() w scratch status=0
  for w in "$@"; do
    if [ "$w" = "$toy" ] && [ ! -f "$toy" ]; then args+=(sample_models/en_fr-bahdanau-additive.safetensors)
    else args+=("$w"); fi
  done
  scratch=$(mktemp -d)
  "$cli" "${args[@]}" --out "$scratch/check.png" >/dev/null || status=1
  rm -rf "$scratch"
  return $status
}

# One picture: OUT, the environment (VAR=VALUE words), the crop ("" for none), then attnviz's arguments.
shoot() {
  local out=$1 crop=$2
  shift 2
  local config
  config=$(mktemp -d)
  local env=() args=()
  for word in "$@"; do
    if [ ${#args[@]} -eq 0 ] && [[ $word =~ ^[A-Z_][A-Z0-9_]*= ]]; then env+=("$word"); else args+=("$word"); fi
  done
  local screen=${SCREEN:-1600x1000x24}
  for e in "${env[@]}"; do [[ $e == SCREEN=* ]] && screen=${e#SCREEN=}; done
  local tmp_png="$config/shot.png"
  # settings and the data folder (where a training writes its model) are the run's own
  env XDG_CONFIG_HOME="$config" XDG_DATA_HOME="$config/data" "${env[@]}" xvfb-run -a -s "-screen 0 $screen" \
    "$build/app/attnviz" --screenshot "$tmp_png" "${args[@]}" || { rm -rf "$config"; return 1; }
  [ -n "$crop" ] && convert "$tmp_png" -crop "$crop" +repage "$tmp_png"
  save_png "$tmp_png" "$out"
  rm -rf "$config"
}

# SRC written to OUT small (< 500 KB): metadata stripped, recompressed; colours reduced only if still too big.
save_png() {
  local src=$1 out=$2
  mkdir -p "$(dirname "$out")"
  convert "$src" -strip -define png:compression-level=9 "$out"
  if [ "$(stat -c %s "$out")" -gt 500000 ]; then
    convert "$src" -strip -colors 255 -define png:compression-level=9 "$out"
  fi
  echo "wrote $out ($(identify -format '%wx%h' "$out"), $(($(stat -c %s "$out") / 1024)) KB)"
}

# The lines of the list as "OUT<TAB>CROP<TAB>words..." made safe for `eval set --` (the list is the project's own).
each_line() {
  local filter=${1:-}
  while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    local out=${line%% *} rest=${line#* }
    [ -n "$filter" ] && [ "$out" != "$filter" ] && continue
    rest=${rest//@corpora@/${CORPORA:-$build/corpora}}
    rest=${rest//@toy@/$toy}
    printf '%s\t%s\n' "$out" "$rest"
  done <"$list"
}

# A line is one shot, or several separated by the word --next (a montage: each shot with its own --crop and
# --caption TEXT, written under it; --tile CxR lays them out). Runs `action` on each shot, then joins them.
run_line() {
  local action=$1 out=$2 rest=$3
  eval "set -- $rest"
  local tile="" shots=() group="" word
  for word in "$@"; do
    if [ "$word" = --next ]; then shots+=("$group"); group=""; else group+="$(printf '%q ' "$word")"; fi
  done
  shots+=("$group")
  local parts=() dir="" i=0 status=0
  [ ${#shots[@]} -gt 1 ] && [ "$action" = shoot ] && dir=$(mktemp -d)
  for group in "${shots[@]}"; do
    eval "set -- $group"
    local crop="" caption="" words=()
    while [ $# -gt 0 ]; do
      case $1 in
      --crop) crop=$2; shift 2 ;;
      --caption) caption=$2; shift 2 ;;
      --tile) tile=$2; shift 2 ;;
      *) words+=("$1"); shift ;;
      esac
    done
    local target=$out
    [ -n "$dir" ] && target=$dir/part$((i += 1)).png && parts+=("$target")
    case $action in
    shoot)
      if [ "${words[0]:-}" = cli ]; then shoot_cli "$target" "${words[@]:1}" || status=1
      else shoot "$target" "$crop" "${words[@]}" || status=1; fi
      [ -n "$caption" ] && [ $status = 0 ] && convert "$target" -background white -fill black -font DejaVu-Sans \
        -pointsize 26 label:"$caption" -gravity center -append "$target"
      ;;
    list)
      if [ "${words[0]:-}" = cli ]; then printf '%s: attnviz-cli ' "$out"; printf '%q ' "${words[@]:1}"
      else printf '%s: attnviz ' "$out"; printf '%q ' "${words[@]}"; fi
      echo "${crop:+(cropped to $crop)}${caption:+, captioned \"$caption\"}" ;;
    check)
      if [ "${words[0]:-}" = cli ]; then check_cli "${words[@]:1}" || status=1; continue; fi
      local args=()
      for w in "${words[@]}"; do [ ${#args[@]} -eq 0 ] && [[ $w =~ ^[A-Z_][A-Z0-9_]*= ]] || args+=("$w"); done
      "${ATTNVIZ:-$build/app/attnviz}" --check "${args[@]}" || status=1 ;;
    esac
  done
  if [ -n "$dir" ]; then
    [ $status = 0 ] && montage "${parts[@]}" -tile "${tile:-x1}" -geometry +8+8 -background white "$dir/all.png" &&
      save_png "$dir/all.png" "$out"
    rm -rf "$dir"
  fi
  return $status
}

case ${1:-} in
--all | --only)
  filter=""
  [ "$1" = --only ] && filter=${2:?--only wants a file of scripts/screenshots.txt}
  ensure_built
  found=0 failed=()
  while IFS=$'\t' read -r out rest; do
    found=1
    run_line shoot "$out" "$rest" || failed+=("$out")
  done < <(each_line "$filter")
  [ $found = 1 ] || { echo "screenshot.sh: $filter is not in $list" >&2; exit 2; }
  [ ${#failed[@]} -eq 0 ] || { echo "screenshot.sh: failed: ${failed[*]}" >&2; exit 1; }
  ;;
--list)
  while IFS=$'\t' read -r out rest; do run_line list "$out" "$rest"; done < <(each_line)
  ;;
--check)
  failed=() missing=()
  while IFS=$'\t' read -r out rest; do
    run_line check "$out" "$rest" || failed+=("$out")
  done < <(each_line)
  # The pictures the docs show that the list does not make yet (made by hand: named, not failed).
  for png in $(grep -oh 'docs/[A-Za-z0-9_-]*\.png\|([a-z0-9_-]*\.png)' README.md docs/*.md | tr -d '()' |
    sed 's|^\([a-z0-9_-]*\.png\)$|docs/\1|' | sort -u); do
    grep -q "^$png " "$list" || [ ! -f "$png" ] || missing+=("$png")
  done
  [ ${#missing[@]} -eq 0 ] || echo "screenshot.sh: not in $list yet: ${missing[*]}"
  [ ${#failed[@]} -eq 0 ] || { echo "screenshot.sh: these commands no longer run: ${failed[*]}" >&2; exit 1; }
  echo "screenshot.sh: $(each_line | wc -l) screenshot commands check"
  ;;
*)
  out=${1:-docs/screenshot.png}
  shift || true
  ensure_built
  shoot "$out" "" "$@"
  ;;
esac
