"""puzzlebench's CP-SAT driver (engine `cpsat`, src/engines/cpsat.rs): CP-SAT's part of
the protocol, which puzzlebench_driver serves (the messages, hello, answers, failures).

Its model is not MPS: CP-SAT takes whole coefficients only, which puzzlebench has scaled,
so the model message carries the model itself and this driver keeps its own `model` and
`rows` (the protocol's other parts are the module's, as for every driver).

* {"op": "model", "vars": ..., "rows": ..., "objective": ...}: the model with whole
  coefficients; it replaces the model held. "rows": rows added to it (row generation).
* solve ({"deadline": ..., "params": ..., "timeline": ...}): solves the model as it
  stands with a fresh CpSolver under the params, the time limit what is left until the
  deadline. With "timeline" true, a solution callback reports each improving incumbent
  and the best bound with it, and the bound callback each better bound, on the scaled
  objective. The answer: status (in puzzlebench's words), CP-SAT's status, its own wall
  time, the bound on the (scaled) objective, branches, conflicts and the values of the
  columns.
* enumerate: enumerates the solutions of the model as it stands (it has no objective) in
  one search (enumerate_all_solutions, one worker). Each solution is handed over
  (puzzlebench_driver.ask) and the search goes on until puzzlebench says stop. The
  answer: "optimal" when the search ended or was stopped so, "infeasible" when it found
  none, "time_limit" when the limit stopped it.
"""
import puzzlebench_driver as pb

try:
    import ortools
    from ortools.sat.python import cp_model
except ImportError as e:
    pb.not_installed("ortools", e)

INT_MIN, INT_MAX = cp_model.INT_MIN, cp_model.INT_MAX


class Progress(cp_model.CpSolverSolutionCallback):
    """Reports each incumbent (CP-SAT calls it for improving ones only) and the bound."""

    def __init__(self, objective):
        super().__init__()
        self.objective = objective

    def on_solution_callback(self):
        if self.objective:
            pb.incumbent(self.ObjectiveValue())
            pb.bound(self.BestObjectiveBound())
        else:
            pb.incumbent(0.0)


class Enumerator(cp_model.CpSolverSolutionCallback):
    """Hands each solution to puzzlebench and stops when it says so."""

    def __init__(self):
        super().__init__()
        self.stopped = False

    def on_solution_callback(self):
        if pb.ask(list(self.Response().solution)) is None:
            self.stopped = True
            self.StopSearch()


class CpSat(pb.Driver):
    name = "cpsat"
    version = f"CP-SAT (OR-Tools {ortools.__version__})"

    def model(self, job):
        self.cp = cp_model.CpModel()
        self.proto = self.cp.Proto()
        for lo, hi in job["vars"]:
            self.proto.variables.add().domain.extend([lo, hi])
        self.rows(job["rows"])
        obj = job["objective"]
        self.objective = obj is not None and bool(obj["vars"])
        if self.objective:
            sign = -1 if obj["maximize"] else 1
            self.proto.objective.vars.extend(obj["vars"])
            self.proto.objective.coeffs.extend(sign * c for c in obj["coefs"])
            self.proto.objective.scaling_factor = sign

    def rows(self, rows):
        for idx, coefs, lo, hi in rows:
            lin = self.proto.constraints.add().linear
            lin.vars.extend(idx)
            lin.coeffs.extend(coefs)
            lin.domain.extend([INT_MIN if lo is None else lo, INT_MAX if hi is None else hi])

    def solver(self, job):
        """A CpSolver under the job's params and time limit (None: CP-SAT refuses the
        model, `self.invalid` says why)."""
        self.invalid = self.cp.Validate()
        if self.invalid:
            return None
        solver = cp_model.CpSolver()
        for key, value in job["params"].items():
            setattr(solver.parameters, key, value)
        return solver

    def run(self, solver, job, callback):
        """Solves with `callback` within the time left; the answer (its status in
        puzzlebench's words) and CP-SAT's status."""
        left = pb.seconds_left(job)
        if left is not None:
            solver.parameters.max_time_in_seconds = left
        status = solver.Solve(self.cp, callback)
        answer = {"solver_status": solver.StatusName(status), "seconds": solver.WallTime(),
                  "nodes": solver.NumBranches(), "conflicts": solver.NumConflicts()}
        if status == cp_model.OPTIMAL:
            answer["status"] = "optimal"
        elif status == cp_model.INFEASIBLE:
            answer["status"] = "infeasible"
        elif status == cp_model.MODEL_INVALID:
            answer["status"] = "error"
            answer["message"] = f"CP-SAT refused the model: {self.cp.Validate()}"
        else:
            # FEASIBLE or UNKNOWN: CP-SAT stopped before a proof, at its time limit.
            answer["status"] = "time_limit"
        return answer, status

    def refusal(self):
        return {"status": "error", "solver_status": "MODEL_INVALID", "seconds": 0.0,
                "message": f"CP-SAT refused the model: {self.invalid}"}

    def solve(self, job):
        solver = self.solver(job)
        if solver is None:
            return self.refusal()
        progress = None
        if job.get("timeline"):
            progress = Progress(self.objective)
            if self.objective:
                solver.best_bound_callback = pb.bound
        answer, status = self.run(solver, job, progress)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            answer["values"] = list(solver.response_proto.solution)
            if self.objective:
                answer["bound"] = solver.BestObjectiveBound()
        return answer

    def enumerate(self, job):
        solver = self.solver(job)
        if solver is None:
            return self.refusal()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        enumerator = Enumerator()
        answer, _ = self.run(solver, job, enumerator)
        if enumerator.stopped:  # stopped by puzzlebench: the search is over as it counts
            answer["status"] = "optimal"
        return answer


pb.serve(CpSat())
