"""Battleship in OR-Tools CP-SAT's own terms, as a peer for scripts/bench-battleship-vs-cpsat.sh.

Not puzzlebench's model read back, but the model one would write for CP-SAT:

* one Boolean per ship placement (a length l with S_l > 0, a top-left cell, a direction;
  a one-cell ship has one placement per cell), leaving out the placements that the givens
  rule out: one that covers a given cell with another cell type than the given one (water
  included), or that has a given ship part among the eight cells around it;
* the fleet as one count per length, sum of the placements of length l == S_l: the ships
  of one length are interchangeable, so this is AddExactlyOne per ship with the symmetry
  between equal ships taken out entirely (--fleet ship keeps one per ship, below);
* the cell occupancy of a cell, the sum of the placements covering it; each given ship
  part as AddExactlyOne over the placements that cover it (all of the given type, after
  the filter above), a given water cell by leaving out every placement covering it;
* row and column sums as linear equalities over the occupancies (a placement counts with
  the number of its cells in the line);
* no touching, with occupancy at most 1 inside it: AddAtMostOne over the placements with a
  part in each 2x2 window of cells (1x2 or 2x1 windows on a grid of one row or column).
  Two ships touch, by an edge or a corner, exactly when some window holds parts of both.

One worker, as the puzzlebench side has one thread. --notouch, --fleet and --sums select
other forms, measured against this one on the four 30x20 puzzles, where this one was the
fastest: --notouch pairwise (a clause per pair of placements that overlap or touch),
--notouch halo (a Boolean per cell equal to its occupancy, each placement implying water
on the cells around it), --fleet ship (a Boolean per ship and placement, AddExactlyOne per
ship, equal ships ordered by placement index), --sums cells (the sums as cardinalities
over a Boolean per cell). Without the filter of placements next to a given ship part it
was about as fast; with an AddAtMostOne per cell on top of the windows, slower.

Reads puzzlebench's Battleship text format as src/puzzles/battleship/parse.rs does
(several puzzles per file, each from 'puzzle NAME'; 'level', 'fleet S1 S2 ...', 'rows',
'cols', a 'grid' block of givens: '.' unknown, '~' water, '<' '>' '^' 'v' ship ends, '+'
a middle part, 'o' a one-cell ship; a 'solution' block; '#' comments). A malformed file
stops the script, before any solve, with FILE:LINE: and what is wrong, and exit status 2.
For each puzzle it solves REPEATS times and prints a CSV row per solve: file, name (as
puzzlebench names the puzzle), grid (rows x columns, puzzlebench's size label), repeat,
status, CP-SAT's wall time, and whether the decoded grid keeps every rule, the givens and
the sums (checked here, apart from the model) and equals the file's solution if it has one.

    .venv/bin/python scripts/battleship_cpsat_native.py --repeats 3 FILE...
"""

import argparse
import os
import re
import sys

from ortools.sat.python import cp_model

WATER, LEFT, RIGHT, TOP, BOTTOM, MIDDLE, SINGLE = "~<>^v+o"
SYMBOLS = set("~<>^v+o")
KEYWORDS = ("puzzle", "level", "fleet", "rows", "cols", "grid", "solution")


class InputError(Exception):
    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


# ---------------------------------------------------------------------------------------
# Reading the text format (as src/puzzles/battleship/parse.rs).


def parse_cells(line, n):
    row = []
    for c in line:
        if c.isspace():
            continue
        if c == ".":
            row.append(None)
        elif c in SYMBOLS:
            row.append(c)
        else:
            raise ValueError(f"'{c}' is not a cell; use . ~ < > ^ v + o")
    if len(row) != n:
        raise ValueError(f"{len(row)} cells in this line; the grid has {n} columns")
    return row


def finish(path, d, stem):
    def err(message):
        return InputError(path, d["line"], message)

    for key in ("fleet", "rows", "cols"):
        if d.get(key) is None:
            raise err(f"this puzzle has no '{key}' line")
    fleet, rows, cols = d["fleet"], d["rows"], d["cols"]
    m, n = len(rows), len(cols)
    for i, r in enumerate(rows):
        if r > n:
            raise err(f"row {i + 1} asks for {r} ship parts but has {n} cells")
    for j, c in enumerate(cols):
        if c > m:
            raise err(f"column {j + 1} asks for {c} ship parts but has {m} cells")
    parts = sum((l + 1) * s for l, s in enumerate(fleet))
    if sum(rows) != sum(cols) or sum(rows) != parts:
        raise err(f"the sums disagree: rows add up to {sum(rows)}, columns to {sum(cols)}, "
                  f"and the fleet has {parts} ship parts")
    p = {
        "name": d.get("name") or stem,
        "fleet": fleet,
        "rows": rows,
        "cols": cols,
        "givens": d.get("givens") or [[None] * n for _ in range(m)],
        "solution": None,
    }
    if d.get("solution") is not None:
        at, grid = d["solution"]
        why = check(p, grid)
        if why:
            raise InputError(path, at, f"the solution does not solve the puzzle: {why}")
        p["solution"] = grid
    return p


