#!/usr/bin/env bash
# The whole test suite: installs missing system packages, the project's Python
# environment (the external engines' tests run when their solvers are there) and a local
# single-node SLURM (scripts/setup-slurm.sh), then builds and tests in release
# mode (one build of the vendored HiGHS serves both this and the main job).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
bash scripts/setup-python.sh
# VeriPB, the checker of certified claims (tests/certify.rs needs it).
bash scripts/setup-veripb.sh
# Debian's chromium for the browser test of the HTML report (tests/html.rs skips, saying
# why, where it cannot be installed).
bash scripts/setup-browser.sh || echo "test.sh: no chromium; tests/html.rs skips its browser test" >&2
# A real single-node SLURM on loopback for tests/slurm.rs (which skips its SLURM test,
# saying why, where it cannot start: not root, no packages).
bash scripts/setup-slurm.sh || echo "test.sh: no local SLURM; tests/slurm.rs skips its SLURM test" >&2
cargo test --release --all-targets
cargo test --release --doc
