#!/usr/bin/env bash
# Sudoku 9x9 `binary` on puzzlebench's `sat` engine against OR-Tools CP-SAT with one
# worker, on the identical model (puzzlebench exports it as MPS; CP-SAT reads that MPS
# through OR-Tools' model builder), in one run on this machine. A benchmark, not a test.
#
#   scripts/bench-sat-vs-cpsat.sh            # 20 repeats of each puzzle on each side
#   REPEATS=50 scripts/bench-sat-vs-cpsat.sh
#
# Puzzles: Tatham's 'extreme' and 'unreasonable' 9x9 sets (instances/sudoku). The pinned
# ortools goes into the project-local .venv/ (made when missing). Output in
# results/sat-vs-cpsat/: puzzles/ and mps/ (one file per puzzle), sat.csv (puzzlebench's
# rows), and comparison.csv with the table printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS=${REPEATS:-20}
OUT=results/sat-vs-cpsat
bash scripts/setup-python.sh
cargo build --release --quiet
rm -rf "$OUT"
mkdir -p "$OUT/puzzles" "$OUT/mps"
for f in instances/sudoku/solo_3x3_extreme.txt instances/sudoku/solo_3x3_unreasonable.txt; do
    stem=$(basename "$f" .txt)
    n=0
    grep -v '^#' "$f" | grep . | while read -r line; do
        n=$((n + 1))
        echo "$line" > "$OUT/puzzles/${stem}_$n.txt"
        target/release/puzzlebench export --puzzle sudoku --formulation binary \
            --mps "$OUT/mps/${stem}_$n.mps" "$OUT/puzzles/${stem}_$n.txt" > /dev/null 2>&1
    done
done
# One worker at a time, so that each side has one core as CP-SAT's one worker does.
target/release/puzzlebench run --puzzle sudoku --formulation binary --backend sat \
    --repeats "$REPEATS" --jobs 1 --order plan --instances "$OUT/puzzles" \
    --out "$OUT/sat.csv" > /dev/null 2>&1 || true
.venv/bin/python scripts/cpsat_peer.py --repeats "$REPEATS" --sat "$OUT/sat.csv" \
    --out "$OUT/comparison.csv" "$OUT"/mps/*.mps