def parse_file(path, text):
    stem = os.path.splitext(os.path.basename(path))[0]
    done, draft, block = [], None, None  # block: [kind, line of 'solution', cells]
    lines = text.splitlines()
    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if block is not None:
            m, n = len(draft["rows"]), len(draft["cols"])
            first = line.split()[0]
            if first in KEYWORDS:
                raise InputError(path, no, f"'{first}' after {len(block[2])} of {m} grid lines")
            try:
                block[2].append(parse_cells(line, n))
            except ValueError as e:
                raise InputError(path, no, str(e)) from None
            if len(block[2]) == m:
                kind, at, cells = block
                block = None
                if kind == "grid":
                    draft["givens"] = cells
                else:
                    for r, row in enumerate(cells):
                        if None in row:
                            raise InputError(path, at + 1 + r, "a solution may not hold unknown cells '.'")
                    draft["solution"] = (at, cells)
            continue
        content = line.split("#")[0].strip()
        parts = content.split(None, 1)
        key, rest = (parts[0], parts[1].strip() if len(parts) > 1 else "") if parts else ("", "")
        if key == "puzzle":
            if draft is not None:
                done.append(finish(path, draft, stem))
            if not rest:
                raise InputError(path, no, "'puzzle' needs a name")
            draft = {"line": no, "name": rest}
            continue
        if draft is None:
            draft = {"line": no}

        def numbers(what):
            if not rest:
                raise InputError(path, no, f"'{what}' needs at least one number")
            out = []
            for t in rest.split():
                if not re.fullmatch(r"\+?[0-9]+", t) or int(t) >= 2**32:
                    raise InputError(path, no, f"'{t}' in '{what}' is not a non-negative whole number")
                out.append(int(t))
            return out

        def once(what, field=None):
            if draft.get(field or what) is not None:
                raise InputError(path, no, f"'{what}' given twice for this puzzle")

        if key == "level":
            once("level")
            if not rest:
                raise InputError(path, no, "'level' needs a label")
            draft["level"] = rest
        elif key == "fleet":
            once("fleet")
            f = numbers("fleet")
            if not any(f):
                raise InputError(path, no, "the fleet has no ships")
            draft["fleet"] = f
        elif key in ("rows", "cols"):
            once(key)
            draft[key] = numbers(key)
        elif key in ("grid", "solution"):
            if draft.get("rows") is None or draft.get("cols") is None:
                raise InputError(path, no, f"'{key}' must come after 'rows' and 'cols'")
            if rest:
                raise InputError(path, no, f"'{key}' stands alone; its cells follow on the next lines")
            once(key, "givens" if key == "grid" else "solution")
            if key == "grid":
                draft["givens"] = []  # taken, so that a second 'grid' is an error
            block = [key, no, []]
        else:
            raise InputError(path, no, f"unknown line '{key}'; expected puzzle, level, fleet, rows, "
                                       "cols, grid or solution")
    if block is not None:
        raise InputError(path, len(lines), f"the file ends after {len(block[2])} of "
                                           f"{len(draft['rows'])} grid lines")
    if draft is not None:
        done.append(finish(path, draft, stem))
    if not done:
        raise InputError(path, 0, "no puzzle found (every line is blank or a comment)")
    names = sorted(p["name"] for p in done)
    for a, b in zip(names, names[1:]):
        if a == b:
            raise InputError(path, 0, f"two puzzles are named '{a}'")
    return done


# ---------------------------------------------------------------------------------------
# The rules, checked on a grid of cell symbols alone (no placements, nothing of the model).


