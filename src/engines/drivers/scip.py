"""puzzlebench's SCIP driver (engine `scip`, src/engines/scip.rs).

Reads one JSON object on standard input: the path of the model as free MPS (columns
named C0, C1, ... by position), the objective's sense, the run's deadline as Unix
seconds, and the settings (gap, seed, presolve). Solves with SCIP through PySCIPOpt and
prints one JSON object on standard output: status (in puzzlebench's words), SCIP's
status, its solving time, dual bound, nodes, the values of the columns, and the version.
"""
import json
import math
import sys
import time

try:
    import pyscipopt
    from pyscipopt import SCIP_PARAMSETTING
except ImportError as e:
    print(json.dumps({"status": "error", "seconds": 0.0, "version": "",
                      "message": f"not installed: pyscipopt ({e}); run scripts/setup-python.sh"}))
    sys.exit(0)


def main(model):
    job = json.load(sys.stdin)
    model.hideOutput()
    model.readProblem(job["mps"])
    if job["maximize"]:
        model.setMaximize()
    model.setParam("limits/gap", job["gap"])
    if job["seed"] is not None:
        model.setParam("randomization/randomseedshift", job["seed"])
    if not job["presolve"]:
        model.setPresolve(SCIP_PARAMSETTING.OFF)
    deadline = job["deadline"]
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return {"status": "time_limit", "solver_status": "not started", "seconds": 0.0}
        model.setParam("limits/time", left)
    model.optimize()
    status = model.getStatus()
    answer = {"solver_status": status, "seconds": model.getSolvingTime(),
              "nodes": model.getNNodes()}
    if model.getNSols() > 0:
        sol = model.getBestSol()
        by_name = {v.name: model.getSolVal(sol, v) for v in model.getVars()}
        answer["values"] = [by_name[f"C{j}"] for j in range(len(by_name))]
    if status in ("optimal", "gaplimit"):
        answer["status"] = "optimal"
    elif status == "infeasible":
        answer["status"] = "infeasible"
    elif status == "timelimit":
        answer["status"] = "time_limit"
    else:
        answer["status"] = "error"
        answer["message"] = f"SCIP ended with status {status}"
    if status in ("optimal", "gaplimit", "timelimit"):
        bound = model.getDualbound()
        if not model.isInfinity(abs(bound)):
            answer["bound"] = bound
    return answer


scip = pyscipopt.Model()
answer = main(scip)
answer["version"] = f"SCIP {scip.version()} (PySCIPOpt {pyscipopt.__version__})"
print(json.dumps(answer))
