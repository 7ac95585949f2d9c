#!/usr/bin/env bash
# Installs the Debian packages the build needs, only when one is missing:
#   cmake, g++, libclang-dev  -> build the vendored HiGHS (highs-sys runs cmake and bindgen)
#   coinor-libcbc-dev, pkg-config -> link CBC through pkg-config (coin_cbc)
#   libfontconfig1-dev, fonts-dejavu-core -> text in the PNG plots (plotters' ttf feature)
# sgt-puzzles (Simon Tatham's generators) is optional: pass --with-generators.
set -euo pipefail
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in cmake g++ libclang-dev coinor-libcbc-dev pkg-config libfontconfig1-dev fonts-dejavu-core; do
  have_pkg "$p" || need+=("$p")
done
if [ "${1:-}" = "--with-generators" ]; then
  have_pkg sgt-puzzles || need+=(sgt-puzzles)
fi
[ ${#need[@]} -eq 0 ] && exit 0
echo "setup-deps: installing ${need[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
