#!/usr/bin/env python3
"""Makes unique rectangular Star Battle puzzles (h rows, w columns; R stars per row, C per
column, K per region) by trying random region maps: `regions` seeds grown at random into
connected regions, kept when `puzzlebench count --limit 2` (window model, SAT engine)
finds exactly one solution. The built-in generator makes square puzzles only.

usage: scripts/make-rectangular-starbattle.py H W R C K SEED OUT
"""
import random
import subprocess
import sys
import tempfile

h, w, r, c, k, seed = map(int, sys.argv[1:7])
out = sys.argv[7]
if h * r != w * c or (h * r) % k:
    sys.exit(f"the stars do not add up: {h}x{r} vs {w}x{c}, regions of {k}")
regions = h * r // k
rng = random.Random(seed)
pb = "target/release/puzzlebench"
letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

for attempt in range(1, 100001):
    grid = [[None] * w for _ in range(h)]
    cells = [(i, j) for i in range(h) for j in range(w)]
    for n, (i, j) in enumerate(rng.sample(cells, regions)):
        grid[i][j] = n
    while True:
        options = [(i, j, grid[a][b]) for i in range(h) for j in range(w) if grid[i][j] is None
                   for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
                   if 0 <= a < h and 0 <= b < w and grid[a][b] is not None]
        if not options:
            break
        i, j, n = rng.choice(options)
        grid[i][j] = n
    text = f"starbattle {r} {c} {k}\n" + "".join(
        "".join(letters[x] for x in row) + "\n" for row in grid)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    res = subprocess.run([pb, "count", f.name, "--puzzle", "starbattle", "--backend", "sat",
                          "--limit", "2", "--show"], capture_output=True, text=True)
    if "1 solution: unique" in res.stdout:
        solution = res.stdout.splitlines()[1:1 + h]
        with open(out, "w") as o:
            o.write(f"# scripts/make-rectangular-starbattle.py {' '.join(sys.argv[1:7])} OUT "
                    f"(attempt {attempt})\n{text}solution\n" + "\n".join(solution) + "\n")
        print(f"{out}: unique after {attempt} attempts")
        break
else:
    sys.exit("no unique puzzle found")
