"""Nonograms in OR-Tools CP-SAT's own terms, as a peer for scripts/bench-nonogram-vs-cpsat.sh.

Not puzzlebench's model: one 0/1 variable per cell and one AddAutomaton constraint per row
and column, whose automaton accepts exactly the lines that meet the clue (states: "t runs
done, the last closed" and "inside run t, c cells read"). One worker, as the puzzlebench
side has one thread.

Reads Simon Tatham's Pattern game IDs (one per line) and webpbn .non files (bundles of
several between '====' lines too, named 'stem:K' as puzzlebench names them). For each puzzle
it solves REPEATS times and prints a CSV row per solve: file, name (as puzzlebench names
the puzzle: the file's stem, with ':LINE' in a file of game IDs), grid (width x height),
repeat, status, CP-SAT's wall time, and whether the grid meets every clue (checked here).

    .venv/bin/python scripts/nonogram_cpsat_native.py --repeats 3 FILE...
"""

import argparse
import os
import sys

from ortools.sat.python import cp_model


def parse_pattern(line):
    params, desc = line.split(":", 1)
    w, _, h = params.partition("x")
    w, h = int(w), int(h or w)
    groups = desc.split(",")[0].split("/")
    clues = [[int(x) for x in g.split(".")] if g else [] for g in groups]
    return clues[w:], clues[:w]


def parse_non(text):
    lines = [l.strip() for l in text.splitlines()]
    w = h = None
    rows = cols = None
    k = 0
    while k < len(lines):
        key, _, rest = lines[k].partition(" ")
        if key == "width":
            w = int(rest)
        elif key == "height":
            h = int(rest)
        elif key in ("rows", "columns"):
            n = h if key == "rows" else w
            block = []
            for line in lines[k + 1 : k + 1 + n]:
                hints = [int("".join(c for c in x if c.isdigit())) for x in line.split(",") if x.strip()]
                block.append([x for x in hints if x > 0])
            if key == "rows":
                rows = block
            else:
                cols = block
            k += n
        k += 1
    return rows, cols


def automaton(clue):
    """States numbered 0..; transitions (state, value, next); accepting states."""
    ids = {}

    def sid(s):
        return ids.setdefault(s, len(ids))

    trans = []
    k = len(clue)
    todo = [("gap", 0)]
    seen = set()
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        kind, t = s[0], s[1]
        nexts = []
        if kind == "gap":
            nexts.append((0, ("gap", t)))
            if t < k:
                nexts.append((1, ("blk", t, 1)))
        else:
            c = s[2]
            if c < clue[t]:
                nexts.append((1, ("blk", t, c + 1)))
            else:
                nexts.append((0, ("gap", t + 1)))
        for v, n in nexts:
            trans.append((sid(s), v, sid(n)))
            todo.append(n)
    finals = [sid(("gap", k))]
    if k:
        finals.append(sid(("blk", k - 1, clue[-1])))
    return trans, finals


def runs(line):
    out, r = [], 0
    for b in line:
        if b:
            r += 1
        elif r:
            out.append(r)
            r = 0
    if r:
        out.append(r)
    return out


def solve(rows, cols):
    h, w = len(rows), len(cols)
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{i}_{j}") for j in range(w)] for i in range(h)]
    for i, clue in enumerate(rows):
        trans, finals = automaton(clue)
        m.AddAutomaton(x[i], 0, finals, trans)
    for j, clue in enumerate(cols):
        trans, finals = automaton(clue)
        m.AddAutomaton([x[i][j] for i in range(h)], 0, finals, trans)
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    status = s.Solve(m)
    ok = False
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        g = [[s.Value(v) for v in row] for row in x]
        ok = all(runs(g[i]) == rows[i] for i in range(h)) and all(
            runs([g[i][j] for i in range(h)]) == cols[j] for j in range(w)
        )
    return s.StatusName(status), s.WallTime(), ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    print("file,name,grid,repeat,status,seconds,verified")
    for f in args.files:
        text = open(f).read()
        stem = os.path.splitext(os.path.basename(f))[0]
        if any(l.split()[:1] == ["width"] for l in text.splitlines() if l.strip()):
            # A bundle of .non puzzles between '====' lines: named stem:1, stem:2, ...
            chunks = [[]]
            for l in text.splitlines():
                if l.strip() == "====":
                    chunks.append([])
                else:
                    chunks[-1].append(l)
            name = (lambda n: stem) if len(chunks) == 1 else (lambda n: f"{stem}:{n}")
            puzzles = [(name(n), parse_non("\n".join(c))) for n, c in enumerate(chunks, 1)]
        else:
            puzzles = [
                (f"{stem}:{n}", parse_pattern(l.strip()))
                for n, l in enumerate(text.splitlines(), 1)
                if l.strip() and not l.startswith("#")
            ]
        for name, (rows, cols) in puzzles:
            for rep in range(1, args.repeats + 1):
                status, secs, ok = solve(rows, cols)
                print(f"{f},{name},{len(cols)}x{len(rows)},{rep},{status},{secs:.6f},{str(ok).lower()}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
