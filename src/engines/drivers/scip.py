"""puzzlebench's SCIP driver (engine `scip`, scip.toml beside it): SCIP's part of the
protocol, which puzzlebench_driver serves (the messages, hello, answers, failures).

* model, rows: kept (the module's default); each solve builds a fresh SCIP from them (the
  MPS file read again, the added rows added).
* solve: the time limit what is left until the deadline. With "timeline" true, an event
  handler reports each best solution found and the dual bound as it improves (at most
  every 20 ms, and with each solution), without the objective's constant. The answer:
  status (in puzzlebench's words), SCIP's status, its solving time, dual bound, nodes,
  the values of the columns.
* enumerate: enumerates the solutions of the model as it stands (it has no objective) in
  one branch and bound: a constraint handler checked and enforced after all others
  rejects every solution, hands it over and adds the no-good row of puzzlebench's reply
  for good before the search goes on (a solution met in a check, not in the tree, may be
  handed over again when the tree reaches it; puzzlebench counts it once); a stop ends
  it. SCIP's counting settings (setParamsCountsols: no restarts, no dual reductions, no
  symmetry handling) keep every solution in the tree; its own counter stays off. The
  answer: "optimal" when the search ended (every solution cut off) or was stopped so,
  "infeasible" when it found none, "time_limit" when the limit stopped it.
"""
import sys

import puzzlebench_driver as pb

try:
    import pyscipopt
    from pyscipopt import SCIP_EVENTTYPE, SCIP_PARAMSETTING, SCIP_RESULT
except ImportError as e:
    pb.not_installed("pyscipopt", e)


class Progress(pyscipopt.Eventhdlr):
    """Reports the best solutions and the improving dual bound as SCIP finds them."""

    def __init__(self):
        super().__init__()
        self.timeline = pb.Timeline()

    def eventinit(self):
        self.model.catchEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)
        self.model.catchEvent(SCIP_EVENTTYPE.DUALBOUNDIMPROVED, self)

    def eventexit(self):
        self.model.dropEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)
        self.model.dropEvent(SCIP_EVENTTYPE.DUALBOUNDIMPROVED, self)

    def bound(self, force):
        bound = self.model.getDualbound()
        self.timeline.bound(None if self.model.isInfinity(abs(bound)) else bound, force)

    def eventexec(self, event):
        try:
            if event.getType() == SCIP_EVENTTYPE.BESTSOLFOUND:
                best = self.model.getBestSol()
                self.timeline.incumbent(self.model.getSolObjVal(best))
                self.bound(True)
            else:
                self.bound(False)
        except Exception as e:  # reporting must never stop the solve
            print(f"puzzlebench event handler: {type(e).__name__}: {e}", file=sys.stderr)


def add_row(model, x, row, name, **flags):
    idx, coefs, lo, hi = row
    if lo is not None or hi is not None:
        expr = pyscipopt.quicksum(c * x[j] for j, c in zip(idx, coefs))
        model.addCons(pyscipopt.ExprCons(expr, lhs=lo, rhs=hi), name=name, **flags)


class Nogoods(pyscipopt.Conshdlr):
    """Rejects every solution that all other constraints accept, hands it to puzzlebench
    and adds the no-good row it answers, until it answers stop."""

    def __init__(self, x):
        super().__init__()
        self.x = x
        self.search = pb.Enumeration()
        self.added = 0

    def conscheck(self, constraints, solution, checkintegrality, checklprows, printreason,
                  completely, **rest):
        # Checked after every other handler (and integrality), a solution that reaches
        # here satisfies them (unless all handlers are asked, `completely`): it is handed
        # over too (presolving may fix every column, and heuristics find solutions the
        # tree may never reach again). Its row cannot be added here: it is added when
        # the tree reaches the solution again, which puzzlebench counts once. Nothing is
        # accepted before puzzlebench says stop.
        if self.search.stopped:
            return {"result": SCIP_RESULT.FEASIBLE}
        if not completely:
            self.ask([self.model.getSolVal(solution, v) for v in self.x])
        return {"result": SCIP_RESULT.FEASIBLE if self.search.stopped else SCIP_RESULT.INFEASIBLE}

    def ask(self, values):
        """Hands `values` over; the no-good row of the reply, or None once told to stop."""
        row = self.search.nogood(values)
        if row is None:
            self.model.interruptSolve()
        return row

    def consenfolp(self, constraints, nusefulconss, solinfeasible):
        return self.enforce(solinfeasible)

    def consenfops(self, constraints, nusefulconss, solinfeasible, objinfeasible):
        return self.enforce(solinfeasible)

    def enforce(self, solinfeasible):
        if solinfeasible or self.search.stopped:
            return {"result": SCIP_RESULT.FEASIBLE}
        row = self.ask([self.model.getSolVal(None, v) for v in self.x])
        if row is None:
            return {"result": SCIP_RESULT.FEASIBLE}
        add_row(self.model, self.x, row, f"nogood{self.added}", local=False)
        self.added += 1
        return {"result": SCIP_RESULT.CONSADDED}

    def conslock(self, constraint, locktype, nlockspos, nlocksneg):
        pass


