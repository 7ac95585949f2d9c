#!/usr/bin/env bash
# Battleship, the four 30x20 puzzles (instances/battleship/scaling/30x20.txt: one easy and
# one hard puzzle; 30x20_more.txt: two hard ones; fleet 10,8,6,4,3): puzzlebench's
# formulations on its engines against OR-Tools CP-SAT with one worker, in one run on this
# machine. A benchmark, not a test. The summary is per puzzle, so the easy one stays in.
#
#   scripts/bench-battleship-vs-cpsat.sh                 # 5 repeats of each puzzle on each side
#   ENGINES=sat,cpsat scripts/bench-battleship-vs-cpsat.sh   # without HiGHS
#   REPEATS=3 FILES="instances/battleship/scaling/20x20.txt" scripts/bench-battleship-vs-cpsat.sh
#
# Sides: `gbm` and `cbm` on the engines of $ENGINES (default highs, sat and cpsat, CP-SAT on
# puzzlebench's model), one run per process as every sweep; and CP-SAT on its own model
# (scripts/battleship_cpsat_native.py: a Boolean per ship placement, a count per ship
# length, sums over the cell occupancies, AddAtMostOne per 2x2 window), in one Python
# process. Times are each solver's own: puzzlebench's `seconds` column (for cpsat,
# CP-SAT's WallTime) and CP-SAT's WallTime for the native model. Output in
# results/battleship-vs-cpsat/.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-5}
ENGINES=${ENGINES:-highs,sat,cpsat}
FILES=${FILES:-instances/battleship/scaling/30x20.txt instances/battleship/scaling/30x20_more.txt}
OUT=results/battleship-vs-cpsat
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT"
# shellcheck disable=SC2086
target/release/puzzlebench run --puzzle battleship --formulation gbm,cbm \
    --backend "$ENGINES" --repeats "$REPEATS" --jobs 1 --no-lp --quiet --time-limit 60 \
    --instances $FILES --out "$OUT/puzzlebench.csv" > /dev/null 2>&1 || true
# shellcheck disable=SC2086
.venv/bin/python scripts/battleship_cpsat_native.py --repeats "$REPEATS" $FILES > "$OUT/native.csv"
.venv/bin/python scripts/summarise_vs_cpsat.py "$OUT"
