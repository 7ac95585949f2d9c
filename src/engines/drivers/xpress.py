"""puzzlebench's FICO Xpress driver (engine `xpress`, xpress.toml beside it): Xpress's
part of the protocol, which puzzlebench_driver serves (the messages, hello, answers,
failures, the version probe). Its version names the licence (the size-limited community
licence or full); a licence Xpress refuses answers every solve "refused".

* model: read into one Xpress problem, which stays live until the next "model"; rows are
  added to it (row generation).
* solve: solves the live model, the time limit what is left until the deadline.

The answer: status in puzzlebench's words (a model the licence will not take is
"refused", with Xpress's message and the model's size), Xpress's status, its solve time,
the best bound, nodes and the values of the columns.
"""
import time
import warnings
from importlib import metadata

import puzzlebench_driver as pb

try:
    warnings.simplefilter("ignore")  # the community licence's LicenseWarning
    import xpress as xp
except ImportError as e:
    pb.not_installed("xpress", e)

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


class Xpress(pb.Driver):
    name = "xpress"
    version = f"Xpress {metadata.version('xpress')} (optimizer {xp.getVersion()}; {TERMS})"
    refused = WHY if LICENCE == "refused" else None

    def model(self, job):
        self.p = problem()
        self.p.readProb(job["mps"])
        self.p.chgObjSense(xp.maximize if job["maximize"] else xp.minimize)
        n = self.p.attributes.cols
        names = self.p.getNameList(2, 0, n - 1) if n else []
        self.x = pb.by_position(range(n), lambda i: names[i])
        self.mip = self.p.attributes.mipents > 0

    def rows(self, rows):
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

    def solve(self, job):
        p = self.p
        c = p.controls
        c.threads = job.get("threads") or 1
        c.randomseed = (job.get("seed") or 0) % (2**31 - 1)
        c.presolve = 1 if job.get("presolve", True) else 0
        c.miprelstop = job.get("gap") or 0.0
        left = pb.seconds_left(job)
        c.timelimit = 1e20 if left is None else left  # 1e20: none (its default)
        started = time.monotonic()
        try:
            solvestatus, solstatus = p.optimize()
        except xp.SolverError as e:
            if "too many" in str(e):
                return {"status": "refused", "solver_status": "error", "seconds": 0.0,
                        "message": f"the {LICENCE} licence takes 5,000 rows and columns "
                                   f"together; this model has {self.size()} "
                                   f"({str(e).strip()})"}
            raise
        seconds = time.monotonic() - started
        a = p.attributes
        answer = {"solver_status": f"{solvestatus.name} {solstatus.name} "
                                   f"(stop {a.stopstatus})",
                  "seconds": seconds}
        if self.mip:
            answer["nodes"] = int(a.nodes)
        completed = solvestatus == xp.SolveStatus.COMPLETED
        if completed and solstatus == xp.SolStatus.OPTIMAL:
            answer["status"] = "optimal"
        elif completed and solstatus == xp.SolStatus.INFEASIBLE:
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
            answer["values"] = [values[i] for i in self.x]
        if self.mip and answer["status"] in ("optimal", "time_limit"):
            bound = a.bestbound
            if abs(bound) < 1e40:
                answer["bound"] = bound
        return answer


pb.serve(Xpress())
