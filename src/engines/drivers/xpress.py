"""puzzlebench's FICO Xpress driver (engine `xpress`, src/engines/licensed.rs).

Run with the argument `probe` it prints the version line and ends. Otherwise one process
serves a run's solves. It prints {"kind": "hello", "version": ...} once xpress is
imported and its licence known, then reads messages, one JSON object a line, on standard
input (the protocol of the gurobi driver, without its callbacks):

* {"op": "model", "mps": ..., "maximize": ...}: the path of the model as free MPS
  (columns named C0, C1, ... by position) and the objective's sense; it replaces the
  model held, which stays live until the next "model";
* {"op": "rows", "rows": [[columns, coefficients, lower or null, upper or null], ...]}:
  rows added to the live model (row generation);
* {"op": "solve", "deadline": ..., "gap": ..., "seed": ..., "presolve": ...,
  "threads": ...}: solves the live model, the time limit being what is left until the
  deadline (Unix seconds).

The answer is one line {"kind": "answer", ...}: status in puzzlebench's words (a model
the licence will not take is "refused", with Xpress's message and the model's size),
Xpress's status, its solve time, the best bound, nodes, the values of the columns, and
the version (which names the licence: the size-limited community licence or full). It
ends when its standard input ends.
"""
import json
import sys
import time
import warnings
from importlib import metadata


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


try:
    warnings.simplefilter("ignore")  # the community licence's LicenseWarning
    import xpress as xp
except ImportError as e:
    if sys.argv[1:] == ["probe"]:
        print(f"not installed: xpress ({e}); run scripts/setup-python.sh", file=sys.stderr)
        sys.exit(1)
    emit({"kind": "answer", "status": "error", "seconds": 0.0, "version": "",
          "message": f"not installed: xpress ({e}); run scripts/setup-python.sh"})
    sys.exit(0)

# The community licence's limit: rows and columns together.
LIMIT = 5000


def problem():
    p = xp.problem()
    p.controls.outputlog = 0
    return p


def licence():
    """("size-limited" | "full" | "refused", why): the community licence refuses a model
    of LIMIT + 1 columns."""
    try:
        p = problem()
        p.addVariables(LIMIT + 1, vartype=xp.binary)
    except Exception as e:  # no licence at all
        return "refused", str(e).strip()
    try:
        p.optimize()
    except xp.SolverError as e:
        if "too many" in str(e):
            return "size-limited", ""
        return "refused", str(e).strip()
    return "full", ""


LICENCE, WHY = licence()
if LICENCE == "size-limited":
    TERMS = "size-limited licence: community licence, 5,000 rows and columns together"
elif LICENCE == "full":
    TERMS = "full licence"
else:
    TERMS = f"licence refused: {WHY}"
VERSION = (f"Xpress {metadata.version('xpress')} (optimizer {xp.getVersion()}; {TERMS})")

if sys.argv[1:] == ["probe"]:
    print(VERSION)
    sys.exit(0)


class Held:
    """The live model: Xpress's problem and its columns in model order."""

    def __init__(self, job):
        self.p = problem()
        self.p.readProb(job["mps"])
        self.p.chgObjSense(xp.maximize if job["maximize"] else xp.minimize)
        n = self.p.attributes.cols
        names = self.p.getNameList(2, 0, n - 1) if n else []
        index = {name: i for i, name in enumerate(names)}
        self.x = [index[f"C{j}"] for j in range(n)]
        self.mip = self.p.attributes.mipents > 0

    def add_rows(self, rows):
        types, rhs, rng, start, cols, coefs = [], [], [], [0], [], []
        for idx, cs, lo, hi in rows:
            if lo is not None and hi is not None:
                if lo == hi:
                    types.append("E"), rhs.append(hi), rng.append(0.0)
                else:
                    types.append("R"), rhs.append(hi), rng.append(hi - lo)
            elif lo is not None:
                types.append("G"), rhs.append(lo), rng.append(0.0)
            elif hi is not None:
                types.append("L"), rhs.append(hi), rng.append(0.0)
            else:
                continue
            cols.extend(self.x[j] for j in idx)
            coefs.extend(cs)
            start.append(len(cols))
        if types:
            self.p.addRows(types, rhs, rng, start[:-1], cols, coefs)

    def size(self):
        a = self.p.attributes
        return f"{a.cols:,} columns and {a.rows:,} rows, {a.cols + a.rows:,} together"


def solve(held, job):
    p = held.p
    c = p.controls
    c.threads = job.get("threads") or 1
    c.randomseed = (job.get("seed") or 0) % (2**31 - 1)
    c.presolve = 1 if job.get("presolve", True) else 0
    c.miprelstop = job.get("gap") or 0.0
    deadline = job.get("deadline")
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return {"status": "time_limit", "solver_status": "not started", "seconds": 0.0}
        c.timelimit = left
    else:
        c.timelimit = 1e20  # none (its default)
    started = time.monotonic()
    try:
        solvestatus, solstatus = p.optimize()
    except xp.SolverError as e:
        if "too many" in str(e):
            return {"status": "refused", "solver_status": "error", "seconds": 0.0,
                    "message": f"the {LICENCE} licence takes 5,000 rows and columns together; "
                               f"this model has {held.size()} ({str(e).strip()})"}
        raise
    seconds = time.monotonic() - started
    a = p.attributes
    answer = {"solver_status": f"{solvestatus.name} {solstatus.name} (stop {a.stopstatus})",
              "seconds": seconds}
    if held.mip:
        answer["nodes"] = int(a.nodes)
    if solvestatus == xp.SolveStatus.COMPLETED and solstatus == xp.SolStatus.OPTIMAL:
        answer["status"] = "optimal"
    elif solvestatus == xp.SolveStatus.COMPLETED and solstatus == xp.SolStatus.INFEASIBLE:
        answer["status"] = "infeasible"
    elif solvestatus == xp.SolveStatus.STOPPED and a.stopstatus == xp.StopType.TIMELIMIT:
        answer["status"] = "time_limit"
    elif a.stopstatus == xp.StopType.MIPGAP and solstatus == xp.SolStatus.FEASIBLE:
        answer["status"] = "optimal"  # within the gap asked for, as Gurobi says it
    else:
        answer["status"] = "error"
        answer["message"] = f"Xpress ended with {answer['solver_status']}"
    if solstatus in (xp.SolStatus.OPTIMAL, xp.SolStatus.FEASIBLE):
        values = p.getSolution()
        answer["values"] = [values[i] for i in held.x]
    if held.mip and answer["status"] in ("optimal", "time_limit"):
        bound = a.bestbound
        if abs(bound) < 1e40:
            answer["bound"] = bound
    return answer


def main():
    emit({"kind": "hello", "version": VERSION})
    held = None
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        job = json.loads(line)
        op = job["op"]
        try:
            if LICENCE == "refused" and op == "solve":
                answer = {"status": "refused", "seconds": 0.0,
                          "message": f"licence refused: {WHY}"}
            elif op == "model":
                held = Held(job)
                continue
            elif op == "rows":
                held.add_rows(job["rows"])
                continue
            elif op == "solve":
                answer = solve(held, job)
            else:
                answer = {"status": "error", "seconds": 0.0,
                          "message": f"the xpress driver has no '{op}'"}
        except Exception as e:  # a bug here must not pass for the solver's answer
            if op not in ("solve", "enumerate"):
                held = None
                continue
            answer = {"status": "error", "seconds": 0.0,
                      "message": f"driver failed: {type(e).__name__}: {e}"}
        answer["kind"] = "answer"
        answer["version"] = VERSION
        emit(answer)


main()
