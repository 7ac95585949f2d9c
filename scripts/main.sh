#!/usr/bin/env bash
# The main job: installs missing system packages, builds in release mode and runs
# `puzzlebench reproduce --quick` on the embedded HiGHS, writing reports/ (raw CSV,
# README.md index, Markdown and LaTeX tables, SVG and PNG plots, puzzle pictures).
# Extra arguments go to reproduce, e.g. `./scripts/main.sh --backend highs,cbc`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
cargo build --release
./target/release/puzzlebench reproduce --quick --out reports "$@"
echo "open reports/README.md"
