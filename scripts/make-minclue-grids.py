#!/usr/bin/env python3
"""Writes the small complete grids of instances/minclue/small: random valid 4x4 and 6x6
(2x3 boxes) Sudoku grids, filled cell by cell with shuffled values by backtracking from a
fixed seed, so the files can be made again:

    python3 scripts/make-minclue-grids.py

Their minimum clue counts are not written here: the tests find them by brute force.
`fill` is also what instances/minclue/ladder/make.py draws its grids with."""
import random
import pathlib

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
    out = pathlib.Path(__file__).resolve().parent.parent / "instances" / "minclue" / "small"
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2026)
    for name, (n, br, bc) in [("grid4_a", (4, 2, 2)), ("grid4_b", (4, 2, 2)),
                              ("grid6_a", (6, 2, 3)), ("grid6_b", (6, 2, 3)), ("grid6_c", (6, 2, 3))]:
        g = fill(n, br, bc, rng)
        (out / f"{name}.txt").write_text(
            f"# A random {n}x{n} grid ({br}x{bc} boxes), from scripts/make-minclue-grids.py (seed 2026).\n{g}\n")
        print(name, g)


if __name__ == "__main__":
    main()
