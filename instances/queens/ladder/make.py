#!/usr/bin/env python3
"""Writes the n-Queens ladder instances of instances/queens/ladder/ (see the README's
"Ladder" section), so the files can be made again:

    python3 instances/queens/ladder/make.py [--puzzlebench target/release/puzzlebench]

* base/NNxNN_wW/bNN_wW_sS.txt: boards of side N with W walls on distinct cells drawn
  uniformly at random (Python's random.Random seeded with S; a board equal to one already
  drawn is skipped, the seed going on), in the committed format of instances/queens/boards/.
  Each board's value (the most queens) is proved with puzzlebench's `base` model on the
  SAT engine and written as `value V`; a board whose value is not proved within
  --value-time seconds is written without it.
* least/NxN/qQQ_NxN.txt: the least-walls question for Q queens on the empty N x N board, in
  the format of instances/queens/least/ (`queens N`, `target Q`), every Q from N + 1 up to
  ceil(N/2)^2 (no two queens can stand on adjacent cells, so no larger Q has an answer).
* least/NxN/qQQ_NxN_w1_sS.txt: the same with one wall given (a cell drawn with
  random.Random(S), the next draw when the target cannot be reached with it); the model
  counts the given wall among the walls.
  The fewest walls is proved with the `least-walls` model on the SAT engine and written as
  `least-walls W` when proved within --value-time seconds.

Files that exist are left as they are."""
import argparse
import json
import pathlib
import random
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent

# (side, walls, seeds): one board per seed
BASE = [
    (9, 3, range(1, 9)),
    (10, 4, range(1, 8)),
    (12, 5, range(1, 8)),
]
# least-walls on the empty board: side -> targets
LEAST = {5: range(6, 10), 6: range(7, 10), 7: range(8, 17)}
# least-walls with one wall given: (side, target, seed)
LEAST_WALLED = ([(5, q, 1) for q in range(6, 10)]
                + [(6, q, s) for q in range(7, 10) for s in (1, 2)]
                + [(7, q, 1) for q in range(9, 13)])


def solve(pb, path, formulation, limit):
    """The proved optimum of `path` on the SAT engine, or None."""
    out = subprocess.run(
        [pb, "solve", "--puzzle", "queens", "--formulation", formulation,
         "--backend", "sat", "--time-limit", str(limit), "--format", "json", str(path)],
        capture_output=True, text=True, cwd=ROOT)
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            if d["status"] == "optimal" and d["objective"] is not None:
                return round(d["objective"])
    return None


def infeasible(pb, path, limit):
    """Whether the SAT engine proves `path` has no least-walls answer."""
    out = subprocess.run(
        [pb, "solve", "--puzzle", "queens", "--formulation", "least-walls",
         "--backend", "sat", "--time-limit", str(limit), "--format", "json", str(path)],
        capture_output=True, text=True, cwd=ROOT)
    return any(line.startswith("{") and json.loads(line)["status"] == "infeasible"
               for line in out.stdout.splitlines())


def board(n, walls, seed, seen):
    rng = random.Random(seed)
    while True:
        cells = tuple(sorted(rng.sample(range(n * n), walls)))
        if (n, cells) not in seen:
            seen.add((n, cells))
            return cells


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--puzzlebench", default=str(ROOT / "target/release/puzzlebench"))
    ap.add_argument("--value-time", type=float, default=60)
    a = ap.parse_args()
    seen = set()
    for n, w, seeds in BASE:
        d = HERE / "base" / f"{n:02d}x{n:02d}_w{w}"
        d.mkdir(parents=True, exist_ok=True)
        for s in seeds:
            cells = board(n, w, s, seen)
            f = d / f"b{n:02d}_w{w}_s{s}.txt"
            if f.exists():
                continue
            rows = [["."] * n for _ in range(n)]
            for c in cells:
                rows[c // n][c % n] = "X"
            where = " ".join(f"{c // n + 1},{c % n + 1}" for c in cells)
            head = (f"# walls (row,column from 1): {where}\n"
                    f"# random walls: instances/queens/ladder/make.py, side {n}, {w} walls, seed {s}\n")
            body = "".join("".join(r) + "\n" for r in rows)
            f.write_text(head + f"queens {n}\n" + body)
            v = solve(a.puzzlebench, f, "base", a.value_time)
            if v is not None:
                f.write_text(head + f"queens {n}\nvalue {v}\n" + body)
            print(f, "value", v)
    for n, targets in LEAST.items():
        d = HERE / "least" / f"{n}x{n}"
        d.mkdir(parents=True, exist_ok=True)
        for q in targets:
            f = d / f"q{q:02d}_{n}x{n}.txt"
            if f.exists():
                continue
            head = (f"# {q} queens on the empty {n}x{n} board: the fewest walls "
                    f"(instances/queens/ladder/make.py)\n")
            f.write_text(head + f"queens {n}\ntarget {q}\n")
            v = solve(a.puzzlebench, f, "least-walls", a.value_time)
            if v is not None:
                f.write_text(head + f"queens {n}\ntarget {q}\nleast-walls {v}\n")
            print(f, "least-walls", v)
    for n, q, s in LEAST_WALLED:
        d = HERE / "least" / f"{n}x{n}"
        d.mkdir(parents=True, exist_ok=True)
        f = d / f"q{q:02d}_{n}x{n}_w1_s{s}.txt"
        if f.exists():
            continue
        rng = random.Random(s)
        while True:
            c = rng.randrange(n * n)
            rows = [["."] * n for _ in range(n)]
            rows[c // n][c % n] = "X"
            head = (f"# {q} queens on the {n}x{n} board with a wall at (row,column from 1) "
                    f"{c // n + 1},{c % n + 1}: the fewest walls, the given one counted "
                    f"(instances/queens/ladder/make.py, seed {s})\n")
            body = "".join("".join(r) + "\n" for r in rows)
            f.write_text(head + f"queens {n}\ntarget {q}\n" + body)
            v = solve(a.puzzlebench, f, "least-walls", a.value_time)
            if v is None and infeasible(a.puzzlebench, f, a.value_time):
                continue
            if v is not None:
                f.write_text(head + f"queens {n}\ntarget {q}\nleast-walls {v}\n" + body)
            print(f, "least-walls", v)
            break


if __name__ == "__main__":
    main()