def limits(model, job):
    """`job`'s seed, presolve and time limit (set last: SCIP's counting settings change
    presolving)."""
    if job["seed"] is not None:
        model.setParam("randomization/randomseedshift", job["seed"])
    if not job["presolve"]:
        model.setPresolve(SCIP_PARAMSETTING.OFF)
    left = pb.seconds_left(job)
    if left is not None:
        model.setParam("limits/time", left)


# SCIP's statuses in puzzlebench's words: those that end an enumeration (which has no
# optimum), and with them those that end a solve.
STOPPED = {"infeasible": "infeasible", "timelimit": "time_limit"}
STATUS = {"optimal": "optimal", "gaplimit": "optimal", **STOPPED}


class Scip(pb.Driver):
    name = "scip"
    # A Model without its SCIP instance: the version without loading every plugin.
    version = (f"SCIP {pyscipopt.Model(createscip=False).version()} "
               f"(PySCIPOpt {pyscipopt.__version__})")

    def load(self):
        """A fresh SCIP holding the model as it stands, and its columns in model order."""
        model = pyscipopt.Model()
        model.hideOutput()
        model.readProblem(self.mps)
        if self.maximize:
            model.setMaximize()
        x = pb.by_position(model.getVars(), lambda v: v.name)
        for k, row in enumerate(self.added):
            add_row(model, x, row, f"added{k}")
        return model, x

    def solve(self, job):
        model, x = self.load()
        model.setParam("limits/gap", job["gap"])
        limits(model, job)
        if job.get("timeline"):
            model.includeEventhdlr(Progress(), "puzzlebench", "prints incumbents and bounds")
        model.optimize()
        status = model.getStatus()
        answer = {"solver_status": status, "seconds": model.getSolvingTime(),
                  "nodes": model.getNNodes()}
        if model.getNSols() > 0:
            sol = model.getBestSol()
            answer["values"] = [model.getSolVal(sol, v) for v in x]
        answer["status"] = STATUS.get(status, "error")
        if answer["status"] == "error":
            answer["message"] = f"SCIP ended with status {status}"
        if status in ("optimal", "gaplimit", "timelimit"):
            bound = model.getDualbound()
            if not model.isInfinity(abs(bound)):
                answer["bound"] = bound
        return answer

    def enumerate(self, job):
        model, x = self.load()
        nogoods = Nogoods(x)
        model.includeConshdlr(nogoods, "puzzlebench_nogoods", "counts solutions for puzzlebench",
                              chckpriority=-9999999, enfopriority=-9999999, needscons=False)
        model.setParamsCountsols()
        model.setParam("constraints/countsols/active", False)
        limits(model, job)
        model.optimize()
        status = model.getStatus()
        answer = {"solver_status": status, "seconds": model.getSolvingTime(),
                  "nodes": model.getNNodes(), "cuts": nogoods.added}
        if nogoods.search.ended(status == "infeasible"):
            answer["status"] = "optimal"
        else:
            answer["status"] = STOPPED.get(status, "error")
        if answer["status"] == "error":
            answer["message"] = f"SCIP ended its enumeration with status {status}"
        return answer


pb.serve(Scip())
