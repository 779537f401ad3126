#!/usr/bin/env bash
# Installs what is missing, builds (release preset) and starts attnviz on the default sample model with an example
# sentence. Extra arguments go to attnviz (e.g. a model path).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset release >/dev/null
# The programs and what `cmake --install build/release` installs beside them (corpora, changelog, man pages), not the
# tests and benchmarks.
cmake --build --preset release -j "$(nproc)" --target attnviz attnviz-cli attnviz_corpora attnviz_changelog attnviz_man
exec ./build/release/app/attnviz "$@"
