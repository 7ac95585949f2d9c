#!/usr/bin/env bash
# Makes the project-local Python environment .venv/ (ignored by git) with the pinned
# solvers of the external engines, when it is missing or holds other versions:
#   ortools   -> engine cpsat (OR-Tools CP-SAT)
#   pyscipopt -> engine scip (its wheel bundles SCIP)
#   gurobipy  -> engine gurobi (its wheel bundles Gurobi and a size-limited licence:
#                2,000 variables and 2,000 rows, non-production use; docs/engines.md)
#   cplex     -> engine cplex (CPLEX Community Edition: 1,000 variables and 1,000 rows)
#   xpress    -> engine xpress (Xpress community licence: 5,000 rows and columns together;
#                its terms forbid publishing benchmark results without FICO's consent)
#   coptpy    -> engine copt (COPT without a licence file: 2,000 variables and 2,000 rows,
#                non-commercial use)
#   pulp      -> the example formulation written in PuLP, examples/formulations/battleship
#                (PuLP 3.3.2, the last release for Python 3.11, Debian 12's python3)
# The interpreter is Debian's python3 (setup-deps.sh installs python3 and python3-venv),
# or python3 on the PATH. When the packages cannot be installed (no network), it says so
# and exits 0: those engines then record "not installed: ..." and everything else runs.
set -euo pipefail
cd "$(dirname "$0")/.."
ORTOOLS=9.15.6755
PYSCIPOPT=6.3.0
GUROBIPY=13.0.3
CPLEX=22.2.0.1
XPRESS=9.9.1
COPTPY=8.0.7
PULP=3.3.2
pins=("ortools==$ORTOOLS" "pyscipopt==$PYSCIPOPT" "gurobipy==$GUROBIPY" "cplex==$CPLEX"
  "xpress==$XPRESS" "coptpy==$COPTPY" "pulp==$PULP")
# The installed versions as pip records them (cplex's own __version__ lags its package's).
check="import sys; from importlib.metadata import version
try:
    sys.exit(0 if all(version(p.split('==')[0]) == p.split('==')[1] for p in sys.argv[1:]) else 1)
except Exception:
    sys.exit(1)"
if [ -x .venv/bin/python ] && .venv/bin/python -I -c "$check" "${pins[@]}" 2>/dev/null; then
  exit 0
fi
base=/usr/bin/python3
[ -x "$base" ] || base=python3
if ! [ -x .venv/bin/python ]; then
  echo "setup-python.sh: making .venv with $("$base" --version 2>&1)" >&2
  if ! "$base" -m venv .venv; then
    echo "setup-python.sh: cannot make .venv (python3-venv missing?); cpsat, scip, gurobi, cplex, xpress and copt will say 'not installed'" >&2
    exit 0
  fi
fi
echo "setup-python.sh: installing ${pins[*]} into .venv" >&2
if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    "${pins[@]}" >&2; then
  echo "setup-python.sh: could not install them; cpsat, scip, gurobi, cplex, xpress and copt will say 'not installed'" >&2
fi
