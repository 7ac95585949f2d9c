"""puzzlebench's Gurobi driver (engine `gurobi`, gurobi.toml beside it): Gurobi's part of
the protocol, which puzzlebench_driver serves (the messages, hello, answers, failures,
the version probe). Its version names the licence (size-limited or full); a licence
Gurobi refuses answers every solve "refused".

* model: read into one Gurobi model, which stays live until the next "model"; rows are
  added to it (row generation).
* solve: solves the live model from scratch, the time limit what is left until the
  deadline. With "timeline" true a callback reports each incumbent and the best bound as
  it improves (at most every 20 ms), without the objective's constant. With "lazy" true,
  LazyConstraints is set (for that solve only) and at each new incumbent the callback
  hands it over for lazy rows (puzzlebench_driver.LazyRows), added by cbLazy.
* enumerate: enumerates the solutions of the live model (it has no objective) in one
  search: every incumbent is handed over and cut off by the no-good row of the reply,
  added by cbLazy; a stop ends the search. The answer is "optimal" when the search ended
  with every solution cut off or was stopped so, "infeasible" when it found none,
  "time_limit" when the limit stopped it.

The answer: status in puzzlebench's words (a model the licence will not take is
"refused", with Gurobi's message and the model's size), Gurobi's status, its Runtime, the
best bound, nodes, lazy rows added ("cuts") and the values of the columns.
"""
import os
import sys

import puzzlebench_driver as pb

try:
    import gurobipy as gp
    from gurobipy import GRB
except ImportError as e:
    pb.not_installed("gurobipy", e)

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


class Search:
    """What the callback does in one solve: report incumbents and bounds, hand each
    incumbent over (lazy rows, enumeration)."""

    def __init__(self, x, timeline, lazy, enumerate_):
        self.x = x
        self.timeline = pb.Timeline() if timeline else None
        self.lazy = pb.LazyRows() if lazy else None
        self.enumeration = pb.Enumeration() if enumerate_ else None
        self.cuts = 0
        self.failure = None

    def __call__(self, model, where):
        try:
            self.callback(model, where)
        except Exception as e:  # a failure here must not pass for the solver's answer
            self.failure = f"driver callback failed: {type(e).__name__}: {e}"
            model.terminate()

    def callback(self, model, where):
        if where == GRB.Callback.MIPSOL:
            if self.lazy is not None:
                if self.lazy.stopped:
                    return
                rows = self.lazy.separate(model.cbGetSolution(self.x))
                if rows is None:
                    model.terminate()
                    return
                for r in rows:
                    add_row(None, self.x, r, None, lazy=model)
                self.cuts = self.lazy.cuts
                if rows:
                    return
            elif self.enumeration is not None:
                if self.enumeration.stopped:
                    return
                row = self.enumeration.nogood(model.cbGetSolution(self.x))
                if row is None:
                    model.terminate()
                    return
                add_row(None, self.x, row, None, lazy=model)
                self.cuts += 1
                return
            if self.timeline is not None:
                self.timeline.incumbent(model.cbGet(GRB.Callback.MIPSOL_OBJ))
                self.timeline.bound(self.infinite(model.cbGet(GRB.Callback.MIPSOL_OBJBND)),
                                    True)
        elif where == GRB.Callback.MIP and self.timeline is not None:
            self.timeline.bound(self.infinite(model.cbGet(GRB.Callback.MIP_OBJBND)))

    @staticmethod
    def infinite(bound):
        """`bound`, or None where Gurobi calls it infinite."""
        return None if abs(bound) >= GRB.INFINITY else bound


STATUS = {GRB.OPTIMAL: "optimal", GRB.INFEASIBLE: "infeasible", GRB.TIME_LIMIT: "time_limit"}


class Gurobi(pb.Driver):
    name = "gurobi"
    version = VERSION
    refused = LICENCE_TEXT if LICENCE == "refused" else None

    def model(self, job):
        self.live = gp.read(job["mps"], env=ENV)
        self.live.ModelSense = GRB.MAXIMIZE if job["maximize"] else GRB.MINIMIZE
        self.x = pb.by_position(self.live.getVars(), lambda v: v.VarName)
        self.added = 0

    def rows(self, rows):
        for row in rows:
            add_row(self.live, self.x, row, f"added{self.added}")
            self.added += 1

    def enumerate(self, job):
        return self.solve(job, enumerate_=True)

    def solve(self, job, enumerate_=False):
        model = self.live
        p = model.Params
        p.MIPGap = job.get("gap") or 0.0
        p.Seed = job.get("seed") or 0
        p.Presolve = -1 if job.get("presolve", True) else 0
        p.Threads = job.get("threads") or 1
        lazy = bool(job.get("lazy"))
        p.LazyConstraints = 1 if (lazy or enumerate_) else 0
        # An enumeration keeps every solution: nothing cut off by dual arguments. Set on
        # every solve, since the model is live and an INF_OR_UNBD answer below switches
        # them off.
        p.DualReductions = 0 if enumerate_ else 1
        left = pb.seconds_left(job)
        p.TimeLimit = GRB.INFINITY if left is None else left
        timeline = bool(job.get("timeline"))
        search = Search(self.x, timeline, lazy, enumerate_)
        model.reset(1)  # every solve starts from scratch: no tree or solution of the last
        try:
            if timeline or lazy or enumerate_:
                model.optimize(search)
            else:
                model.optimize()
        except gp.GurobiError as e:
            if e.errno == SIZE_LIMIT_ERROR:
                size = f"{model.NumVars:,} variables and {model.NumConstrs:,} rows"
                return {"status": "refused", "solver_status": f"error {e.errno}",
                        "seconds": 0.0,
                        "message": f"the {LICENCE} licence takes 2,000 variables and 2,000 "
                                   f"rows; this model has {size} ({e})"}
            if e.errno in LICENCE_ERRORS:
                return {"status": "refused", "solver_status": f"error {e.errno}",
                        "seconds": 0.0, "message": f"licence refused: {e}"}
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
            answer["values"] = model.getAttr("X", self.x)
        if enumerate_:
            if search.enumeration.ended(status == GRB.INFEASIBLE):
                answer["status"] = "optimal"
            else:
                answer["status"] = STATUS.get(status, "error")
        elif lazy and search.lazy.stopped:
            answer["status"] = "time_limit"
        elif status == GRB.INTERRUPTED:
            answer["status"] = "time_limit"
        else:
            answer["status"] = STATUS.get(status, "error")
        if answer["status"] == "error":
            answer["message"] = f"Gurobi ended with status {status}"
        if model.IsMIP and status in (GRB.OPTIMAL, GRB.TIME_LIMIT) and not enumerate_:
            bound = Search.infinite(model.ObjBound)
            if bound is not None:
                answer["bound"] = bound
        return answer


pb.serve(Gurobi())
