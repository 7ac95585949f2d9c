"""CP-SAT (OR-Tools, one worker) on the MPS files puzzlebench exported, beside the `sat`
engine's rows of the same puzzles: median solver seconds per puzzle on each side and
their ratio. Called by scripts/bench-sat-vs-cpsat.sh; standard library and ortools only.

CP-SAT's time is its own `wall_time` (presolve and search, the model already loaded);
puzzlebench's is the row's `seconds` (the CNF encoding and CaDiCaL's search, the model
already built). Each CP-SAT solve gets a new solver object.
"""

import argparse
import csv
import os
import statistics
import sys

from ortools.linear_solver.python import model_builder


def cpsat_seconds(path, repeats):
    """The wall times of `repeats` CP-SAT solves of one MPS file, and its status."""
    model = model_builder.Model()
    if not model.import_from_mps_file(path):
        sys.exit(f"{path}: CP-SAT's model builder could not read it")
    times, status = [], None
    for _ in range(repeats):
        solver = model_builder.Solver("sat")
        solver.set_solver_specific_parameters("num_workers:1")
        status = solver.solve(model)
        if status != model_builder.SolveStatus.OPTIMAL:
            sys.exit(f"{path}: CP-SAT ended {status}")
        times.append(solver.wall_time)
    return times, status


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--sat", required=True, help="puzzlebench results CSV of the sat runs")
    ap.add_argument("--out", required=True, help="comparison CSV to write")
    ap.add_argument("mps", nargs="+")
    args = ap.parse_args()

    sat = {}
    with open(args.sat, newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "optimal" or row["verified"] != "true":
                sys.exit(f"{args.sat}: run {row['instance']} ended {row['status']}: {row['error']}")
            sat.setdefault(row["instance"].split(":")[0], []).append(float(row["seconds"]))

    rows = []
    for path in args.mps:
        name = os.path.splitext(os.path.basename(path))[0]
        if name not in sat:
            sys.exit(f"{args.sat}: no sat rows for {name}")
        times, _ = cpsat_seconds(path, args.repeats)
        s, c = statistics.median(sat[name]), statistics.median(times)
        rows.append((name, len(sat[name]), s, len(times), c, c / s))

    with open(args.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["puzzle", "sat_runs", "sat_median_s", "cpsat_runs", "cpsat_median_s", "cpsat_over_sat"])
        for r in rows:
            w.writerow([r[0], r[1], f"{r[2]:.6f}", r[3], f"{r[4]:.6f}", f"{r[5]:.2f}"])

    print(f"{'puzzle':30} {'sat median ms':>14} {'CP-SAT median ms':>17} {'CP-SAT / sat':>13}")
    for r in rows:
        print(f"{r[0]:30} {r[2] * 1e3:14.3f} {r[4] * 1e3:17.3f} {r[5]:13.2f}")
    all_sat = statistics.median([r[2] for r in rows])
    all_cp = statistics.median([r[4] for r in rows])
    print(f"{'median over puzzles':30} {all_sat * 1e3:14.3f} {all_cp * 1e3:17.3f} {all_cp / all_sat:13.2f}")
    print(f"({len(rows)} puzzles, {args.repeats} repeats each side; written to {args.out})")


if __name__ == "__main__":
    main()
