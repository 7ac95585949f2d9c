"""puzzlebench's COPT driver (engine `copt`, copt.toml beside it): COPT's part of the
protocol, which puzzlebench_driver serves (the messages, hello, answers, failures, the
version probe). Its version names the licence (the size-limited licence for
non-commercial use or full); a licence COPT refuses answers every solve "refused".

* model: read into one COPT model, which stays live until the next "model"; rows are
  added to it (row generation).
* solve: solves the live model, the time limit what is left until the deadline. With
  "lazy" true, a callback at each new MIP solution (CBCONTEXT_MIPSOL) hands it over for
  lazy rows (puzzlebench_driver.LazyRows), added as lazy rows; a stop interrupts the
  search.

The answer: status in puzzlebench's words (a model the licence will not take is
"refused", with COPT's message and the model's size), COPT's status, its solve time, the
best bound, nodes and the values of the columns.
"""
import os
import sys
from importlib import metadata

import puzzlebench_driver as pb

try:
    import coptpy as cp
    from coptpy import COPT
except ImportError as e:
    pb.not_installed("coptpy", e)

# The size-limited licence's limits (variables; rows).
LIMIT = 2000


def start_env():
    """COPT's environment and its licence, ("size-limited" | "full" | "refused", why).
    COPT prints its licence search and banner on standard output, the protocol's
    channel: it is caught and read here."""
    read_end, write_end = os.pipe()
    saved = os.dup(1)
    sys.stdout.flush()
    os.dup2(write_end, 1)
    env, error = None, None
    try:
        env = cp.Envr()
    except cp.CoptError as e:
        error = str(e)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(write_end)
    banner = os.read(read_end, 1 << 16).decode(errors="replace")
    os.close(read_end)
    if error is not None:
        return None, "refused", error
    if "size limitations" in banner:
        return env, "size-limited", ""
    return env, "full", ""


ENV, LICENCE, WHY = start_env()
if LICENCE == "size-limited":
    TERMS = "size-limited licence: non-commercial use, 2,000 variables and 2,000 rows"
elif LICENCE == "full":
    TERMS = "full licence"
else:
    TERMS = f"licence refused: {WHY}"


def expression(x, idx, coefs):
    expr = cp.LinExpr()
    expr.addTerms([x[j] for j in idx], coefs)
    return expr


class Lazy(cp.CallbackBase):
    """The MIP-solution callback of a solve with lazy rows."""

    def __init__(self, x):
        super().__init__()
        self.x = x
        self.lazy = pb.LazyRows()

    def add(self, rows):
        for idx, coefs, lo, hi in rows:
            expr = expression(self.x, idx, coefs)
            if lo is not None and hi is not None and lo == hi:
                self.addLazyConstr(expr == lo)
                continue
            if lo is not None:
                self.addLazyConstr(expr >= lo)
            if hi is not None:
                self.addLazyConstr(expr <= hi)

    def callback(self):
        try:
            if self.lazy.stopped or self.where() != COPT.CBCONTEXT_MIPSOL:
                return
            rows = self.lazy.separate(self.getSolution(self.x))
            if rows is None:
                self.interrupt()
            else:
                self.add(rows)
        except Exception as e:  # a failure here must not pass for the solver's answer
            self.lazy.fail(e)
            self.interrupt()


STATUS = {COPT.OPTIMAL: "optimal", COPT.INFEASIBLE: "infeasible",
          COPT.TIMEOUT: "time_limit"}


class Copt(pb.Driver):
    name = "copt"
    version = (f"COPT {COPT.VERSION_MAJOR}.{COPT.VERSION_MINOR}.{COPT.VERSION_TECHNICAL} "
               f"(coptpy {metadata.version('coptpy')}; {TERMS})")
    refused = WHY if LICENCE == "refused" else None

    def model(self, job):
        self.m = ENV.createModel("puzzlebench")
        self.m.setParam("Logging", 0)
        self.m.setParam("LogToConsole", 0)
        self.m.readMps(job["mps"])
        self.m.setObjSense(COPT.MAXIMIZE if job["maximize"] else COPT.MINIMIZE)
        self.x = pb.by_position(self.m.getVars(), lambda v: v.getName())

    def rows(self, rows):
        for idx, coefs, lo, hi in rows:
            lb = -COPT.INFINITY if lo is None else lo
            ub = COPT.INFINITY if hi is None else hi
            self.m.addBoundConstr(expression(self.x, idx, coefs), lb, ub)

    def size(self):
        return (f"{self.m.getAttr('Cols'):,} variables and "
                f"{self.m.getAttr('Rows'):,} rows")

    def solve(self, job):
        m = self.m
        m.setParam("Threads", job.get("threads") or 1)
        m.setParam("Presolve", -1 if job.get("presolve", True) else 0)
        m.setParam("RelGap", job.get("gap") or 0.0)
        left = pb.seconds_left(job)
        m.setParam("TimeLimit", COPT.INFINITY if left is None else left)
        mip = m.getAttr("IsMIP") == 1
        lazy = Lazy(self.x) if job.get("lazy") else None
        if lazy is not None:
            m.setCallback(lazy, COPT.CBCONTEXT_MIPSOL)
        try:
            m.solve()
        except cp.CoptError as e:
            if "LICENSE" in str(e):
                return {"status": "refused", "solver_status": "error", "seconds": 0.0,
                        "message": f"the {LICENCE} licence takes 2,000 variables and 2,000 "
                                   f"rows; this model has {self.size()} ({str(e).strip()})"}
            raise
        status = m.status
        answer = {"solver_status": str(status), "seconds": m.getAttr("SolvingTime")}
        if mip:
            answer["nodes"] = int(m.getAttr("NodeCnt"))
        answer["status"] = STATUS.get(status, "error")
        if answer["status"] == "error":
            answer["message"] = f"COPT ended with status {status}"
        has = m.getAttr("HasMipSol") if mip else m.getAttr("HasLpSol")
        if has:
            answer["values"] = m.getInfo("Value", self.x)
        if mip and answer["status"] in ("optimal", "time_limit"):
            bound = m.getAttr("BestBnd")
            if abs(bound) < COPT.INFINITY:
                answer["bound"] = bound
        if lazy is not None:
            answer["cuts"] = lazy.lazy.cuts
            if lazy.lazy.failure is not None:
                answer = {"status": "error", "seconds": answer["seconds"],
                          "message": lazy.lazy.failure}
        return answer


pb.serve(Copt())
