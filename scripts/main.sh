#!/usr/bin/env bash
# The main job: installs missing system packages and the project's Python environment
# (.venv/: the solvers of the cpsat and scip engines), builds in release mode and runs
# `puzzlebench reproduce --quick` (the report's tables on highs, bc and propagate, and each
# puzzle's engine comparison on every installed engine), writing results/ (ignored by
# git: raw CSV, index.html (the HTML report: the answer per puzzle, then a page per puzzle), README.md index, Markdown and LaTeX tables, SVG and PNG plots, puzzle
# pictures). The committed docs/example-report/ is such a report, made the same way.
# Extra arguments go to reproduce, e.g. `./scripts/main.sh --backend highs,cbc`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
bash scripts/setup-python.sh
cargo build --release
./target/release/puzzlebench reproduce --quick --out results "$@"
echo "open results/index.html (the overview; results/README.md is the Markdown index)"
