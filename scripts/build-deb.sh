#!/usr/bin/env bash
# Builds the Debian package (build/deb/attnviz_VERSION_ARCH.deb) from a release build with no source-tree paths in
# the programs, then runs lintian on it; exits non-zero when lintian reports an error.
#   scripts/build-deb.sh            # then: apt-get install ./build/deb/attnviz_*.deb
#   JOBS=1 scripts/build-deb.sh     # compile jobs (default: one per core), for a machine shared with other work
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
extra=(lintian dpkg-dev)
missing=()
for p in "${extra[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
build=build/deb
# -march=native would tie the package to this machine's CPU: the package's engine is built for the baseline x86-64
# and again for x86-64-v3 (AVX2, FMA) and x86-64-v4 (AVX-512); the dynamic loader picks the copy the CPU runs
# (docs/performance.md, "The package's instruction sets").
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNVIZ_NATIVE=OFF -DATTNVIZ_SOURCE_TREE_FALLBACK=OFF \
  -DATTNVIZ_BUILD_TESTS=OFF -DATTNVIZ_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "${JOBS:-$(nproc)}"
# The copies decode and explain alike (exit 77: this CPU runs only the baseline, nothing to compare).
python3 tests/install/check_engine_copies.py "$build/app/attnviz-cli" sample_models || [ $? -eq 77 ]
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$build"/attnviz_*.deb | head -1)
echo "package: $deb"
dpkg-deb --info "$deb" | sed -n '/Depends/p'
# lintian exits non-zero on errors; warnings are printed for the reader.
lintian --fail-on error --suppress-tags-from-file /dev/null "$deb"
echo "lintian: no errors"
