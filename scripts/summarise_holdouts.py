"""Summary of scripts/bench-cpsat-holdouts.sh: per instance, the median seconds of
puzzlebench's fixed configuration (OUT/ours.csv) and of its CP-SAT peer (the native models
in OUT/native_*.csv and, for Battleship, the `cpsat` engine's `gbm` and `cbm` rows in
OUT/cpsat.csv, the fastest of them per puzzle), their ratio, and whether ours is ahead:
a median below 0.9 times the peer's. For the five 40x40 Battleships: the median over the
five of each side's per-puzzle medians, and the largest per-puzzle ratio (at most 2 asked).
A run that did not solve or whose answer was not verified counts as infinitely slow.

    python3 scripts/summarise_holdouts.py results/cpsat-holdouts
"""

import csv
import glob
import math
import statistics
import sys

TARGETS = ["hard_30x20_1", "hard_30x20_2", "hard_30x20_3", "sb_25x25_m6_s1", "sb_25x25_m6_s2", "16", "529"]
FORTY = [f"hard_40x40_{s}" for s in range(1, 6)]


def main():
    out = sys.argv[1]
    ours, peers, names = {}, {}, {}
    for r in csv.DictReader(open(f"{out}/ours.csv")):
        ok = r["status"] == "optimal" and r["verified"] == "true"
        names[r["instance"]] = f"{r['formulation']} on {r['backend']}"
        ours.setdefault(r["instance"], []).append(float(r["seconds"]) if ok else math.inf)
    try:
        for r in csv.DictReader(open(f"{out}/cpsat.csv")):
            ok = r["status"] == "optimal" and r["verified"] == "true"
            side = f"{r['formulation']} on cpsat"
            peers.setdefault(r["instance"], {}).setdefault(side, []).append(float(r["seconds"]) if ok else math.inf)
    except FileNotFoundError:
        pass
    for path in sorted(glob.glob(f"{out}/native_*.csv")):
        for r in csv.DictReader(open(path)):
            ok = r["status"] in ("OPTIMAL", "FEASIBLE") and r["verified"] == "true"
            peers.setdefault(r["name"], {}).setdefault("own model", []).append(float(r["seconds"]) if ok else math.inf)

    def best_peer(name):
        sides = {s: statistics.median(v) for s, v in peers.get(name, {}).items()}
        if not sides:
            return None, math.nan
        side = min(sides, key=sides.get)
        return side, sides[side]

    def ms(x):
        return "—" if math.isnan(x) else ("inf" if math.isinf(x) else f"{x * 1000:.1f}")

    print(f"{'instance':<16} {'ours':<18} {'runs':>4} {'ours ms':>9} {'peer':<14} {'peer ms':>9} {'ratio':>6}  ahead")
    rows = {}
    for name in sorted(ours, key=lambda n: (n not in TARGETS, n)):
        o = statistics.median(ours[name])
        side, p = best_peer(name)
        ratio = o / p if p and not math.isnan(p) else math.nan
        rows[name] = (o, p, ratio)
        ahead = "yes" if ratio < 0.9 else "no"
        print(f"{name:<16} {names[name]:<18} {len(ours[name]):>4} {ms(o):>9} {side or '—':<14} {ms(p):>9} {ratio:>6.2f}  {ahead}")
    forty = [rows[n] for n in FORTY if n in rows]
    if forty:
        o = statistics.median(r[0] for r in forty)
        p = statistics.median(r[1] for r in forty)
        worst = max(r[2] for r in forty)
        print(f"\n40x40 Battleships ({len(forty)}): median of medians ours {ms(o)} ms, peer {ms(p)} ms, "
              f"ratio {o / p:.2f} ({'ahead' if o / p < 0.9 else 'not ahead'}); largest per-puzzle ratio "
              f"{worst:.2f} ({'within' if worst <= 2 else 'over'} 2)")
    met = [n for n in TARGETS if n in rows and rows[n][2] < 0.9]
    print(f"\nahead (below 0.9x the peer) on {len(met)} of {len([n for n in TARGETS if n in rows])} named instances: {', '.join(met) or 'none'}")


if __name__ == "__main__":
    main()
