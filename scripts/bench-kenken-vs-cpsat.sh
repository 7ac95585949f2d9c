#!/usr/bin/env bash
# KenKen 9x9 'extreme' (Tatham's Keen, instances/kenken/tatham/keen_9dx.txt): puzzlebench's
# best formulations and engines against OR-Tools CP-SAT with one worker, in one run on this
# machine. A benchmark, not a test.
#
#   scripts/bench-kenken-vs-cpsat.sh              # 5 repeats of each puzzle on each side
#   REPEATS=10 FILE=instances/kenken/tatham/keen_9du.txt scripts/bench-kenken-vs-cpsat.sh
#
# Sides: `combinations` and `melkonian` on highs, sat and the cpsat engine (CP-SAT on
# puzzlebench's model), one run per process as every sweep; and CP-SAT on its own model
# of KenKen (scripts/kenken_cpsat_native.py: AllDifferent rows and columns, the cages as
# sums, multiplication and absolute-value equalities and tables), in one Python process.
# Times are each solver's own: puzzlebench's `seconds` column (for cpsat, CP-SAT's
# WallTime) and CP-SAT's WallTime for the native model. Output in results/kenken-vs-cpsat/.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-5}
FILE=${FILE:-instances/kenken/tatham/keen_9dx.txt}
OUT=results/kenken-vs-cpsat
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT"
target/release/puzzlebench run --puzzle kenken --formulation combinations,melkonian \
    --backend highs,sat,cpsat --repeats "$REPEATS" --jobs 1 --no-lp --quiet \
    --instances "$FILE" --out "$OUT/puzzlebench.csv" > /dev/null 2>&1 || true
.venv/bin/python scripts/kenken_cpsat_native.py --repeats "$REPEATS" "$FILE" > "$OUT/native.csv"
.venv/bin/python - "$OUT" <<'PY'
import csv, statistics, sys
out = sys.argv[1]
groups = {}
for r in csv.DictReader(open(f"{out}/puzzlebench.csv")):
    key = f"{r['formulation']} on {r['backend']}"
    ok = r["status"] == "optimal" and r["verified"] == "true"
    groups.setdefault(key, {}).setdefault(r["instance"], []).append(float(r["seconds"]) if ok else float("inf"))
for r in csv.DictReader(open(f"{out}/native.csv")):
    ok = r["status"] in ("OPTIMAL", "FEASIBLE") and r["verified"] == "true"
    groups.setdefault("CP-SAT own model", {}).setdefault(r["puzzle"], []).append(float(r["seconds"]) if ok else float("inf"))
print(f"{'side':<28} {'puzzles':>7} {'median ms':>10} {'max of medians ms':>18}")
for key, per in sorted(groups.items(), key=lambda kv: statistics.median(statistics.median(v) for v in kv[1].values())):
    meds = [statistics.median(v) for v in per.values()]
    print(f"{key:<28} {len(meds):>7} {1000 * statistics.median(meds):>10.2f} {1000 * max(meds):>18.2f}")
PY
