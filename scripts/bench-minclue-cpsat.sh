#!/usr/bin/env bash
# Minimum-clue Sudoku's 6x6 grids (grid6_a, grid6_b, grid6_c) on CP-SAT beside HiGHS,
# `rowgen` and `rowgen-plain`, CP-SAT's driver started cold (PUZZLEBENCH_WARM=0) and warm
# (issue 75: with one worker CP-SAT left the leader's clauses out of its LP and took the
# 20 s limit on grid6_a; src/engines/cpsat.rs, clause_lp). A benchmark, not a test:
# timings depend on the machine and its load.
#
#   scripts/bench-minclue-cpsat.sh              # 3 grids x 2 formulations x 5 repeats
#   REPEATS=9 LIMIT=60 scripts/bench-minclue-cpsat.sh
#
# Printed per grid, formulation, engine and way of starting: the runs, how many ended
# optimal with a verified answer, the median and range of `seconds` (the search: seeding,
# the leader's solves and the follower) and the median `run_seconds` (the whole run from
# its start, driver start and model transfer included), the median rounds and CP-SAT's
# branches. Output in results/minclue-cpsat/: cold.csv and warm.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-5}
LIMIT=${LIMIT:-20}
INSTANCES=${INSTANCES:-"instances/minclue/small/grid6_a.txt instances/minclue/small/grid6_b.txt instances/minclue/small/grid6_c.txt"}
OUT=results/minclue-cpsat
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT"
for mode in cold warm; do
    warm=1
    [ "$mode" = cold ] && warm=0
    # HiGHS runs once, with the warm sweep (it has no driver).
    engines=cpsat
    [ "$mode" = warm ] && engines=cpsat,highs
    # shellcheck disable=SC2086
    PUZZLEBENCH_WARM=$warm target/release/puzzlebench run --puzzle minclue \
        --formulation rowgen,rowgen-plain --backend "$engines" --repeats "$REPEATS" \
        --jobs 1 --time-limit "$LIMIT" --quiet --instances $INSTANCES \
        --out "$OUT/$mode.csv" > "$OUT/$mode.log" 2>&1 || true
done
python3 - "$OUT/cold.csv" "$OUT/warm.csv" <<'EOF'
import csv, statistics, sys

def num(x):
    return float(x) if x not in ("", None) else None

print(f"{'grid':8} {'formulation':12} {'engine':6} {'start':5} {'runs':>4} {'optimal':>7}"
      f" {'seconds median':>14} {'(min-max)':>15} {'run_seconds':>11} {'rounds':>6} {'nodes':>8}")
for path in sys.argv[1:]:
    mode = path.rsplit("/", 1)[1].split(".")[0]
    rows = list(csv.DictReader(open(path)))
    keys = sorted({(r["instance"], r["formulation"], r["backend"]) for r in rows})
    for inst, form, engine in keys:
        mine = [r for r in rows if (r["instance"], r["formulation"], r["backend"]) == (inst, form, engine)]
        start = mode if engine == "cpsat" else "-"
        ok = sum(r["status"] == "optimal" and r["verified"] == "true" for r in mine)
        secs = sorted(num(r["seconds"]) for r in mine)
        runs = [num(r["run_seconds"]) for r in mine if num(r["run_seconds"]) is not None]
        rounds = [num(r["rounds"]) for r in mine if num(r["rounds"]) is not None]
        nodes = [num(r["nodes"]) for r in mine if num(r["nodes"]) is not None]
        med = lambda xs: f"{statistics.median(xs):.3f}" if xs else "-"
        medi = lambda xs: f"{statistics.median(xs):.0f}" if xs else "-"
        print(f"{inst:8} {form:12} {engine:6} {start:5} {len(mine):4} {ok:7}"
              f" {med(secs):>14} {f'({secs[0]:.3f}-{secs[-1]:.3f})':>15} {med(runs):>11}"
              f" {medi(rounds):>6} {medi(nodes):>8}")
EOF
