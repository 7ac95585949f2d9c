#!/usr/bin/env bash
# The overhead of a run on the engines whose solver runs in a Python driver (cpsat, scip,
# gurobi) beside an engine in puzzlebench's own process (highs), with the drivers started
# cold (PUZZLEBENCH_WARM=0: a fresh interpreter imports the solver in every run) and warm
# (a fork server per engine imports it once per sweep; docs/engines.md). A benchmark, not
# a test: timings depend on the machine and its load.
#
#   scripts/bench-driver-overhead.sh              # 5 Sudoku puzzles x 4 repeats = 20 runs
#   REPEATS=10 scripts/bench-driver-overhead.sh   # per engine and way of starting
#
# The overhead of a run is wall_seconds - seconds - build_seconds from its row: the
# worker's whole life as the sweep saw it, less the solver's own solve time and the model
# building (worker start, reading the instance, starting the driver and sending it the
# model, verifying). Printed per engine and way of starting: the runs, the median and the
# quartiles of the overhead, the median peak memory, and how the rows say the driver
# started (solver_version ends in "[warm]" for a driver started by the fork server).
# Output in results/driver-overhead/: cold.csv and warm.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-4}
INSTANCES=${INSTANCES:-instances/sudoku/solo_3x3_basic.txt}
ENGINES=${ENGINES:-cpsat,scip,gurobi,highs}
OUT=results/driver-overhead
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT"
for mode in cold warm; do
    warm=1
    [ "$mode" = cold ] && warm=0
    PUZZLEBENCH_WARM=$warm target/release/puzzlebench run --puzzle sudoku \
        --formulation binary --backend "$ENGINES" --repeats "$REPEATS" --jobs 1 \
        --time-limit 60 --quiet --instances "$INSTANCES" --out "$OUT/$mode.csv" \
        > "$OUT/$mode.log" 2>&1 || true
done
python3 - "$OUT/cold.csv" "$OUT/warm.csv" <<'EOF'
import csv, statistics, sys

def num(x):
    return float(x) if x not in ("", None) else None

print(f"{'engine':8} {'start':5} {'runs':>4} {'overhead median':>16} {'q1':>7} {'q3':>7}"
      f" {'peak MiB':>9}  measured_by, rows marked [warm]")
for path in sys.argv[1:]:
    mode = path.rsplit("/", 1)[1].split(".")[0]
    rows = list(csv.DictReader(open(path)))
    for engine in sorted({r["backend"] for r in rows}):
        mine = [r for r in rows if r["backend"] == engine and r["status"] == "optimal"]
        over = sorted(num(r["wall_seconds"]) - num(r["seconds"]) - (num(r["build_seconds"]) or 0.0)
                      for r in mine if num(r["wall_seconds"]) is not None)
        peaks = [num(r["peak_memory_mb"]) for r in mine if num(r["peak_memory_mb"]) is not None]
        if len(over) < 2:
            print(f"{engine:8} {mode:5} {len(over):4} (too few optimal runs)")
            continue
        q1, _, q3 = statistics.quantiles(over, n=4)
        med = statistics.median(over)
        marked = sum(r["solver_version"].endswith("[warm]") for r in mine)
        how = ",".join(sorted({r["measured_by"] for r in mine}))
        peak = f"{statistics.median(peaks):9.1f}" if peaks else f"{'':9}"
        print(f"{engine:8} {mode:5} {len(over):4} {med * 1000:13.1f} ms {q1 * 1000:7.1f}"
              f" {q3 * 1000:7.1f} {peak}  {how}, {marked}/{len(mine)}")
EOF
