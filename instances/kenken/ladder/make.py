#!/usr/bin/env python3
"""Writes the KenKen ladder puzzles larger than Keen's 9x9 (instances/kenken/ladder/NxN/,
see the README's "Ladder" section), so the files can be made again:

    python3 instances/kenken/ladder/make.py [PUZZLEBENCH]

PUZZLEBENCH is the puzzlebench binary (default target/release/puzzlebench), used only to
keep the unique puzzles (`puzzlebench count --limit 2`, combinations on sat).

Each puzzle: a random Latin square (rows drawn one at a time as a random perfect matching
of columns to the symbols still free in them, which a Latin rectangle always has), then
cages grown in Keen's manner from random cells over free neighbours to a drawn size
(1 cell 4 %, 2 cells 46 %, 3 cells 35 %, 4 cells 15 %), each cage's clue computed from
the square: a two-cell cage takes - or / (when the quotient is whole) or + or x, a larger
one + or x. Seeds run from each size's first seed up; a puzzle with a second solution is
dropped. Files that exist are left as they are."""
import pathlib
import random
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent

# folder, side, puzzles, first seed
SIZES = [("14x14", 14, 10, 1400), ("15x15", 15, 10, 1500), ("16x16", 16, 10, 1600)]


def latin_square(n, rng):
    rows = []
    used = [set() for _ in range(n)]  # symbols used in each column
    for _ in range(n):
        # Random perfect matching column -> symbol, by augmenting paths in random order.
        match_sym = {}  # symbol -> column
        cols = list(range(n))
        rng.shuffle(cols)

        def augment(c, seen):
            syms = [s for s in range(1, n + 1) if s not in used[c]]
            rng.shuffle(syms)
            for s in syms:
                if s in seen:
                    continue
                seen.add(s)
                if s not in match_sym or augment(match_sym[s], seen):
                    match_sym[s] = c
                    return True
            return False

        for c in cols:
            assert augment(c, set())
        row = [0] * n
        for s, c in match_sym.items():
            row[c] = s
            used[c].add(s)
        rows.append(row)
    return rows


def cages(n, rng):
    owner = [[None] * n for _ in range(n)]
    groups = []
    cells = [(i, j) for i in range(n) for j in range(n)]
    rng.shuffle(cells)
    for start in cells:
        if owner[start[0]][start[1]] is not None:
            continue
        r = rng.random()
        size = 1 if r < 0.04 else 2 if r < 0.50 else 3 if r < 0.85 else 4
        g = [start]
        owner[start[0]][start[1]] = len(groups)
        while len(g) < size:
            free = [(a + da, b + db) for a, b in g for da, db in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= a + da < n and 0 <= b + db < n and owner[a + da][b + db] is None]
            if not free:
                break
            c = rng.choice(sorted(set(free)))
            owner[c[0]][c[1]] = len(groups)
            g.append(c)
        groups.append(sorted(g))
    return groups


def puzzle(n, rng):
    sq = latin_square(n, rng)
    lines = [f"kenken {n}"]
    for g in cages(n, rng):
        vals = [sq[i][j] for i, j in g]
        where = " ".join(f"r{i + 1}c{j + 1}" for i, j in g)
        if len(g) == 1:
            lines.append(f"{vals[0]} {where}")
            continue
        ops = ["+", "*"]
        if len(g) == 2:
            hi, lo = max(vals), min(vals)
            ops += ["-", "-"] + (["/", "/"] if hi % lo == 0 else [])
        op = rng.choice(ops)
        if op == "+":
            t = sum(vals)
        elif op == "*":
            t = 1
            for v in vals:
                t *= v
        elif op == "-":
            t = hi - lo
        else:
            t = hi // lo
        lines.append(f"{t}{op} {where}")
    return "\n".join(lines) + "\n"


def unique(pb, text):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    out = subprocess.run([pb, "count", "--puzzle", "kenken", "--formulation", "combinations",
                          "--backend", "sat", "--limit", "2", "--time-limit", "60", f.name],
                         capture_output=True, text=True)
    pathlib.Path(f.name).unlink()
    if out.returncode != 0:
        return False
    return "1 solution" in out.stdout and "2 solution" not in out.stdout


def main():
    pb = sys.argv[1] if len(sys.argv) > 1 else "target/release/puzzlebench"
    for folder, n, count, first in SIZES:
        d = HERE / folder
        d.mkdir(exist_ok=True)
        made = len(list(d.glob("*.txt")))
        seed = first
        while made < count:
            name = d / f"kk{n}_s{seed}.txt"
            if not name.exists():
                text = puzzle(n, random.Random(seed))
                if unique(pb, text):
                    name.write_text(
                        f"# instances/kenken/ladder/make.py: side {n}, seed {seed}; unique "
                        "(puzzlebench count --limit 2)\n" + text)
                    made += 1
                    print(name)
                else:
                    print(f"seed {seed}: not unique, skipped", file=sys.stderr)
            seed += 1


if __name__ == "__main__":
    main()
