#!/usr/bin/env bash
# Installs what is missing, builds every target (dev preset) and the engine under the sanitizers (asan preset),
# and runs every test. Quick the second time: CMake rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)
cmake --preset dev >/dev/null
cmake --build --preset dev -j "$jobs"
ctest --preset dev -j "$jobs"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs" -LE corpora
