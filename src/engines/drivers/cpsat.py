"""puzzlebench's CP-SAT driver (engine `cpsat`, src/engines/cpsat.rs).

Reads one JSON object on standard input: the model with whole coefficients (puzzlebench
has scaled it), the run's deadline as Unix seconds and CP-SAT's parameters. Builds the
CpModelProto directly, solves, and prints one JSON object on standard output: status (in
puzzlebench's words), CP-SAT's status, its own wall time, the bound on the (scaled)
objective, branches, conflicts, the values of the columns, and the version.
"""
import json
import math
import sys
import time

try:
    import ortools
    from ortools.sat.python import cp_model
except ImportError as e:
    print(json.dumps({"status": "error", "seconds": 0.0, "version": "",
                      "message": f"not installed: ortools ({e}); run scripts/setup-python.sh"}))
    sys.exit(0)

VERSION = f"CP-SAT (OR-Tools {ortools.__version__})"
INT_MIN, INT_MAX = cp_model.INT_MIN, cp_model.INT_MAX


def main():
    job = json.load(sys.stdin)
    model = cp_model.CpModel()
    proto = model.Proto()
    for lo, hi in job["vars"]:
        proto.variables.add().domain.extend([lo, hi])
    for idx, coefs, lo, hi in job["rows"]:
        lin = proto.constraints.add().linear
        lin.vars.extend(idx)
        lin.coeffs.extend(coefs)
        lin.domain.extend([INT_MIN if lo is None else lo, INT_MAX if hi is None else hi])
    obj = job["objective"]
    if obj is not None and obj["vars"]:
        sign = -1 if obj["maximize"] else 1
        proto.objective.vars.extend(obj["vars"])
        proto.objective.coeffs.extend(sign * c for c in obj["coefs"])
        proto.objective.scaling_factor = sign
    invalid = model.Validate()
    if invalid:
        return {"status": "error", "solver_status": "MODEL_INVALID", "seconds": 0.0,
                "message": f"CP-SAT refused the model: {invalid}"}
    solver = cp_model.CpSolver()
    for key, value in job["params"].items():
        setattr(solver.parameters, key, value)
    deadline = job["deadline"]
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return {"status": "time_limit", "solver_status": "not started", "seconds": 0.0}
        solver.parameters.max_time_in_seconds = left
    status = solver.Solve(model)
    name = solver.StatusName(status)
    answer = {"solver_status": name, "seconds": solver.WallTime(),
              "nodes": solver.NumBranches(), "conflicts": solver.NumConflicts()}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        answer["values"] = list(solver.response_proto.solution)
    if status == cp_model.OPTIMAL:
        answer["status"] = "optimal"
    elif status == cp_model.INFEASIBLE:
        answer["status"] = "infeasible"
    elif status == cp_model.MODEL_INVALID:
        answer["status"] = "error"
        answer["message"] = f"CP-SAT refused the model: {model.Validate()}"
    else:
        # FEASIBLE or UNKNOWN: CP-SAT stopped before a proof, at its time limit.
        answer["status"] = "time_limit"
    if obj is not None and obj["vars"] and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = solver.BestObjectiveBound()
        if math.isfinite(bound):
            answer["bound"] = bound
    return answer


answer = main()
answer["version"] = VERSION
print(json.dumps(answer))
