"""puzzlebench's Gurobi driver (engine `gurobi`, src/engines/gurobi.rs).

Run with the argument `probe` it prints the version line and ends. Otherwise one process
serves a run's solves. It prints {"kind": "hello", "version": ...} once gurobipy is
imported and its licence checked, then reads messages, one JSON object a line, on
standard input:

* {"op": "model", "mps": ..., "maximize": ...}: the path of the model as free MPS
  (columns named C0, C1, ... by position) and the objective's sense; it replaces the
  model held, which stays live (one Gurobi model) until the next "model";
* {"op": "rows", "rows": [[columns, coefficients, lower or null, upper or null], ...]}:
  rows added to the live model (row generation);
* {"op": "solve", "deadline": ..., "gap": ..., "seed": ..., "presolve": ...,
  "threads": ..., "timeline": ..., "lazy": ...}: solves the live model, the time limit
  being what is left until the deadline (Unix seconds). With "timeline" true a callback
  prints each incumbent ({"kind": "incumbent", "value": ...}) and the best bound as it
  improves ({"kind": "bound", ...}, at most every 20 ms), without the objective's
  constant. With "lazy" true, LazyConstraints is set (for that solve only) and at each
  new incumbent the callback first re-checks the lazy rows it already added (Gurobi may
  hand over a point that violates one), adding those violated again by cbLazy; if none
  is, it prints the point ({"kind": "solution", "values": ...}) and waits for
  puzzlebench's reply line ({"op": "reply", "more": true, "rows": [...]}), whose rows it
  adds by cbLazy (no rows: the point is a solution).
* {"op": "enumerate", ...}: enumerates the solutions of the live model (it has no
  objective) in one search: every incumbent is printed as a "solution" and cut off by the
  no-good row of the reply ("row"), added by cbLazy; "more": false stops the search.
  The answer is "optimal" when the search ended with every solution cut off or was
  stopped so, "infeasible" when it found none, "time_limit" when the limit stopped it.

The answer is one line {"kind": "answer", ...}: status in puzzlebench's words (a model the
licence will not take is "refused", with Gurobi's message and the model's size), Gurobi's
status, its Runtime, the best bound, nodes, lazy rows added ("cuts"), the values of the
columns, and the version (which names the licence: size-limited or full).
It ends when its standard input ends.
"""
import json
import os
import sys
import time


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


try:
    import gurobipy as gp
    from gurobipy import GRB
except ImportError as e:
    if sys.argv[1:] == ["probe"]:
        print(f"not installed: gurobipy ({e}); run scripts/setup-python.sh", file=sys.stderr)
        sys.exit(1)
    emit({"kind": "answer", "status": "error", "seconds": 0.0, "version": "",
          "message": f"not installed: gurobipy ({e}); run scripts/setup-python.sh"})
    sys.exit(0)

# Seconds between two bounds printed (the bound is printed with each incumbent too).
BOUND_EVERY = 0.02
# Gurobi's error numbers for a model too large for the licence and for licence failures.
SIZE_LIMIT_ERROR = 10010
LICENCE_ERRORS = (10009, 10030, 10032)


def start_env():
    """Gurobi's environment with output off, and the licence it runs under:
    ("size-limited" | "full", its banner line) or ("refused", Gurobi's message)."""
    read_end, write_end = os.pipe()
    saved = os.dup(1)
    sys.stdout.flush()
    os.dup2(write_end, 1)
    env = None
    error = None
    try:
        env = gp.Env(empty=True)
        env.setParam("OutputFlag", 1)
        env.start()
    except gp.GurobiError as e:
        error = f"{e} (Gurobi error {e.errno})"
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(write_end)
    banner = os.read(read_end, 1 << 16).decode(errors="replace").strip()
    os.close(read_end)
    if error is not None:
        return None, "refused", error
    env.setParam("OutputFlag", 0)
    # The size-limited licence refuses a model of 2,001 columns: ask it once.
    probe = gp.Model(env=env)
    probe.addVars(2001)
    kind = "full"
    try:
        probe.optimize()
    except gp.GurobiError as e:
        if e.errno != SIZE_LIMIT_ERROR:
            return None, "refused", f"{e} (Gurobi error {e.errno})"
        kind = "size-limited"
    probe.dispose()
    line = banner.splitlines()[0] if banner else ""
    return env, kind, line


