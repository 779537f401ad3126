#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and uses what was installed as a user would: the CLI on an
# installed sample model and corpus, the GUI's --help and --version with no display, the desktop entry, the AppStream
# metainfo, the man pages and the bash completion.
#   check_install.sh BUILD_DIR
set -euo pipefail
# A pipe into grep reads to the end (grep PATTERN >/dev/null, not grep -q): -q stops at the first match, and the
# writer then dies of SIGPIPE, which pipefail counts as the pipeline failing.
build=$1
# Under the build tree, whose disk the build already needed, not /tmp (which may be a small tmpfs).
prefix=$(mktemp -d "$build/install-check.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install: $*" >&2; exit 1; }

# Stripped, as a package installs them.
cmake --install "$build" --prefix "$prefix" --strip >/dev/null
cli="$prefix/bin/attnviz-cli"
gui="$prefix/bin/attnviz"
models="$prefix/share/attnviz/sample_models"
[ -x "$cli" ] || fail "no bin/attnviz-cli"
[ -x "$gui" ] || fail "no bin/attnviz"
model="$models/en_zh-bahdanau-additive.safetensors"
[ -f "$model" ] || fail "no installed sample model $model"

# The installed CLI on the installed model: a decode whose JSON names the tokens.
out=$(cd / && "$cli" decode --model "$model" --json "i ate an apple yesterday")
echo "$out" | grep '"source_tokens":\["<sos>","i","ate","an","apple","yesterday","<eos>"\]' >/dev/null ||
  fail "installed CLI decode gave: ${out:0:200}"
"$cli" info "$model" | grep "bahdanau" >/dev/null || fail "installed CLI info does not name the decoder"
# Siblings are found next to the installed model.
"$cli" decode --model "$model" --score dot "i ate an apple" >/dev/null || fail "--score dot found no sibling"

# The sample corpora, Tatoeba's with its attribution, and the installed CLI reads a test split.
corpora="$prefix/share/attnviz/corpora"
for task in en_fr en_zh dates tatoeba; do
  for split in train valid test; do [ -s "$corpora/$task/$split.tsv" ] || fail "no sample corpus $task/$split.tsv"; done
done
grep "CC-BY" "$corpora/tatoeba/train.attribution.txt" >/dev/null || fail "the Tatoeba corpus lacks its attribution"
head -5 "$corpora/en_zh/test.tsv" | "$cli" eval --model "$model" --data - >/dev/null || fail "eval on the installed corpus"

# The GUI answers --help and --version without a display.
version=$(env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= "$gui" --version) || fail "attnviz --version failed"
[ "$version" = "attnviz $(cat "$build/dist/version.txt")" ] || fail "attnviz --version printed '$version'"
env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= "$gui" --help | grep -- "--screenshot" >/dev/null || fail "attnviz --help"
[ "$("$cli" --version | sed -n 1p)" = "attnviz-cli $(cat "$build/dist/version.txt")" ] || fail "attnviz-cli --version"
"$cli" --version | grep '^engine: x86-64' >/dev/null || fail "attnviz-cli --version does not name the engine's instruction set"

# Desktop entry, icons, metainfo, man pages, completion.
desktop="$prefix/share/applications/org.attnviz.attnviz.desktop"
[ -f "$desktop" ] || fail "no desktop entry"
grep -q '^Exec=attnviz' "$desktop" || fail "desktop entry does not start attnviz"
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$desktop" || fail "desktop-file-validate"; fi
for size in 16 32 48 256; do
  [ -f "$prefix/share/icons/hicolor/${size}x${size}/apps/org.attnviz.attnviz.png" ] || fail "no ${size}px icon"
done
[ -f "$prefix/share/icons/hicolor/scalable/apps/org.attnviz.attnviz.svg" ] || fail "no scalable icon"
metainfo="$prefix/share/metainfo/org.attnviz.attnviz.metainfo.xml"
[ -f "$metainfo" ] || fail "no metainfo"
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net --pedantic "$metainfo" >/dev/null || appstreamcli validate --no-net "$metainfo" ||
    fail "appstreamcli validate"
fi
for page in attnviz attnviz-cli; do
  f="$prefix/share/man/man1/$page.1.gz"
  [ -f "$f" ] || fail "no man page $page"
  zcat "$f" | grep '^\.TH' >/dev/null || fail "$page.1.gz is not a man page"
done
zcat "$prefix/share/man/man1/attnviz-cli.1.gz" | grep 'max\\-len' >/dev/null || fail "attnviz-cli(1) lacks decode's options"
completion="$prefix/share/bash-completion/completions/attnviz-cli"
[ -f "$completion" ] || fail "no bash completion"
bash -n "$completion" || fail "bash completion does not parse"
echo "install: 1 passed, 0 failed"
