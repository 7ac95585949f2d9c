"""puzzlebench's COPT driver (engine `copt`, src/engines/licensed.rs).

Run with the argument `probe` it prints the version line and ends. Otherwise one process
serves a run's solves. It prints {"kind": "hello", "version": ...} once coptpy is
imported and its licence known, then reads messages, one JSON object a line, on standard
input (the protocol of the gurobi driver, without its enumeration):

* {"op": "model", "mps": ..., "maximize": ...}: the path of the model as free MPS
  (columns named C0, C1, ... by position) and the objective's sense; it replaces the
  model held, which stays live until the next "model";
* {"op": "rows", "rows": [[columns, coefficients, lower or null, upper or null], ...]}:
  rows added to the live model (row generation);
* {"op": "solve", "deadline": ..., "gap": ..., "seed": ..., "presolve": ...,
  "threads": ..., "lazy": ...}: solves the live model, the time limit being what is left
  until the deadline (Unix seconds). With "lazy" true, a callback at each new MIP
  solution (CBCONTEXT_MIPSOL) first re-checks the lazy rows it already sent (adding those
  it breaks again), else prints the solution ({"kind": "solution", "values": ...}) and
  waits for puzzlebench's reply ({"op": "reply", "more": true, "rows": [...]}), whose
  rows it adds as lazy rows (none: the solution stands); "more": false interrupts the
  search.

The answer is one line {"kind": "answer", ...}: status in puzzlebench's words (a model
the licence will not take is "refused", with COPT's message and the model's size),
COPT's status, its solve time, the best bound, nodes, the values of the columns, and
the version (which names the licence: the size-limited licence for non-commercial use or full). It
ends when its standard input ends.
"""
import json
import os
import sys
import time
from importlib import metadata


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


try:
    import coptpy as cp
    from coptpy import COPT
except ImportError as e:
    if sys.argv[1:] == ["probe"]:
        print(f"not installed: coptpy ({e}); run scripts/setup-python.sh", file=sys.stderr)
        sys.exit(1)
    emit({"kind": "answer", "status": "error", "seconds": 0.0, "version": "",
          "message": f"not installed: coptpy ({e}); run scripts/setup-python.sh"})
    sys.exit(0)

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
VERSION = (f"COPT {COPT.VERSION_MAJOR}.{COPT.VERSION_MINOR}.{COPT.VERSION_TECHNICAL} "
           f"(coptpy {metadata.version('coptpy')}; {TERMS})")

if sys.argv[1:] == ["probe"]:
    print(VERSION)
    sys.exit(0)


class Held:
    """The live model: COPT's model and its columns in model order."""

    def __init__(self, job):
        self.m = ENV.createModel("puzzlebench")
        self.m.setParam("Logging", 0)
        self.m.setParam("LogToConsole", 0)
        self.m.readMps(job["mps"])
        self.m.setObjSense(COPT.MAXIMIZE if job["maximize"] else COPT.MINIMIZE)
        by_name = {v.getName(): v for v in self.m.getVars()}
        self.x = [by_name[f"C{j}"] for j in range(len(by_name))]

    def add_rows(self, rows):
        for idx, coefs, lo, hi in rows:
            expr = cp.LinExpr()
            expr.addTerms([self.x[j] for j in idx], coefs)
            lb = -COPT.INFINITY if lo is None else lo
            ub = COPT.INFINITY if hi is None else hi
            self.m.addBoundConstr(expr, lb, ub)

    def size(self):
        return (f"{self.m.getAttr('Cols'):,} variables and "
                f"{self.m.getAttr('Rows'):,} rows")


def violated(row, values):
    idx, coefs, lo, hi = row
    a = sum(c * values[j] for j, c in zip(idx, coefs))
    return (lo is not None and a < lo - 1e-6) or (hi is not None and a > hi + 1e-6)


class Lazy(cp.CallbackBase):
    """The MIP-solution callback of a solve with lazy rows (see the module's docstring)."""

    def __init__(self, held):
        super().__init__()
        self.held = held
        self.rows = []  # lazy rows sent so far, re-checked at each solution
        self.cuts = 0
        self.stopped = False
        self.failure = None

    def add(self, rows):
        for idx, coefs, lo, hi in rows:
            expr = cp.LinExpr()
            expr.addTerms([self.held.x[j] for j in idx], coefs)
            if lo is not None and hi is not None and lo == hi:
                self.addLazyConstr(expr == lo)
                continue
            if lo is not None:
                self.addLazyConstr(expr >= lo)
            if hi is not None:
                self.addLazyConstr(expr <= hi)

    def callback(self):
        try:
            if self.stopped or self.where() != COPT.CBCONTEXT_MIPSOL:
                return
            values = self.getSolution(self.held.x)
            again = [r for r in self.rows if violated(r, values)]
            if again:
                self.add(again)
                return
            emit({"kind": "solution", "values": values})
            reply = json.loads(sys.stdin.readline() or '{"more": false}')
            if not reply.get("more"):
                self.stopped = True
                self.interrupt()
                return
            rows = reply.get("rows") or []
            if rows:
                self.rows.extend(rows)
                self.cuts += len(rows)
                self.add(rows)
        except Exception as e:  # a failure here must not pass for the solver's answer
            self.failure = f"driver callback failed: {type(e).__name__}: {e}"
            self.stopped = True
            self.interrupt()


STATUS = {COPT.OPTIMAL: "optimal", COPT.INFEASIBLE: "infeasible",
          COPT.TIMEOUT: "time_limit"}


def solve(held, job):
    m = held.m
    m.setParam("Threads", job.get("threads") or 1)
    m.setParam("Presolve", -1 if job.get("presolve", True) else 0)
    m.setParam("RelGap", job.get("gap") or 0.0)
    deadline = job.get("deadline")
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return {"status": "time_limit", "solver_status": "not started", "seconds": 0.0}
        m.setParam("TimeLimit", left)
    else:
        m.setParam("TimeLimit", COPT.INFINITY)
    mip = m.getAttr("IsMIP") == 1
    lazy = Lazy(held) if job.get("lazy") else None
    if lazy is not None:
        m.setCallback(lazy, COPT.CBCONTEXT_MIPSOL)
    try:
        m.solve()
    except cp.CoptError as e:
        if "LICENSE" in str(e):
            return {"status": "refused", "solver_status": "error", "seconds": 0.0,
                    "message": f"the {LICENCE} licence takes 2,000 variables and 2,000 rows; "
                               f"this model has {held.size()} ({str(e).strip()})"}
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
        answer["values"] = m.getInfo("Value", held.x)
    if mip and answer["status"] in ("optimal", "time_limit"):
        bound = m.getAttr("BestBnd")
        if abs(bound) < COPT.INFINITY:
            answer["bound"] = bound
    if lazy is not None:
        answer["cuts"] = lazy.cuts
        if lazy.failure is not None:
            answer = {"status": "error", "seconds": answer["seconds"], "message": lazy.failure}
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
                          "message": f"the copt driver has no '{op}'"}
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