ENV, LICENCE, LICENCE_TEXT = start_env()
GUROBI = "Gurobi {}.{}.{}".format(*gp.gurobi.version())
if LICENCE == "refused":
    VERSION = f"{GUROBI} (gurobipy {gp.__version__}; licence refused: {LICENCE_TEXT})"
else:
    expires = ""
    if "expires" in LICENCE_TEXT:
        expires = ", expires " + LICENCE_TEXT.split("expires", 1)[1].strip()
    VERSION = f"{GUROBI} (gurobipy {gp.__version__}; {LICENCE} licence{expires})"

if sys.argv[1:] == ["probe"]:
    print(VERSION)
    sys.exit(0)


def add_row(model, x, row, name, lazy=None):
    """Adds the row [columns, coefficients, lower, upper] to `model` (by cbLazy when
    `lazy` is the callback's model)."""
    idx, coefs, lo, hi = row
    expr = gp.LinExpr(coefs, [x[j] for j in idx])
    add = lazy.cbLazy if lazy is not None else (lambda c: model.addConstr(c, name=name))
    if lo is not None and hi is not None and lo == hi:
        add(expr == lo)
        return
    if lo is not None:
        add(expr >= lo)
    if hi is not None:
        add(expr <= hi)


def violated(row, values):
    idx, coefs, lo, hi = row
    a = sum(c * values[j] for j, c in zip(idx, coefs))
    return (lo is not None and a < lo - 1e-6) or (hi is not None and a > hi + 1e-6)


class Held:
    """The live model: Gurobi's model and its columns in model order."""

    def __init__(self, job):
        self.model = gp.read(job["mps"], env=ENV)
        self.model.ModelSense = GRB.MAXIMIZE if job["maximize"] else GRB.MINIMIZE
        by_name = {v.VarName: v for v in self.model.getVars()}
        self.x = [by_name[f"C{j}"] for j in range(len(by_name))]
        self.added = 0

    def add_rows(self, rows):
        for row in rows:
            add_row(self.model, self.x, row, f"added{self.added}")
            self.added += 1


class Search:
    """What the callback does in one solve: report incumbents and bounds, ask puzzlebench
    about each incumbent (lazy rows, enumeration)."""

    def __init__(self, held, timeline, lazy, enumerate_):
        self.held = held
        self.timeline = timeline
        self.lazy = lazy
        self.enumerate = enumerate_
        self.rows = []  # lazy rows added so far, re-checked at each incumbent
        self.cuts = 0
        self.reported = 0
        self.stopped = False
        self.last_bound = None
        self.printed_at = 0.0
        self.failure = None

    def bound(self, value, force):
        if value is None or abs(value) >= GRB.INFINITY or value == self.last_bound:
            return
        now = time.monotonic()
        if force or now - self.printed_at >= BOUND_EVERY:
            self.last_bound = value
            self.printed_at = now
            emit({"kind": "bound", "value": value})

    def ask(self, values):
        """Hands `values` over; the reply (a dict), or None once told to stop."""
        emit({"kind": "solution", "values": values})
        self.reported += 1
        reply = json.loads(sys.stdin.readline() or '{"more": false}')
        if not reply.get("more"):
            self.stopped = True
            return None
        return reply

    def __call__(self, model, where):
        try:
            self.callback(model, where)
        except Exception as e:  # a failure here must not pass for the solver's answer
            self.failure = f"driver callback failed: {type(e).__name__}: {e}"
            model.terminate()

    def callback(self, model, where):
        if where == GRB.Callback.MIPSOL:
            if self.lazy or self.enumerate:
                if self.stopped:
                    return
                values = model.cbGetSolution(self.held.x)
                if self.lazy:
                    again = [r for r in self.rows if violated(r, values)]
                    if again:
                        for r in again:
                            add_row(None, self.held.x, r, None, lazy=model)
                        return
                    reply = self.ask(values)
                    if reply is None:
                        model.terminate()
                        return
                    rows = reply.get("rows") or []
                    for r in rows:
                        add_row(None, self.held.x, r, None, lazy=model)
                    self.rows.extend(rows)
                    self.cuts += len(rows)
                    if rows:
                        return
                else:
                    reply = self.ask(values)
                    if reply is None or reply.get("row") is None:
                        self.stopped = True
                        model.terminate()
                        return
                    add_row(None, self.held.x, reply["row"], None, lazy=model)
                    self.cuts += 1
                    return
            if self.timeline:
                emit({"kind": "incumbent", "value": model.cbGet(GRB.Callback.MIPSOL_OBJ)})
                self.bound(model.cbGet(GRB.Callback.MIPSOL_OBJBND), True)
        elif where == GRB.Callback.MIP and self.timeline:
            self.bound(model.cbGet(GRB.Callback.MIP_OBJBND), False)


