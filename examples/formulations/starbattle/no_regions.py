"""A deliberately WRONG Star Battle model, to show the verifier at work:
python3 no_regions.py INSTANCE_JSON MODEL_MPS

It writes free MPS with no modelling library. Variables: star_R_C = 1 iff cell (R, C)
holds a star (the answer variables puzzlebench reads). Rows: the stars of every row and
every column, and no two stars touching (side by side, one above the other, or corner to
corner); but the family of region rows (each region holds its stars) is left out. The
model's solutions are then star placements that ignore the regions, and puzzlebench's
verifier, which knows the rules and not this model, says which region is wrong.

(Leaving out the corner no-touch rows instead is a subtler slip, but on the smallest
committed puzzle, 5x5 with one star, HiGHS happens to find the true answer anyway; the
verifier caught it on the other 24.)
"""
import json
import sys


def main(instance_path, model_path):
    with open(instance_path) as f:
        p = json.load(f)
    h, w, regions = p["rows"], p["cols"], p["regions"]
    star = lambda i, j: f"star_{i + 1}_{j + 1}"  # 0-based cell
    rows = []  # (name, sense, rhs, cells)
    for i in range(h):
        rows.append((f"row_{i + 1}", "E", p["row_stars"], [(i, j) for j in range(w)]))
    for j in range(w):
        rows.append((f"col_{j + 1}", "E", p["col_stars"], [(i, j) for i in range(h)]))
    # The region rows are missing here, on purpose.
    for i in range(h):
        for j in range(w):
            for a, b in [(i, j + 1), (i + 1, j - 1), (i + 1, j), (i + 1, j + 1)]:
                if a < h and 0 <= b < w:
                    rows.append((f"touch_{i + 1}_{j + 1}_{a + 1}_{b + 1}", "L", 1, [(i, j), (a, b)]))
    column = {}  # cell -> the rows it is in
    for name, _, _, cells in rows:
        for c in cells:
            column.setdefault(c, []).append(name)
    with open(model_path, "w") as out:
        out.write(f"NAME {p['name']}_no_regions\nROWS\n N obj\n")
        for name, sense, _, _ in rows:
            out.write(f" {sense} {name}\n")
        out.write("COLUMNS\n M1 'MARKER' 'INTORG'\n")
        for i in range(h):
            for j in range(w):
                out.write(f" {star(i, j)} obj 0\n")
                for name in column.get((i, j), []):
                    out.write(f" {star(i, j)} {name} 1\n")
        out.write(" M2 'MARKER' 'INTEND'\nRHS\n")
        for name, _, rhs, _ in rows:
            out.write(f" rhs {name} {rhs}\n")
        out.write("BOUNDS\n")
        for i in range(h):
            for j in range(w):
                # A cell outside every region (region 0) takes no star.
                upper = 0 if regions[i][j] == 0 else 1
                out.write(f" UP bnd {star(i, j)} {upper}\n")
        out.write("ENDATA\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: no_regions.py INSTANCE_JSON MODEL_MPS")
    main(sys.argv[1], sys.argv[2])
