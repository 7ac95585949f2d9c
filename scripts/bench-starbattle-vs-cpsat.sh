#!/usr/bin/env bash
# Star Battle, the twenty regular puzzles of 10x10 to 25x25 (instances/starbattle/generated:
# 10x10 m = 2, 12x12, 14x14 m = 3; instances/starbattle/large: 17x17 m = 4, 21x21 m = 5,
# 25x25 m = 6): puzzlebench's formulations on its engines against OR-Tools CP-SAT with one
# worker, in one run on this machine. A benchmark, not a test.
#
#   scripts/bench-starbattle-vs-cpsat.sh                # 5 repeats of each puzzle on each side
#   ENGINES=sat,cpsat scripts/bench-starbattle-vs-cpsat.sh   # without HiGHS (minutes on 25x25)
#   REPEATS=3 FILES="instances/starbattle/generated/sb_10x10_m2_s1.txt" scripts/bench-starbattle-vs-cpsat.sh
#
# Sides: `window` and `pairwise` on the engines of $ENGINES (default highs, sat and cpsat,
# CP-SAT on puzzlebench's model), one run per process as every sweep; and CP-SAT on its own model
# (scripts/starbattle_cpsat_native.py: sums and AddAtMostOne per 2x2 window), in one
# Python process. Times are each solver's own: puzzlebench's `seconds` column (for cpsat,
# CP-SAT's WallTime) and CP-SAT's WallTime for the native model. Output in
# results/starbattle-vs-cpsat/.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-5}
ENGINES=${ENGINES:-highs,sat,cpsat}
FILES=${FILES:-$(ls instances/starbattle/generated/sb_1[024]x1[024]_m[23]_s*.txt instances/starbattle/large/*.txt)}
OUT=results/starbattle-vs-cpsat
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT"
# shellcheck disable=SC2086
target/release/puzzlebench run --puzzle starbattle --formulation window,pairwise \
    --backend "$ENGINES" --repeats "$REPEATS" --jobs 1 --no-lp --quiet --time-limit 60 \
    --instances $FILES --out "$OUT/puzzlebench.csv" > /dev/null 2>&1 || true
# shellcheck disable=SC2086
.venv/bin/python scripts/starbattle_cpsat_native.py --repeats "$REPEATS" $FILES > "$OUT/native.csv"
.venv/bin/python scripts/summarise_vs_cpsat.py "$OUT"