STATUS = {GRB.OPTIMAL: "optimal", GRB.INFEASIBLE: "infeasible", GRB.TIME_LIMIT: "time_limit"}


def size(model):
    return f"{model.NumVars:,} variables and {model.NumConstrs:,} rows"


def solve(held, job, enumerate_=False):
    model = held.model
    p = model.Params
    p.MIPGap = job.get("gap") or 0.0
    p.Seed = job.get("seed") or 0
    p.Presolve = -1 if job.get("presolve", True) else 0
    p.Threads = job.get("threads") or 1
    lazy = bool(job.get("lazy"))
    p.LazyConstraints = 1 if (lazy or enumerate_) else 0
    # An enumeration keeps every solution: nothing cut off by dual arguments. Set on every
    # solve, since the model is live and an INF_OR_UNBD answer below switches them off.
    p.DualReductions = 0 if enumerate_ else 1
    deadline = job.get("deadline")
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return {"status": "time_limit", "solver_status": "not started", "seconds": 0.0}
        p.TimeLimit = left
    else:
        p.TimeLimit = GRB.INFINITY
    search = Search(held, bool(job.get("timeline")), lazy, enumerate_)
    model.reset(1)  # every solve starts from scratch: no tree or solution of the last
    try:
        if search.timeline or lazy or enumerate_:
            model.optimize(search)
        else:
            model.optimize()
    except gp.GurobiError as e:
        if e.errno == SIZE_LIMIT_ERROR:
            return {"status": "refused", "solver_status": f"error {e.errno}", "seconds": 0.0,
                    "message": f"the {LICENCE} licence takes 2,000 variables and 2,000 rows; "
                               f"this model has {size(model)} ({e})"}
        if e.errno in LICENCE_ERRORS:
            return {"status": "refused", "solver_status": f"error {e.errno}", "seconds": 0.0,
                    "message": f"licence refused: {e}"}
        raise
    status = model.Status
    if status == GRB.INF_OR_UNBD:
        p.DualReductions = 0
        model.optimize()
        status = model.Status
    answer = {"solver_status": str(status), "seconds": model.Runtime, "cuts": search.cuts}
    if model.IsMIP:
        answer["nodes"] = int(model.NodeCount)
    if search.failure is not None:
        answer.update(status="error", message=search.failure)
        return answer
    if model.SolCount > 0 and not enumerate_:
        answer["values"] = model.getAttr("X", held.x)
    if enumerate_:
        if search.stopped or (status == GRB.INFEASIBLE and search.reported > 0):
            answer["status"] = "optimal"
        else:
            answer["status"] = STATUS.get(status, "error")
    elif lazy and search.stopped:
        answer["status"] = "time_limit"
    elif status == GRB.INTERRUPTED:
        answer["status"] = "time_limit"
    else:
        answer["status"] = STATUS.get(status, "error")
    if answer["status"] == "error":
        answer["message"] = f"Gurobi ended with status {status}"
    if model.IsMIP and status in (GRB.OPTIMAL, GRB.TIME_LIMIT) and not enumerate_:
        bound = model.ObjBound
        if abs(bound) < GRB.INFINITY:
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
            if LICENCE == "refused" and op in ("solve", "enumerate"):
                answer = {"status": "refused", "seconds": 0.0,
                          "message": f"licence refused: {LICENCE_TEXT}"}
            elif op == "model":
                held = Held(job)
                continue
            elif op == "rows":
                held.add_rows(job["rows"])
                continue
            else:
                answer = solve(held, job, enumerate_=(op == "enumerate"))
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
