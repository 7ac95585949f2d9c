"""KenKen in OR-Tools CP-SAT's own terms, as a peer for scripts/bench-kenken-vs-cpsat.sh.

Not puzzlebench's model: a value variable v[i][j] in 1..n per cell, AddAllDifferent on every
row and column, and each cage as CP-SAT writes it best: a linear sum (+), a multiplication
equality (x), an absolute-value equality (-), a table of allowed pairs (/), a fixed value
(a one-cell cage). One worker, as the puzzlebench side has one thread.

Reads Simon Tatham's Keen game IDs (one per line) or puzzlebench's KenKen text format
('kenken N' then 'TARGET[OP] r1c1 ...'). For each puzzle it solves REPEATS times and prints a
CSV row per solve: file, puzzle index, repeat, status, CP-SAT's wall time, and whether the
grid meets every rule (checked here by exact arithmetic).

    .venv/bin/python scripts/kenken_cpsat_native.py --repeats 5 FILE...
"""

import argparse
import re
import sys

from ortools.sat.python import cp_model


def keen_blocks(spec, w):
    """Cage of each cell from Keen's block structure (keen.c's reader: a repeat count may
    follow a letter; 'y' is 25 open edges without a wall)."""
    parent = list(range(w * w))

    def root(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    pos, k = 0, 0
    while k < len(spec):
        ch = spec[k]
        k += 1
        n_open = 0 if ch == "_" else ord(ch) - ord("a") + 1
        start = k
        while k < len(spec) and spec[k].isdigit():
            k += 1
        repeat = int(spec[start:k]) if k > start else 1
        for _ in range(repeat):
            for _ in range(n_open):
                if pos < w * (w - 1):
                    y, x = divmod(pos, w - 1)
                    p0, p1 = y * w + x, y * w + x + 1
                else:
                    x, y = pos // (w - 1) - w, pos % (w - 1)
                    p0, p1 = y * w + x, (y + 1) * w + x
                a, b = root(p0), root(p1)
                parent[max(a, b)] = min(a, b)
                pos += 1
            if n_open != 25:
                pos += 1
    assert pos == 2 * w * (w - 1) + 1, "bad block structure"
    return [root(c) for c in range(w * w)]


def parse_keen(line):
    params, desc = line.split(":", 1)
    w = int(re.match(r"\d+", params).group())
    blocks, clues = desc.split(",", 1)
    owner = keen_blocks(blocks, w)
    order, members = [], {}
    for cell, r in enumerate(owner):
        if r not in members:
            members[r] = []
            order.append(r)
        members[r].append(divmod(cell, w))
    cages, k = [], 0
    for r in order:
        op = {"a": "+", "m": "*", "s": "-", "d": "/"}[clues[k]]
        k += 1
        start = k
        while k < len(clues) and clues[k].isdigit():
            k += 1
        cells = members[r]
        cages.append(("=" if len(cells) == 1 else op, int(clues[start:k]), cells))
    return w, cages


def parse_text(text):
    n, cages = None, []
    for raw in text.splitlines():
        line = raw.split("#")[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] == "kenken":
            n = int(words[1])
            continue
        clue = words[0]
        digits = len(clue) - len(clue.lstrip("0123456789"))
        target, op = int(clue[:digits]), clue[digits:] or "="
        op = {"x": "*", "X": "*"}.get(op, op)
        cells = []
        for c in words[1:]:
            r, col = c.lower()[1:].split("c")
            cells.append((int(r) - 1, int(col) - 1))
        cages.append(("=" if len(cells) == 1 else op, target, cells))
    return n, cages


def solve(n, cages):
    m = cp_model.CpModel()
    v = [[m.NewIntVar(1, n, f"v{i}_{j}") for j in range(n)] for i in range(n)]
    for i in range(n):
        m.AddAllDifferent(v[i])
        m.AddAllDifferent([v[r][i] for r in range(n)])
    for op, t, cells in cages:
        xs = [v[i][j] for i, j in cells]
        if op == "=":
            m.Add(xs[0] == t)
        elif op == "+":
            m.Add(sum(xs) == t)
        elif op == "*":
            m.AddMultiplicationEquality(t, xs)
        elif op == "-":
            m.AddAbsEquality(t, xs[0] - xs[1])
        elif op == "/":
            pairs = [(a, a * t) for a in range(1, n + 1) if a * t <= n]
            m.AddAllowedAssignments(xs, pairs + [(b, a) for a, b in pairs])
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    status = s.Solve(m)
    ok = status in (cp_model.OPTIMAL, cp_model.FEASIBLE) and check(
        n, cages, [[s.Value(x) for x in row] for row in v]
    )
    return s.StatusName(status), s.WallTime(), ok


def check(n, cages, g):
    """The grid against the rules, by exact integer arithmetic."""
    full = set(range(1, n + 1))
    if any(set(row) != full for row in g) or any({g[r][c] for r in range(n)} != full for c in range(n)):
        return False
    for op, t, cells in cages:
        xs = [g[i][j] for i, j in cells]
        prod = 1
        for x in xs:
            prod *= x
        if not {
            "=": xs[0] == t,
            "+": sum(xs) == t,
            "*": prod == t,
            "-": len(xs) == 2 and abs(xs[0] - xs[1]) == t,
            "/": len(xs) == 2 and max(xs) == t * min(xs),
        }[op]:
            return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    print("file,puzzle,repeat,status,seconds,verified")
    for f in args.files:
        text = open(f).read()
        if any(l.split("#")[0].strip().startswith("kenken") for l in text.splitlines()):
            puzzles = [parse_text(text)]
        else:
            puzzles = [parse_keen(l.strip()) for l in text.splitlines() if l.strip() and not l.startswith("#")]
        for k, (n, cages) in enumerate(puzzles, 1):
            for rep in range(1, args.repeats + 1):
                status, secs, ok = solve(n, cages)
                print(f"{f},{k},{rep},{status},{secs:.6f},{str(ok).lower()}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
