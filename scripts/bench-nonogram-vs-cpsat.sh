#!/usr/bin/env bash
# Nonograms, 30x30 and 50x50 (Tatham's Pattern, instances/nonogram/tatham/pattern_30x30.txt
# and instances/nonogram/large/pattern_50x50.txt): puzzlebench's formulations on its best
# engines against OR-Tools CP-SAT with one worker, in one run on this machine. A benchmark,
# not a test.
#
#   scripts/bench-nonogram-vs-cpsat.sh                 # 5 repeats of each puzzle on each side
#   REPEATS=3 FILES="instances/nonogram/webpbn" scripts/bench-nonogram-vs-cpsat.sh
#   ENGINES=sat,cpsat FILES="instances/nonogram-givens/random/random_40x40.non
#       instances/nonogram-givens/random/random_50x50.non instances/nonogram/webpbn" \
#       scripts/bench-nonogram-vs-cpsat.sh       # issue 41's set: 40 random pictures, webpbn
#
# Sides: `bosch`, `dfa` and `states` on the engines of $ENGINES (default highs, sat and cpsat,
# CP-SAT on puzzlebench's model), one run per process as every sweep; and CP-SAT on its own model of nonograms
# (scripts/nonogram_cpsat_native.py: one AddAutomaton per line), in one Python process.
# Times are each solver's own: puzzlebench's `seconds` column (for cpsat, CP-SAT's
# WallTime) and CP-SAT's WallTime for the native model. Output in results/nonogram-vs-cpsat/.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-5}
ENGINES=${ENGINES:-highs,sat,cpsat}
FILES=${FILES:-instances/nonogram/tatham/pattern_30x30.txt instances/nonogram/large/pattern_50x50.txt}
OUT=results/nonogram-vs-cpsat
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT"
# shellcheck disable=SC2086
target/release/puzzlebench run --puzzle nonogram --formulation bosch,dfa,states \
    --backend "$ENGINES" --repeats "$REPEATS" --jobs 1 --no-lp --quiet --time-limit 60 \
    --instances $FILES --out "$OUT/puzzlebench.csv" > /dev/null 2>&1 || true
# shellcheck disable=SC2086
.venv/bin/python scripts/nonogram_cpsat_native.py --repeats "$REPEATS" $(find $FILES -type f ! -name '*.md' | sort) > "$OUT/native.csv"
.venv/bin/python scripts/summarise_vs_cpsat.py "$OUT"
