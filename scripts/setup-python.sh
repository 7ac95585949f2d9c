#!/usr/bin/env bash
# Makes the project-local Python environment .venv/ (ignored by git) with the pinned
# solvers of the external engines, when it is missing or holds other versions:
#   ortools   -> engine cpsat (OR-Tools CP-SAT)
#   pyscipopt -> engine scip (its wheel bundles SCIP)
#   gurobipy  -> engine gurobi (its wheel bundles Gurobi and a size-limited licence:
#                2,000 variables and 2,000 rows, non-production use; docs/engines.md)
# The interpreter is Debian's python3 (setup-deps.sh installs python3 and python3-venv),
# or python3 on the PATH. When the packages cannot be installed (no network), it says so
# and exits 0: those engines then record "not installed: ..." and everything else runs.
set -euo pipefail
cd "$(dirname "$0")/.."
ORTOOLS=9.15.6755
PYSCIPOPT=6.3.0
GUROBIPY=13.0.3
check="import sys, ortools, pyscipopt, gurobipy; sys.exit(0 if (ortools.__version__, pyscipopt.__version__, gurobipy.__version__) == ('$ORTOOLS', '$PYSCIPOPT', '$GUROBIPY') else 1)"
if [ -x .venv/bin/python ] && .venv/bin/python -I -c "$check" 2>/dev/null; then
  exit 0
fi
base=/usr/bin/python3
[ -x "$base" ] || base=python3
if ! [ -x .venv/bin/python ]; then
  echo "setup-python.sh: making .venv with $("$base" --version 2>&1)" >&2
  if ! "$base" -m venv .venv; then
    echo "setup-python.sh: cannot make .venv (python3-venv missing?); cpsat, scip and gurobi will say 'not installed'" >&2
    exit 0
  fi
fi
echo "setup-python.sh: installing ortools==$ORTOOLS pyscipopt==$PYSCIPOPT gurobipy==$GUROBIPY into .venv" >&2
if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    "ortools==$ORTOOLS" "pyscipopt==$PYSCIPOPT" "gurobipy==$GUROBIPY" >&2; then
  echo "setup-python.sh: could not install them; cpsat, scip and gurobi will say 'not installed'" >&2
fi
