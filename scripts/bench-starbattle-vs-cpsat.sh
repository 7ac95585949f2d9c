#!/usr/bin/env bash
# Star Battle 14x14 with m = 3 (instances/starbattle/generated/sb_14x14_m3_s1..5.txt):
# puzzlebench's formulations on its engines against OR-Tools CP-SAT with one worker, in
# one run on this machine. A benchmark, not a test.
#
#   scripts/bench-starbattle-vs-cpsat.sh                # 5 repeats of each puzzle on each side
#   REPEATS=3 FILES="instances/starbattle/generated/sb_10x10_m2_s1.txt" scripts/bench-starbattle-vs-cpsat.sh
#
# Sides: `window` and `pairwise` on highs, sat and the cpsat engine (CP-SAT on
# puzzlebench's model), one run per process as every sweep; and CP-SAT on its own model
# (scripts/starbattle_cpsat_native.py: sums and AddAtMostOne per 2x2 window), in one
# Python process. Times are each solver's own: puzzlebench's `seconds` column (for cpsat,
# CP-SAT's WallTime) and CP-SAT's WallTime for the native model. Output in
# results/starbattle-vs-cpsat/.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-5}
FILES=${FILES:-$(ls instances/starbattle/generated/sb_14x14_m3_s*.txt)}
OUT=results/starbattle-vs-cpsat
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT"
# shellcheck disable=SC2086
target/release/puzzlebench run --puzzle starbattle --formulation window,pairwise \
    --backend highs,sat,cpsat --repeats "$REPEATS" --jobs 1 --no-lp --quiet --time-limit 60 \
    --instances $FILES --out "$OUT/puzzlebench.csv" > /dev/null 2>&1 || true
# shellcheck disable=SC2086
.venv/bin/python scripts/starbattle_cpsat_native.py --repeats "$REPEATS" $FILES > "$OUT/native.csv"
.venv/bin/python - "$OUT" <<'PY'
import csv, os, statistics, sys
out = sys.argv[1]
groups = {}  # (grid, side) -> puzzle -> seconds
for r in csv.DictReader(open(f"{out}/puzzlebench.csv")):
    side = f"{r['formulation']} on {r['backend']}"
    ok = r["status"] == "optimal" and r["verified"] == "true"
    groups.setdefault((r["size_label"], side), {}).setdefault(r["instance"], []).append(float(r["seconds"]) if ok else float("inf"))
for r in csv.DictReader(open(f"{out}/native.csv")):
    ok = r["status"] in ("OPTIMAL", "FEASIBLE") and r["verified"] == "true"
    name = os.path.splitext(os.path.basename(r["file"]))[0]
    groups.setdefault((r["grid"], "CP-SAT own model"), {}).setdefault(name, []).append(float(r["seconds"]) if ok else float("inf"))
print(f"{'grid':<12} {'side':<24} {'puzzles':>7} {'median ms':>10} {'max of medians ms':>18}")
for (grid, side), per in sorted(groups.items(), key=lambda kv: (kv[0][0], statistics.median(statistics.median(v) for v in kv[1].values()))):
    meds = [statistics.median(v) for v in per.values()]
    print(f"{grid:<12} {side:<24} {len(meds):>7} {1000 * statistics.median(meds):>10.2f} {1000 * max(meds):>18.2f}")
PY
