#!/usr/bin/env bash
# Fails when a C++ file of the tree differs from what clang-format (with the tree's .clang-format) would write.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files -- '*.cpp' '*.h' 2>/dev/null || find core ui app tests bench fuzz -name '*.cpp' -o -name '*.h')
# shellcheck disable=SC2086
if ! clang-format --dry-run --Werror $files; then
  echo "format: run clang-format -i on the files above" >&2
  exit 1
fi
echo "format: $(echo "$files" | wc -w) files follow .clang-format"
