"""Summary of a benchmark against CP-SAT (scripts/bench-nonogram-vs-cpsat.sh,
scripts/bench-starbattle-vs-cpsat.sh): reads OUT/puzzlebench.csv (puzzlebench's rows) and
OUT/native.csv (CP-SAT on its own model: name, grid, status, seconds, verified) and prints,
per grid and side (and for all grids together, first), the number of puzzles, the median
over the puzzles of each puzzle's median time, the largest of those medians, and on how
many puzzles the side's median is below CP-SAT's on its own model. A run that did not
solve or whose grid was not verified counts as infinitely slow.

    python3 scripts/summarise_vs_cpsat.py results/nonogram-vs-cpsat
"""

import csv
import statistics
import sys


def main():
    out = sys.argv[1]
    groups = {}  # (grid, side) -> puzzle -> seconds
    for r in csv.DictReader(open(f"{out}/puzzlebench.csv")):
        side = f"{r['formulation']} on {r['backend']}"
        ok = r["status"] == "optimal" and r["verified"] == "true"
        seconds = float(r["seconds"]) if ok else float("inf")
        groups.setdefault((r["size_label"], side), {}).setdefault(r["instance"], []).append(seconds)
    for r in csv.DictReader(open(f"{out}/native.csv")):
        ok = r["status"] in ("OPTIMAL", "FEASIBLE") and r["verified"] == "true"
        seconds = float(r["seconds"]) if ok else float("inf")
        groups.setdefault((r["grid"], "CP-SAT own model"), {}).setdefault(r["name"], []).append(seconds)

    def median_of_medians(per):
        return statistics.median(statistics.median(v) for v in per.values())

    # Every grid together, as a grid named 'all'.
    for (grid, side), per in list(groups.items()):
        groups.setdefault(("all", side), {}).update(per)
    peer = {k[0]: {p: statistics.median(v) for p, v in per.items()} for k, per in groups.items() if k[1] == "CP-SAT own model"}

    print(f"{'grid':<12} {'side':<24} {'puzzles':>7} {'median ms':>10} {'max of medians ms':>18} {'ahead of CP-SAT':>16}")
    for (grid, side), per in sorted(groups.items(), key=lambda kv: (kv[0][0] != "all", kv[0][0], median_of_medians(kv[1]))):
        meds = {p: statistics.median(v) for p, v in per.items()}
        theirs = peer.get(grid, {})
        ahead = sum(1 for p, m in meds.items() if p in theirs and m < theirs[p])
        print(f"{grid:<12} {side:<24} {len(meds):>7} {1000 * statistics.median(meds.values()):>10.2f} "
              f"{1000 * max(meds.values()):>18.2f} {ahead:>9} of {len(meds):<3}")


if __name__ == "__main__":
    main()
