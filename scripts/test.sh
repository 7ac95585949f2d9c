#!/usr/bin/env bash
# The whole test suite: installs missing system packages and the project's Python
# environment (the external engines' tests run when their solvers are there), then builds and tests in release
# mode (one build of the vendored HiGHS serves both this and the main job).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
bash scripts/setup-python.sh
cargo test --release --all-targets
cargo test --release --doc
