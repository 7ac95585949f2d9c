"""The report's grid-based Battleship model (GBM, report (4.1)) written in PuLP, as a
formulation outside Rust: python3 gbm_pulp.py INSTANCE_JSON MODEL_LP

It reads the instance in puzzlebench's JSON shape (docs/puzzles/battleship.md) and writes
the model as CPLEX LP. The model is the built-in `gbm` (src/puzzles/battleship/gbm.rs)
row for row, in the same order, plus the answer variables puzzlebench reads:

  y_L_R_C_V   1 iff the ship of length L with its top or left end at (R, C) is placed,
              running down (V = 1) or across (V = 0);
  ship_R_C    1 iff cell (R, C) holds part of a ship, defined by the row
              link_R_C: ship_R_C = sum of the y that cover (R, C).

So it has the built-in model's rows, columns and nonzeros plus, for an m x n grid, m*n
columns, m*n rows and m*n + (the cells of all placements) nonzeros.
"""
import json
import sys

import pulp


def placements(rows, cols, fleet):
    """Every placement that fits, by length, then position, across before down."""
    out = []
    for length, count in enumerate(fleet, start=1):
        if count == 0:
            continue
        for r in range(rows):
            for c in range(cols):
                if c + length <= cols:
                    out.append((length, r, c, False))
                if length > 1 and r + length <= rows:
                    out.append((length, r, c, True))
    return out


def cells(placement):
    """The cells of a placement (0-based) with the symbol of the part there."""
    length, r, c, down = placement
    for k in range(length):
        if length == 1:
            symbol = "o"
        elif k == 0:
            symbol = "^" if down else "<"
        elif k == length - 1:
            symbol = "v" if down else ">"
        else:
            symbol = "+"
        yield (r + k, c, symbol) if down else (r, c + k, symbol)


def main(instance_path, model_path):
    with open(instance_path) as f:
        p = json.load(f)
    m, n = p["rows"], p["cols"]
    all_placements = placements(m, n, p["fleet"])
    prob = pulp.LpProblem("battleship_gbm_pulp", pulp.LpMinimize)
    y = [
        pulp.LpVariable(f"y_{L}_{r + 1}_{c + 1}_{int(d)}", cat="Binary")
        for (L, r, c, d) in all_placements
    ]
    cover = {(i, j): [] for i in range(m) for j in range(n)}
    for a, pl in enumerate(all_placements):
        for (i, j, symbol) in cells(pl):
            cover[i, j].append((a, symbol))
    # (4.1b) givens: a given part is covered by one placement with that part there; a
    # given water cell by none.
    for (r, c, symbol) in p["givens"]:
        here = cover[r - 1, c - 1]
        if symbol == "~":
            if here:
                prob += pulp.lpSum(y[a] for a, _ in here) == 0, f"given_{r}_{c}"
        else:
            prob += pulp.lpSum(y[a] for a, s in here if s == symbol) == 1, f"given_{r}_{c}"
    # (4.1c), (4.1d) row and column sums, a placement weighted by its cells there.
    for i in range(m):
        terms = [y[a] for j in range(n) for a, _ in cover[i, j]]
        prob += pulp.lpSum(terms) == p["row_sums"][i], f"row_{i + 1}"
    for j in range(n):
        terms = [y[a] for i in range(m) for a, _ in cover[i, j]]
        prob += pulp.lpSum(terms) == p["col_sums"][j], f"col_{j + 1}"
    # (4.1e) at most one placement with a part in each 2x2 window (1x2 or 2x1 on a grid
    # of one row or column); windows that fewer than two placements reach are left out.
    for i in range(max(m - 1, 1)):
        for j in range(max(n - 1, 1)):
            reach = []
            for r in range(i, min(i + 2, m)):
                for c in range(j, min(j + 2, n)):
                    for a, _ in cover[r, c]:
                        if a not in reach:
                            reach.append(a)
            if len(reach) > 1:
                prob += pulp.lpSum(y[a] for a in reach) <= 1, f"touch_{i + 1}_{j + 1}"
    # (4.1f) the fleet.
    for length, count in enumerate(p["fleet"], start=1):
        if count:
            same = [y[a] for a, pl in enumerate(all_placements) if pl[0] == length]
            prob += pulp.lpSum(same) == count, f"fleet_{length}"
    # The answer variables and their rows.
    ship = []
    for i in range(m):
        for j in range(n):
            ship.append(pulp.LpVariable(f"ship_{i + 1}_{j + 1}", cat="Binary"))
            covering = pulp.lpSum(y[a] for a, _ in cover[i, j])
            prob += ship[-1] - covering == 0, f"link_{i + 1}_{j + 1}"
    # A feasibility problem: objective 0, written with a zero term per variable, in the
    # built-in model's column order (a reader numbers the columns as they first appear,
    # so the columns come in the same order as the built-in's, the answer layer last);
    # and so that PuLP adds no column of its own (it writes a fixed `__dummy` column for
    # an empty objective).
    prob.setObjective(pulp.LpAffineExpression([(v, 0) for v in y + ship]))
    prob.writeLP(model_path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: gbm_pulp.py INSTANCE_JSON MODEL_LP")
    main(sys.argv[1], sys.argv[2])
