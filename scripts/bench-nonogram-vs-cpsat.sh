#!/usr/bin/env bash
# Nonograms, 30x30 and 50x50 (Tatham's Pattern, instances/nonogram/tatham/pattern_30x30.txt
# and instances/nonogram/large/pattern_50x50.txt): puzzlebench's formulations on its best
# engines against OR-Tools CP-SAT with one worker, in one run on this machine. A benchmark,
# not a test.
#
#   scripts/bench-nonogram-vs-cpsat.sh                 # 5 repeats of each puzzle on each side
#   REPEATS=3 FILES="instances/nonogram/webpbn" scripts/bench-nonogram-vs-cpsat.sh
#
# Sides: `bosch` and `dfa` on highs, sat and the cpsat engine (CP-SAT on puzzlebench's
# model), one run per process as every sweep; and CP-SAT on its own model of nonograms
# (scripts/nonogram_cpsat_native.py: one AddAutomaton per line), in one Python process.
# Times are each solver's own: puzzlebench's `seconds` column (for cpsat, CP-SAT's
# WallTime) and CP-SAT's WallTime for the native model. Output in results/nonogram-vs-cpsat/.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-5}
FILES=${FILES:-instances/nonogram/tatham/pattern_30x30.txt instances/nonogram/large/pattern_50x50.txt}
OUT=results/nonogram-vs-cpsat
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT"
# shellcheck disable=SC2086
target/release/puzzlebench run --puzzle nonogram --formulation bosch,dfa \
    --backend highs,sat,cpsat --repeats "$REPEATS" --jobs 1 --no-lp --quiet --time-limit 60 \
    --instances $FILES --out "$OUT/puzzlebench.csv" > /dev/null 2>&1 || true
# shellcheck disable=SC2086
.venv/bin/python scripts/nonogram_cpsat_native.py --repeats "$REPEATS" $(find $FILES -type f ! -name '*.md' | sort) > "$OUT/native.csv"
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
    stem = os.path.splitext(os.path.basename(r["file"]))[0]
    grid = r.get("grid", "")
    name = f"{stem}:{r['puzzle']}" if r["file"].endswith(".txt") else stem
    groups.setdefault((grid, "CP-SAT own model"), {}).setdefault(name, []).append(float(r["seconds"]) if ok else float("inf"))
print(f"{'grid':<8} {'side':<24} {'puzzles':>7} {'median ms':>10} {'max of medians ms':>18}")
for (grid, side), per in sorted(groups.items(), key=lambda kv: (kv[0][0], statistics.median(statistics.median(v) for v in kv[1].values()))):
    meds = [statistics.median(v) for v in per.values()]
    print(f"{grid:<8} {side:<24} {len(meds):>7} {1000 * statistics.median(meds):>10.2f} {1000 * max(meds):>18.2f}")
PY
