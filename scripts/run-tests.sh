#!/usr/bin/env bash
# Installs what is missing, builds every target (dev preset) and the engine under the sanitizers (asan preset: its
# engine tests run there),
# and runs every test. Quick the second time: CMake rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)
# With ccache (developers' machines), paths relative to the checkout let clones in other folders share the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
# Benchmarks are not tests: they are built by the dev preset for developers, not here.
cmake --preset dev -DATTNVIZ_BUILD_BENCH=OFF >/dev/null
cmake --build --preset dev -j "$jobs"
ctest --preset dev -j "$jobs"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs" --target engine_tests
ctest --preset asan -j "$jobs" -L engine
