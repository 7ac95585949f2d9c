#!/usr/bin/env bash
# Installs VeriPB 3.0.2, the checker of certified claims (src/certify/veripb.rs), into
# cargo's bin folder, only when it is missing: `cargo install veripb --version 3.0.2
# --locked` (about 3 minutes on 2 cores; it downloads its crates the first time).
set -euo pipefail
want="3.0.2"
bin="${CARGO_HOME:-$HOME/.cargo}/bin/veripb"
for v in "${PUZZLEBENCH_VERIPB:-}" "$(command -v veripb || true)" "$bin"; do
  if [ -n "$v" ] && [ -x "$v" ] && "$v" --version 2>/dev/null | grep -q "veripb $want"; then
    exit 0
  fi
done
echo "setup-veripb.sh: installing veripb $want (cargo install)" >&2
cargo install veripb --version "$want" --locked
