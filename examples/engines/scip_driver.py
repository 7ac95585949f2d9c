"""A driver program for an engine definition (`input = "driver"`): SCIP through
PySCIPOpt, written as a user would write one, speaking the protocol of
docs/driver-protocol.md. puzzlebench starts it once per run, sends it one JSON message
a line on standard input and reads its answers, one JSON object a line, on standard
output (anything else it prints there is ignored; its standard error is kept for the
run's error message).

Messages in:
  {"op": "model", "mps": PATH, "maximize": BOOL}   the model, as free MPS (columns C0, C1, ...)
  {"op": "rows", "rows": [[COLUMNS, COEFS, LOWER|null, UPPER|null], ...]}   rows to add
  {"op": "solve", "deadline": UNIX_SECONDS|null, "gap": G, "seed": S|null,
   "presolve": BOOL, "threads": T|null, "timeline": BOOL}
Answer out (one line per solve):
  {"kind": "answer", "status": "optimal"|"feasible"|"infeasible"|"time_limit"|"error",
   "seconds": SOLVE_SECONDS, "values": [one per column, in order], "bound": B,
   "nodes": N, "version": "...", "message": "why, for an error"}
"""
import json
import sys
import time

import pyscipopt

VERSION = f"SCIP {pyscipopt.Model(createscip=False).version()} via a user's driver"
STATUS = {"optimal": "optimal", "infeasible": "infeasible", "timelimit": "time_limit"}


def emit(message):
    print(json.dumps(message), flush=True)


def solve(mps, maximize, rows, job):
    # A fresh SCIP per solve: the model file read again, the rows added since put back.
    m = pyscipopt.Model()
    m.hideOutput()
    m.readProblem(mps)
    if maximize:
        m.setMaximize()
    x = {v.name: v for v in m.getVars()}
    x = [x[f"C{j}"] for j in range(len(x))]
    for cols, coefs, lo, hi in rows:
        expr = pyscipopt.quicksum(c * x[j] for j, c in zip(cols, coefs))
        if lo is not None:
            m.addCons(expr >= lo)
        if hi is not None:
            m.addCons(expr <= hi)
    if job.get("deadline") is not None:
        left = job["deadline"] - time.time()
        if left <= 0:
            return {"status": "time_limit", "seconds": 0.0}
        m.setParam("limits/time", left)
    m.setParam("limits/gap", job.get("gap") or 0.0)
    if job.get("seed") is not None:
        m.setParam("randomization/randomseedshift", job["seed"])
    if not job.get("presolve", True):
        m.setPresolve(pyscipopt.SCIP_PARAMSETTING.OFF)
    m.optimize()
    answer = {"status": STATUS.get(m.getStatus(), "error"), "seconds": m.getSolvingTime(),
              "nodes": m.getNNodes(), "message": f"SCIP status {m.getStatus()}"}
    if m.getNSols() > 0:
        best = m.getBestSol()
        answer["values"] = [m.getSolVal(best, v) for v in x]
        if answer["status"] == "error":
            answer["status"] = "feasible"
    if answer["status"] in ("optimal", "time_limit"):
        answer["bound"] = m.getDualbound()
    return answer


def main():
    emit({"kind": "hello", "version": VERSION})
    mps, maximize, rows = None, False, []
    for line in sys.stdin:
        job = json.loads(line)
        if job["op"] == "model":
            mps, maximize, rows = job["mps"], job["maximize"], []
        elif job["op"] == "rows":
            rows.extend(job["rows"])
        elif job["op"] == "solve":
            try:
                answer = solve(mps, maximize, rows, job)
            except Exception as e:  # an error of the driver's, not an answer of SCIP's
                answer = {"status": "error", "seconds": 0.0, "message": f"{type(e).__name__}: {e}"}
            emit({"kind": "answer", "version": VERSION, **answer})


main()
