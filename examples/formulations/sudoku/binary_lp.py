"""The report's Sudoku model (3.1) in plain Python, written as CPLEX LP text with no
modelling library: python3 binary_lp.py INSTANCE_JSON MODEL_LP

It reads the instance in puzzlebench's JSON shape (docs/puzzles/sudoku.md) and writes the
same model as the built-in `binary` (src/puzzles/sudoku/binary.rs), row for row:

  cell_R_C_V  1 iff cell (R, C) holds the value V (the answer variables puzzlebench reads);
  rows: each value once per column, row and box (or jigsaw region), once per main
  diagonal in an X-Sudoku, each cell one value, each given fixed, and for a killer cage
  its sum and each value at most once in it. The objective is 0.
"""
import json
import sys


def expression(terms):
    """Terms (coefficient, variable) as LP text, ten to a line."""
    parts = [f"{'+' if c >= 0 else '-'} {abs(c):g} {v}" for c, v in terms]
    return "\n   ".join(" ".join(parts[i:i + 10]) for i in range(0, len(parts), 10))


def row(name, terms, sense, rhs):
    """One LP row."""
    return f" {name}: {expression(terms)} {sense} {rhs:g}\n"


def main(instance_path, model_path):
    with open(instance_path) as f:
        p = json.load(f)
    n, br, bc = p["size"], p["box_rows"], p["box_cols"]
    x = lambda i, j, k: f"cell_{i + 1}_{j + 1}_{k + 1}"  # 0-based cell and value
    rows = []
    for j in range(n):
        for k in range(n):
            rows.append(row(f"col_{j + 1}_{k + 1}", [(1, x(i, j, k)) for i in range(n)], "=", 1))
    for i in range(n):
        for k in range(n):
            rows.append(row(f"row_{i + 1}_{k + 1}", [(1, x(i, j, k)) for j in range(n)], "=", 1))
    if p["regions"] is None:
        for bi in range(bc):  # n / br boxes down
            for bj in range(br):  # n / bc boxes across
                for k in range(n):
                    cells = [(bi * br + di, bj * bc + dj) for di in range(br) for dj in range(bc)]
                    terms = [(1, x(i, j, k)) for i, j in cells]
                    rows.append(row(f"box_{bi + 1}_{bj + 1}_{k + 1}", terms, "=", 1))
    else:
        regions = {}
        for i in range(n):
            for j in range(n):
                regions.setdefault(p["regions"][i][j], []).append((i, j))
        for r in sorted(regions):
            for k in range(n):
                terms = [(1, x(i, j, k)) for i, j in regions[r]]
                rows.append(row(f"region_{r}_{k + 1}", terms, "=", 1))
    if p["diagonals"]:
        for d, cells in enumerate([[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]):
            for k in range(n):
                rows.append(row(f"diag_{d + 1}_{k + 1}", [(1, x(i, j, k)) for i, j in cells], "=", 1))
    for i in range(n):
        for j in range(n):
            rows.append(row(f"cell_{i + 1}_{j + 1}", [(1, x(i, j, k)) for k in range(n)], "=", 1))
    for i in range(n):
        for j in range(n):
            g = p["givens"][i][j]
            if g:
                rows.append(row(f"given_{i + 1}_{j + 1}", [(1, x(i, j, g - 1))], "=", 1))
    for c, cage in enumerate(p["cages"], start=1):
        cells = [(r - 1, col - 1) for r, col in cage["cells"]]
        terms = [(k + 1, x(i, j, k)) for i, j in cells for k in range(n)]
        rows.append(row(f"cagesum_{c}", terms, "=", cage["sum"]))
        for k in range(n):
            rows.append(row(f"cage_{c}_{k + 1}", [(1, x(i, j, k)) for i, j in cells], "<=", 1))
    names = [x(i, j, k) for i in range(n) for j in range(n) for k in range(n)]
    with open(model_path, "w") as out:
        out.write(f"\\ Sudoku {p['name']}: report (3.1) in plain Python\n")
        out.write("Minimize\n")
        # Objective 0, with a zero term per variable in the built-in model's column order
        # (a reader numbers the columns as they first appear).
        out.write(f" obj: {expression([(0, v) for v in names])}\n")
        out.write("Subject To\n")
        out.writelines(rows)
        out.write("Binaries\n")
        for i in range(0, len(names), 10):
            out.write(" " + " ".join(names[i:i + 10]) + "\n")
        out.write("End\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: binary_lp.py INSTANCE_JSON MODEL_LP")
    main(sys.argv[1], sys.argv[2])
