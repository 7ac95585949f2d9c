#!/usr/bin/env bash
# The whole test suite: installs missing system packages, then builds and tests in release
# mode (one build of the vendored HiGHS serves both this and the main job).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
cargo test --release --all-targets
cargo test --release --doc
