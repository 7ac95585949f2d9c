"""puzzlebench's CP-SAT driver (engine `cpsat`, src/engines/cpsat.rs).

One process serves a run's solves. It prints {"kind": "hello", "version": ...} once
OR-Tools is imported, then reads messages, one JSON object a line, on standard input:

* {"op": "model", "vars": ..., "rows": ..., "objective": ...}: the model with whole
  coefficients (puzzlebench has scaled it); it replaces the model held;
* {"op": "rows", "rows": ...}: rows added to the model held (row generation);
* {"op": "solve", "deadline": ..., "params": ..., "timeline": ...}: solves the model as
  it stands with a fresh CpSolver, the time limit being what is left until the deadline
  (Unix seconds). With "timeline" true, a solution callback prints each improving
  incumbent ({"kind": "incumbent", "value": ...}) and the best bound with it
  ({"kind": "bound", ...}), and the bound callback each better bound, on the scaled
  objective. The answer is one line {"kind": "answer", ...}: status (in puzzlebench's
  words), CP-SAT's status, its own wall time, the bound on the (scaled) objective,
  branches, conflicts, the values of the columns, and the version.
* {"op": "enumerate", "deadline": ..., "params": ...}: enumerates the solutions of the
  model as it stands (it has no objective) in one search (enumerate_all_solutions, one
  worker). Each solution is printed ({"kind": "solution", "values": ...}) and the search
  waits for puzzlebench's reply line ({"op": "reply", "more": true or false}); false stops
  it. The answer: "optimal" when the search ended or was stopped so, "infeasible" when it
  found none, "time_limit" when the limit stopped it.

It ends when its standard input ends.
"""
import json
import math
import sys
import time


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


try:
    import ortools
    from ortools.sat.python import cp_model
except ImportError as e:
    emit({"kind": "answer", "status": "error", "seconds": 0.0, "version": "",
          "message": f"not installed: ortools ({e}); run scripts/setup-python.sh"})
    sys.exit(0)

VERSION = f"CP-SAT (OR-Tools {ortools.__version__})"
INT_MIN, INT_MAX = cp_model.INT_MIN, cp_model.INT_MAX


class Held:
    """The model as it stands: built from a model message, rows added later."""

    def __init__(self, job):
        self.model = cp_model.CpModel()
        self.proto = self.model.Proto()
        for lo, hi in job["vars"]:
            self.proto.variables.add().domain.extend([lo, hi])
        self.add_rows(job["rows"])
        self.obj = job["objective"]
        obj = self.obj
        if obj is not None and obj["vars"]:
            sign = -1 if obj["maximize"] else 1
            self.proto.objective.vars.extend(obj["vars"])
            self.proto.objective.coeffs.extend(sign * c for c in obj["coefs"])
            self.proto.objective.scaling_factor = sign

    def add_rows(self, rows):
        for idx, coefs, lo, hi in rows:
            lin = self.proto.constraints.add().linear
            lin.vars.extend(idx)
            lin.coeffs.extend(coefs)
            lin.domain.extend([INT_MIN if lo is None else lo, INT_MAX if hi is None else hi])

    def objective(self):
        return self.obj is not None and bool(self.obj["vars"])


class Progress(cp_model.CpSolverSolutionCallback):
    """Prints each incumbent (CP-SAT calls it for improving ones only) and the bound."""

    def __init__(self, objective):
        super().__init__()
        self.objective = objective

    def on_solution_callback(self):
        if self.objective:
            emit({"kind": "incumbent", "value": self.ObjectiveValue()})
            bound = self.BestObjectiveBound()
            if math.isfinite(bound):
                emit({"kind": "bound", "value": bound})
        else:
            emit({"kind": "incumbent", "value": 0.0})


def solve(held, job):
    invalid = held.model.Validate()
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
    progress = None
    if job.get("timeline"):
        progress = Progress(held.objective())
        if held.objective():
            solver.best_bound_callback = lambda b: emit({"kind": "bound", "value": b})
    status = solver.Solve(held.model, progress)
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
        answer["message"] = f"CP-SAT refused the model: {held.model.Validate()}"
    else:
        # FEASIBLE or UNKNOWN: CP-SAT stopped before a proof, at its time limit.
        answer["status"] = "time_limit"
    if held.objective() and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = solver.BestObjectiveBound()
        if math.isfinite(bound):
            answer["bound"] = bound
    return answer


class Enumerator(cp_model.CpSolverSolutionCallback):
    """Hands each solution to puzzlebench and stops when it says so."""

    def __init__(self):
        super().__init__()
        self.stopped = False

    def on_solution_callback(self):
        emit({"kind": "solution", "values": list(self.Response().solution)})
        reply = json.loads(sys.stdin.readline() or '{"more": false}')
        if not reply.get("more"):
            self.stopped = True
            self.StopSearch()


def enumerate_solutions(held, job):
    invalid = held.model.Validate()
    if invalid:
        return {"status": "error", "solver_status": "MODEL_INVALID", "seconds": 0.0,
                "message": f"CP-SAT refused the model: {invalid}"}
    solver = cp_model.CpSolver()
    for key, value in job["params"].items():
        setattr(solver.parameters, key, value)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    deadline = job["deadline"]
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return {"status": "time_limit", "solver_status": "not started", "seconds": 0.0}
        solver.parameters.max_time_in_seconds = left
    enumerator = Enumerator()
    status = solver.Solve(held.model, enumerator)
    name = solver.StatusName(status)
    answer = {"solver_status": name, "seconds": solver.WallTime(),
              "nodes": solver.NumBranches(), "conflicts": solver.NumConflicts()}
    if enumerator.stopped or status == cp_model.OPTIMAL:
        answer["status"] = "optimal"
    elif status == cp_model.INFEASIBLE:
        answer["status"] = "infeasible"
    elif status == cp_model.MODEL_INVALID:
        answer["status"] = "error"
        answer["message"] = f"CP-SAT refused the model: {held.model.Validate()}"
    else:
        answer["status"] = "time_limit"
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
        if op == "model":
            held = Held(job)
        elif op == "rows":
            held.add_rows(job["rows"])
        elif op in ("solve", "enumerate"):
            try:
                answer = solve(held, job) if op == "solve" else enumerate_solutions(held, job)
            except Exception as e:  # a bug here must not pass for the solver's answer
                answer = {"status": "error", "seconds": 0.0,
                          "message": f"driver failed: {type(e).__name__}: {e}"}
            answer["kind"] = "answer"
            answer["version"] = VERSION
            emit(answer)


main()
