#!/usr/bin/env bash
# Nonogram givens: the fewest givens against the greedy rule's, on the same pictures.
# A benchmark, not a test.
#
#   scripts/bench-nonogram-givens.sh                 # random pictures 10x10 to 50x50, and the smiley
#   SIZES="20 30" SMILEY="" scripts/bench-nonogram-givens.sh
#
# Pictures: for each size N in SIZES, the twenty random pictures of
# instances/nonogram-givens/random/random_NxN.non (the same command made them without
# givens); for each size S in SMILEY, the test picture tests/data/nonogram/smiley.png by
# the squares method (its integer program at a 60 s limit, so each run of this script may
# draw a slightly different picture: it is written once and used for both sides).
# `generate nonogram --givens greedy` writes each picture with the greedy rule's givens;
# `run --puzzle nonogram-givens` (rowgen-plain on hitset, 600 s) then proves the fewest
# givens of the same picture, the file's givens being only its first upper bound. Output
# in results/nonogram-givens/: the files, the runs' CSV, and a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES-10 20 30 40 50}
SMILEY=${SMILEY-20 25 30 35}
OUT=results/nonogram-givens
cargo build --release --quiet
PB=target/release/puzzlebench
rm -rf "$OUT"
mkdir -p "$OUT/pictures"
for n in $SIZES; do
    "$PB" generate nonogram --method random --size "${n}x${n}" --seed 1 --count 20 \
        --givens greedy --unique-time 0 --out "$OUT/pictures/random_${n}x${n}.non"
done
for n in $SMILEY; do
    "$PB" generate nonogram --method squares --image tests/data/nonogram/smiley.png \
        --size "${n}x${n}" --squares-time 60 --givens greedy --unique-time 0 \
        --out "$OUT/pictures/smiley_squares_${n}x${n}.non"
done
"$PB" run --puzzle nonogram-givens --formulation rowgen-plain --backend hitset \
    --time-limit 600 --jobs 1 --quiet --instances "$OUT/pictures" --out "$OUT/runs.csv" > /dev/null
python3 - "$OUT" <<'EOF'
import csv, statistics, sys
out = sys.argv[1]
groups = {}
for r in csv.DictReader(open(f"{out}/runs.csv")):
    info = dict(kv.split("=", 1) for kv in r["instance_info"].split(";") if "=" in kv)
    kind = "smiley (squares)" if r["instance"].startswith("smiley") else "random"
    groups.setdefault((kind, float(r["size"] or 0), r["size_label"]), []).append(
        (r["status"], r["verified"], float(r["objective"] or "nan"), int(info.get("start", 0)),
         float(r["seconds"] or 0) + float(r["build_seconds"] or 0)))
table = ["| pictures | size | n | proved | minimum: mean (median, max) | greedy: mean (median, max) | greedy above the minimum | most saved | slowest proof (s) |",
         "|---|---|---:|---:|---|---|---:|---:|---:|"]
for (kind, _, label), rs in sorted(groups.items()):
    proved = [r for r in rs if r[0] == "optimal" and r[1] == "true"]
    mins = [r[2] for r in proved]
    greedy = [r[3] for r in proved]
    fmt = lambda v: f"{statistics.mean(v):.2f} ({statistics.median(v):g}, {max(v):g})" if v else "–"
    table.append(f"| {kind} | {label} | {len(rs)} | {len(proved)} | {fmt(mins)} | {fmt(greedy)} | "
                 f"{sum(g > m for m, g in zip(mins, greedy))} | "
                 f"{max((g - m for m, g in zip(mins, greedy)), default=0):g} | {max(r[4] for r in rs):.2f} |")
open(f"{out}/givens.md", "w").write("\n".join(table) + "\n")
print("\n".join(table))
EOF
