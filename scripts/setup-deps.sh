#!/usr/bin/env bash
# Installs the Debian packages the build needs, only when one is missing:
#   cmake, g++, libclang-dev  -> build the vendored HiGHS (highs-sys runs cmake and bindgen)
#                                and CaDiCaL (rustsat-cadical compiles it with g++, bindgen)
#   coinor-libcbc-dev, pkg-config -> link CBC through pkg-config (coin_cbc)
#   libfontconfig1-dev, fonts-dejavu-core -> text in the PNG plots (plotters' ttf feature)
#   glpk-utils                -> engine glpk (glpsol)
#   swi-prolog-nox            -> engine prolog (swipl)
#   python3, python3-venv     -> the project's Python environment of the engines cpsat and
#                                scip (made by setup-python.sh)
#   coinor-cbc, lp-solve, clasp, default-jre-headless + sat4j, minisat, cadical
#                             -> the programs of the shipped engine definitions (engines/*.toml:
#                                cbc-cli, lpsolve, clasp, sat4j, minisat, cadical-cli)
# sgt-puzzles (Simon Tatham's generators) is optional: pass --with-generators.
set -euo pipefail
pkgs=(cmake g++ libclang-dev coinor-libcbc-dev pkg-config libfontconfig1-dev fonts-dejavu-core
  glpk-utils swi-prolog-nox python3 python3-venv
  coinor-cbc lp-solve clasp default-jre-headless sat4j minisat cadical)
if [ "${1:-}" = "--with-generators" ]; then
  pkgs+=(sgt-puzzles)
fi
exec bash "$(dirname "$0")/install-missing.sh" "${pkgs[@]}"
