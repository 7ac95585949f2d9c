#!/usr/bin/env bash
# The main job: installs missing system packages, builds in release mode and runs the
# Sudoku sweep over instances/sudoku on HiGHS, writing a new CSV into reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
cargo build --release
out="reports/sudoku-$(date -u +%Y%m%dT%H%M%SZ).csv"
./target/release/puzzlebench run --puzzle sudoku --backend highs \
  --instances instances/sudoku --time-limit 60 --out "$out" "$@"
echo "results: $out"