def check(p, grid):
    """The first rule of puzzle p that grid breaks, or None."""
    m, n = len(p["rows"]), len(p["cols"])
    if len(grid) != m or any(len(r) != n for r in grid):
        return f"the grid is not {m}x{n}"
    for i in range(m):
        for j in range(n):
            g = p["givens"][i][j]
            if g is not None and grid[i][j] != g:
                return f"cell ({i + 1}, {j + 1}) is given as '{g}' but holds '{grid[i][j]}'"
    for i in range(m):
        have = sum(c != WATER for c in grid[i])
        if have != p["rows"][i]:
            return f"row {i + 1} has {have} ship parts, not {p['rows'][i]}"
    for j in range(n):
        have = sum(grid[i][j] != WATER for i in range(m))
        if have != p["cols"][j]:
            return f"column {j + 1} has {have} ship parts, not {p['cols'][j]}"
    owner = [[None] * n for _ in range(m)]
    lengths = {}
    for i in range(m):
        for j in range(n):
            if grid[i][j] == WATER or owner[i][j] is not None:
                continue
            group, stack = [], [(i, j)]
            owner[i][j] = (i, j)
            while stack:
                r, c = stack.pop()
                group.append((r, c))
                for a, b in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= a < m and 0 <= b < n and grid[a][b] != WATER and owner[a][b] is None:
                        owner[a][b] = (i, j)
                        stack.append((a, b))
            group.sort()
            same_row = all(r == group[0][0] for r, _ in group)
            same_col = all(c == group[0][1] for _, c in group)
            if not same_row and not same_col:
                return f"the ship parts around ({i + 1}, {j + 1}) do not form a straight ship"
            k = len(group)
            for q, (r, c) in enumerate(group):
                if k == 1:
                    want = SINGLE
                elif q == 0:
                    want = LEFT if same_row else TOP
                elif q == k - 1:
                    want = RIGHT if same_row else BOTTOM
                else:
                    want = MIDDLE
                if grid[r][c] != want:
                    return f"cell ({r + 1}, {c + 1}) of a ship of length {k} should be '{want}', not '{grid[r][c]}'"
            lengths[k] = lengths.get(k, 0) + 1
    for i in range(m - 1):
        for j in range(n):
            for jj in (j - 1, j + 1):
                if 0 <= jj < n:
                    a, b = owner[i][j], owner[i + 1][jj]
                    if a is not None and b is not None and a != b:
                        return f"ships touch diagonally at ({i + 1}, {j + 1}) and ({i + 2}, {jj + 1})"
    for l in range(1, max(len(p["fleet"]), max(lengths, default=0)) + 1):
        have = lengths.get(l, 0)
        want = p["fleet"][l - 1] if l <= len(p["fleet"]) else 0
        if have != want:
            return f"{have} ships of length {l} on the grid; the fleet has {want}"
    return None


# ---------------------------------------------------------------------------------------
# The model.


def placement_cells(row, col, length, vertical):
    """The cells of a placement with the cell type each shows."""
    out = []
    for q in range(length):
        r, c = (row + q, col) if vertical else (row, col + q)
        if length == 1:
            t = SINGLE
        elif q == 0:
            t = TOP if vertical else LEFT
        elif q == length - 1:
            t = BOTTOM if vertical else RIGHT
        else:
            t = MIDDLE
        out.append((r, c, t))
    return out


