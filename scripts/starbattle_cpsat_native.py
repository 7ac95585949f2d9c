"""Star Battle in OR-Tools CP-SAT's own terms, as a peer for scripts/bench-starbattle-vs-cpsat.sh.

Not puzzlebench's model read back: one Boolean per cell, linear equalities for m stars per
row, column and region, AddAtMostOne over each cell's neighbourhood window (the 2x2
windows), written as one would write them for CP-SAT. One worker, as the puzzlebench side
has one thread.

Reads puzzlebench's Star Battle text format ('starbattle M', then a line of region
characters per row, '.' outside every region, an optional 'solution' block). For each file
it solves REPEATS times and prints a CSV row per solve: file, name (the file's stem, as
puzzlebench names the puzzle), grid, repeat, status, CP-SAT's wall time, and whether the
grid keeps every rule (checked here).

    .venv/bin/python scripts/starbattle_cpsat_native.py --repeats 3 FILE...
"""

import argparse
import os
import sys

from ortools.sat.python import cp_model


def parse(text):
    lines = [l.split("#")[0].strip() for l in text.splitlines()]
    lines = [l for l in lines if l]
    m = int(lines[0].split()[1])
    rows = []
    for l in lines[1:]:
        if l == "solution":
            break
        rows.append(l)
    return m, rows


def check(m, rows, g):
    h, w = len(rows), len(rows[0])
    if any(sum(r) != m for r in g) or any(sum(g[i][j] for i in range(h)) != m for j in range(w)):
        return False
    per = {}
    for i in range(h):
        for j in range(w):
            if g[i][j]:
                if rows[i][j] == ".":
                    return False
                per[rows[i][j]] = per.get(rows[i][j], 0) + 1
                for a in range(max(0, i - 1), min(h, i + 2)):
                    for b in range(max(0, j - 1), min(w, j + 2)):
                        if (a, b) != (i, j) and g[a][b]:
                            return False
    regions = {c for r in rows for c in r if c != "."}
    return all(per.get(c, 0) == m for c in regions)


def solve(m, rows):
    h, w = len(rows), len(rows[0])
    md = cp_model.CpModel()
    x = [[md.NewBoolVar(f"x{i}_{j}") for j in range(w)] for i in range(h)]
    for i in range(h):
        md.Add(sum(x[i]) == m)
    for j in range(w):
        md.Add(sum(x[i][j] for i in range(h)) == m)
    regions = {}
    for i in range(h):
        for j in range(w):
            if rows[i][j] == ".":
                md.Add(x[i][j] == 0)
            else:
                regions.setdefault(rows[i][j], []).append(x[i][j])
    for cells in regions.values():
        md.Add(sum(cells) == m)
    for i in range(h - 1):
        for j in range(w - 1):
            md.AddAtMostOne([x[i][j], x[i + 1][j], x[i][j + 1], x[i + 1][j + 1]])
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    status = s.Solve(md)
    ok = False
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        g = [[s.Value(v) for v in r] for r in x]
        ok = check(m, rows, g)
    return s.StatusName(status), s.WallTime(), ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    print("file,name,grid,repeat,status,seconds,verified")
    for f in args.files:
        m, rows = parse(open(f).read())
        name = os.path.splitext(os.path.basename(f))[0]
        for rep in range(1, args.repeats + 1):
            status, secs, ok = solve(m, rows)
            print(f"{f},{name},{len(rows[0])}x{len(rows)} m={m},{rep},{status},{secs:.6f},{str(ok).lower()}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
