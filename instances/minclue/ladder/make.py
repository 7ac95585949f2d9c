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
    ("latin5_ladder.txt", (5, 1, 5), 14, 15),
]


def _fill():
    """`fill` of scripts/make-minclue-grids.py: one random complete grid by backtracking."""
    import importlib.util
    path = HERE.parent.parent.parent / "scripts" / "make-minclue-grids.py"
    spec = importlib.util.spec_from_file_location("make_minclue_grids", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fill


fill = _fill()


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