def placements(p):
    """The placements (length, cells) that the givens allow."""
    m, n, g = len(p["rows"]), len(p["cols"]), p["givens"]
    out = []
    for l0, count in enumerate(p["fleet"]):
        length = l0 + 1
        if count == 0:
            continue
        for row in range(m):
            for col in range(n):
                for vertical in ((False, True) if length > 1 else (False,)):
                    if (vertical and row + length > m) or (not vertical and col + length > n):
                        continue
                    cells = placement_cells(row, col, length, vertical)
                    if any(g[r][c] is not None and g[r][c] != t for r, c, t in cells):
                        continue
                    own = {(r, c) for r, c, _ in cells}
                    halo = {(r + dr, c + dc) for r, c, _ in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
                    if any(0 <= r < m and 0 <= c < n and (r, c) not in own and g[r][c] not in (None, WATER)
                           for r, c in halo):
                        continue
                    out.append((length, cells))
    return out


def solve(p, notouch="window", fleet="count", sums="placements"):
    m, n = len(p["rows"]), len(p["cols"])
    md = cp_model.CpModel()
    pl = placements(p)
    y = [md.new_bool_var(f"y{a}") for a in range(len(pl))]
    covering = [[[] for _ in range(n)] for _ in range(m)]
    for a, (_, cells) in enumerate(pl):
        for r, c, _ in cells:
            covering[r][c].append(a)

    # The fleet.
    for l0, count in enumerate(p["fleet"]):
        mine = [a for a, (length, _) in enumerate(pl) if length == l0 + 1]
        if fleet == "count" or count <= 1:
            md.add(cp_model.LinearExpr.sum([y[a] for a in mine]) == count)
            continue
        ships = [[md.new_bool_var(f"s{l0}_{k}_{a}") for a in mine] for k in range(count)]
        for x in ships:
            md.add_exactly_one(x)
        for q, a in enumerate(mine):
            md.add(y[a] == sum(x[q] for x in ships))
        index = [cp_model.LinearExpr.weighted_sum(x, list(range(len(mine)))) for x in ships]
        for k in range(count - 1):
            md.add(index[k] + 1 <= index[k + 1])

    # Occupancy, givens and sums.
    occ = [[cp_model.LinearExpr.sum([y[a] for a in covering[i][j]]) for j in range(n)] for i in range(m)]
    for i in range(m):
        for j in range(n):
            if p["givens"][i][j] not in (None, WATER):
                md.add_exactly_one([y[a] for a in covering[i][j]])
    if sums == "cells" or notouch == "halo":
        z = [[md.new_bool_var(f"z{i}_{j}") for j in range(n)] for i in range(m)]
        for i in range(m):
            for j in range(n):
                md.add(z[i][j] == occ[i][j])
    line = z if sums == "cells" else occ
    for i in range(m):
        md.add(cp_model.LinearExpr.sum([line[i][j] for j in range(n)]) == p["rows"][i])
    for j in range(n):
        md.add(cp_model.LinearExpr.sum([line[i][j] for i in range(m)]) == p["cols"][j])

    # No touching.
    if notouch == "window":
        for i in range(max(m - 1, 1)):
            for j in range(max(n - 1, 1)):
                inside = set()
                for r in range(i, min(i + 2, m)):
                    for c in range(j, min(j + 2, n)):
                        inside.update(covering[r][c])
                if len(inside) > 1:
                    md.add_at_most_one([y[a] for a in sorted(inside)])
    elif notouch == "pairwise":
        for i in range(m):
            for j in range(n):
                if len(covering[i][j]) > 1:
                    md.add_at_most_one([y[a] for a in covering[i][j]])
        for a, (_, cells) in enumerate(pl):
            own = {(r, c) for r, c, _ in cells}
            near = set()
            for r, c, _ in cells:
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        rr, cc = r + dr, c + dc
                        if 0 <= rr < m and 0 <= cc < n and (rr, cc) not in own:
                            near.update(b for b in covering[rr][cc] if b > a)
            for b in sorted(near):
                md.add_bool_or([~y[a], ~y[b]])
    elif notouch == "halo":
        for a, (_, cells) in enumerate(pl):
            own = {(r, c) for r, c, _ in cells}
            halo = {(r + dr, c + dc) for r, c, _ in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
            for r, c in sorted(halo - own):
                if 0 <= r < m and 0 <= c < n:
                    md.add_implication(y[a], ~z[r][c])
    else:
        raise ValueError(notouch)

    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    status = s.solve(md)
    ok = False
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        grid = [[WATER] * n for _ in range(m)]
        for a, (_, cells) in enumerate(pl):
            if s.value(y[a]):
                for r, c, t in cells:
                    grid[r][c] = t
        ok = check(p, grid) is None and (p["solution"] is None or grid == p["solution"])
    return s.status_name(status), s.wall_time, ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--notouch", choices=("window", "pairwise", "halo"), default="window")
    ap.add_argument("--fleet", choices=("count", "ship"), default="count")
    ap.add_argument("--sums", choices=("placements", "cells"), default="placements")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    puzzles = []
    try:
        for f in args.files:
            try:
                text = open(f).read()
            except OSError as e:
                raise InputError(f, 0, f"cannot read: {e.strerror}") from None
            puzzles += [(f, p) for p in parse_file(f, text)]
    except InputError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    print("file,name,grid,repeat,status,seconds,verified")
    for f, p in puzzles:
        for rep in range(1, args.repeats + 1):
            status, secs, ok = solve(p, args.notouch, args.fleet, args.sums)
            print(f"{f},{p['name']},{len(p['rows'])}x{len(p['cols'])},{rep},{status},{secs:.6f},{str(ok).lower()}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
