#!/usr/bin/env bash
# Installs the Debian 12 packages attnviz needs to build, run and test; does nothing when they are present.
set -euo pipefail
packages=(
  cmake g++ make ninja-build pkg-config python3
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libqt6svg6 qt6-qpa-plugins
  qt6-l10n-tools qt6-tools-dev qt6-translations-l10n
  libeigen3-dev nlohmann-json3-dev libicu-dev libzip-dev libbenchmark-dev libsentencepiece-dev
  fonts-noto-cjk fonts-dejavu-core
  xvfb xauth imagemagick clang-format appstream desktop-file-utils
  sentencepiece  # spm_train / spm_encode / spm_decode: bench/pytorch_marian_check.py's folders and tokens
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
echo "Installing: ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
