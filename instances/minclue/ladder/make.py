#!/usr/bin/env python3
"""Writes the minimum-clue ladder grids of instances/minclue/ladder/ (see the README's
"Ladder" section), so the files can be made again:

    python3 instances/minclue/ladder/make.py

Random complete grids, filled cell by cell with shuffled values by backtracking (as
scripts/make-minclue-grids.py does) from a fixed seed per file; a grid equal to one drawn
before, or to one of instances/minclue/small/, is skipped. One grid per line with its box
shape (`box=RxC`); box=1xN makes the grid a Latin square (every box is a row). Files that
exist are left as they are."""
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent
SMALL = HERE.parent / "small"

# file, (side, box rows, box columns), grids, seed
FILES = [
    ("grid4_ladder.txt", (4, 2, 2), 8, 4),
    ("latin4_ladder.txt", (4, 1, 4), 8, 14),
    ("grid6_ladder.txt", (6, 2, 3), 9, 6),
]


def fill(n, br, bc, rng):
    grid = [0] * (n * n)

    def ok(k, v):
        i, j = divmod(k, n)
        for t in range(n):
            if grid[i * n + t] == v or grid[t * n + j] == v:
                return False
        bi, bj = i // br * br, j // bc * bc
        return all(grid[(bi + a) * n + bj + b] != v for a in range(br) for b in range(bc))

    def go(k):
        if k == n * n:
            return True
        vals = list(range(1, n + 1))
        rng.shuffle(vals)
        for v in vals:
            if ok(k, v):
                grid[k] = v
                if go(k + 1):
                    return True
                grid[k] = 0
        return False

    assert go(0)
    return "".join(str(v) for v in grid)


def main():
    seen = set()
    for f in SMALL.glob("*.txt"):
        for line in f.read_text().splitlines():
            if line and not line.startswith("#"):
                seen.add(line.split()[0])
    for name, (n, br, bc), count, seed in FILES:
        out = HERE / name
        if out.exists():
            continue
        rng = random.Random(seed)
        grids = []
        while len(grids) < count:
            g = fill(n, br, bc, rng)
            if g not in seen:
                seen.add(g)
                grids.append(g)
        kind = "Latin squares" if br == 1 else f"Sudoku grids ({br}x{bc} boxes)"
        out.write_text(
            f"# {count} random {n}x{n} {kind}, from instances/minclue/ladder/make.py (seed {seed}).\n"
            + "".join(f"{g} box={br}x{bc}\n" for g in grids))
        print(out)


if __name__ == "__main__":
    main()
