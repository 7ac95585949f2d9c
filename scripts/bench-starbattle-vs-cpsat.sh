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
.venv/bin/python scripts/summarise_vs_cpsat.py "$OUT"
