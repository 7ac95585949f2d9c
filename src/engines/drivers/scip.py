"""puzzlebench's SCIP driver (engine `scip`, src/engines/scip.rs).

One process serves a run's solves. It prints {"kind": "hello", "version": ...} once
PySCIPOpt is imported, then reads messages, one JSON object a line, on standard input:

* {"op": "model", "mps": ..., "maximize": ...}: the path of the model as free MPS
  (columns named C0, C1, ... by position) and the objective's sense; it replaces the
  model held;
* {"op": "rows", "rows": [[columns, coefficients, lower or null, upper or null], ...]}:
  rows added to the model held (row generation);
* {"op": "solve", "deadline": ..., "gap": ..., "seed": ..., "presolve": ...,
  "timeline": ...}: solves the model as it stands with a fresh SCIP (the MPS file read
  again, the added rows added), the time limit being what is left until the deadline
  (Unix seconds). With "timeline" true, an event handler prints each best solution found
  ({"kind": "incumbent", "value": ...}) and the dual bound as it improves ({"kind":
  "bound", ...}, at most every 20 ms), without the objective's constant. The answer is
  one line {"kind": "answer", ...}: status (in puzzlebench's words), SCIP's status, its
  solving time, dual bound, nodes, the values of the columns, and the version.
* {"op": "enumerate", "deadline": ..., "seed": ..., "presolve": ...}: enumerates the
  solutions of the model as it stands (it has no objective) in one branch and bound: a
  constraint handler checked and enforced after all others rejects every solution, prints
  it ({"kind": "solution", "values": ...}) and waits for puzzlebench's reply line
  ({"op": "reply", "more": true, "row": [columns, coefficients, lower, upper]}), whose
  no-good row it adds for good before the search goes on (a solution met in a check, not
  in the tree, may be printed again when the tree reaches it; puzzlebench counts it
  once); "more": false stops it. SCIP's
  counting settings (setParamsCountsols: no restarts, no dual reductions, no symmetry
  handling) keep every solution in the tree; its own counter stays off. The answer:
  "optimal" when the search ended (every solution cut off) or was stopped so,
  "infeasible" when it found none, "time_limit" when the limit stopped it.

It ends when its standard input ends.
"""
import json
import sys
import time


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


try:
    import pyscipopt
    from pyscipopt import SCIP_EVENTTYPE, SCIP_PARAMSETTING, SCIP_RESULT
except ImportError as e:
    emit({"kind": "answer", "status": "error", "seconds": 0.0, "version": "",
          "message": f"not installed: pyscipopt ({e}); run scripts/setup-python.sh"})
    sys.exit(0)

# A Model without its SCIP instance: the version without loading every plugin.
VERSION = f"SCIP {pyscipopt.Model(createscip=False).version()} (PySCIPOpt {pyscipopt.__version__})"

# Seconds between two dual bounds printed (the best is printed with each incumbent).
BOUND_EVERY = 0.02


class Progress(pyscipopt.Eventhdlr):
    """Prints the best solutions and the improving dual bound as SCIP finds them."""

    def __init__(self):
        super().__init__()
        self.last_bound = None
        self.printed_at = 0.0

    def eventinit(self):
        self.model.catchEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)
        self.model.catchEvent(SCIP_EVENTTYPE.DUALBOUNDIMPROVED, self)

    def eventexit(self):
        self.model.dropEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)
        self.model.dropEvent(SCIP_EVENTTYPE.DUALBOUNDIMPROVED, self)

    def bound(self, force):
        bound = self.model.getDualbound()
        if self.model.isInfinity(abs(bound)) or bound == self.last_bound:
            return
        now = time.monotonic()
        if force or now - self.printed_at >= BOUND_EVERY:
            self.last_bound = bound
            self.printed_at = now
            emit({"kind": "bound", "value": bound})

    def eventexec(self, event):
        try:
            if event.getType() == SCIP_EVENTTYPE.BESTSOLFOUND:
                best = self.model.getBestSol()
                emit({"kind": "incumbent", "value": self.model.getSolObjVal(best)})
                self.bound(True)
            else:
                self.bound(False)
        except Exception as e:  # reporting must never stop the solve
            print(f"puzzlebench event handler: {type(e).__name__}: {e}", file=sys.stderr)


class Held:
    """The model as it stands: an MPS file and the rows added since."""

    def __init__(self, job):
        self.mps = job["mps"]
        self.maximize = job["maximize"]
        self.rows = []


def load(held):
    """A fresh SCIP holding the model as it stands, and its columns in model order."""
    model = pyscipopt.Model()
    model.hideOutput()
    model.readProblem(held.mps)
    if held.maximize:
        model.setMaximize()
    by_name = {v.name: v for v in model.getVars()}
    x = [by_name[f"C{j}"] for j in range(len(by_name))]
    for k, row in enumerate(held.rows):
        add_row(model, x, row, f"added{k}")
    return model, x


def add_row(model, x, row, name, **flags):
    idx, coefs, lo, hi = row
    if lo is not None or hi is not None:
        expr = pyscipopt.quicksum(c * x[j] for j, c in zip(idx, coefs))
        model.addCons(pyscipopt.ExprCons(expr, lhs=lo, rhs=hi), name=name, **flags)


def solve(held, job):
    model, _ = load(held)
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
    if job.get("timeline"):
        model.includeEventhdlr(Progress(), "puzzlebench", "prints incumbents and bounds")
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


class Nogoods(pyscipopt.Conshdlr):
    """Rejects every solution that all other constraints accept, hands it to puzzlebench
    and adds the no-good row it answers, until it answers stop."""

    def __init__(self, x):
        super().__init__()
        self.x = x
        self.stopped = False
        self.added = 0
        self.reported = 0

    def conscheck(self, constraints, solution, checkintegrality, checklprows, printreason,
                  completely, **rest):
        # Checked after every other handler (and integrality), a solution that reaches
        # here satisfies them (unless all handlers are asked, `completely`): it is handed
        # over too (presolving may fix every column, and heuristics find solutions the
        # tree may never reach again). Its row cannot be added here: it is added when
        # the tree reaches the solution again, which puzzlebench counts once. Nothing is
        # accepted before puzzlebench says stop.
        if self.stopped:
            return {"result": SCIP_RESULT.FEASIBLE}
        if not completely:
            values = [self.model.getSolVal(solution, v) for v in self.x]
            self.ask(values)
        return {"result": SCIP_RESULT.FEASIBLE if self.stopped else SCIP_RESULT.INFEASIBLE}

    def ask(self, values):
        """Hands `values` over; the no-good row of the reply, or None once told to stop."""
        emit({"kind": "solution", "values": values})
        self.reported += 1
        reply = json.loads(sys.stdin.readline() or '{"more": false}')
        if not reply.get("more") or reply.get("row") is None:
            self.stopped = True
            self.model.interruptSolve()
            return None
        return reply["row"]

    def consenfolp(self, constraints, nusefulconss, solinfeasible):
        return self.enforce(solinfeasible)

    def consenfops(self, constraints, nusefulconss, solinfeasible, objinfeasible):
        return self.enforce(solinfeasible)

    def enforce(self, solinfeasible):
        if solinfeasible or self.stopped:
            return {"result": SCIP_RESULT.FEASIBLE}
        row = self.ask([self.model.getSolVal(None, v) for v in self.x])
        if row is None:
            return {"result": SCIP_RESULT.FEASIBLE}
        add_row(self.model, self.x, row, f"nogood{self.added}", local=False)
        self.added += 1
        return {"result": SCIP_RESULT.CONSADDED}

    def conslock(self, constraint, locktype, nlockspos, nlocksneg):
        pass


def enumerate_solutions(held, job):
    model, x = load(held)
    nogoods = Nogoods(x)
    model.includeConshdlr(nogoods, "puzzlebench_nogoods", "counts solutions for puzzlebench",
                          chckpriority=-9999999, enfopriority=-9999999, needscons=False)
    model.setParamsCountsols()
    model.setParam("constraints/countsols/active", False)
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
              "nodes": model.getNNodes(), "cuts": nogoods.added}
    if nogoods.stopped or (status == "infeasible" and nogoods.reported > 0):
        answer["status"] = "optimal"
    elif status == "infeasible":
        answer["status"] = "infeasible"
    elif status == "timelimit":
        answer["status"] = "time_limit"
    else:
        answer["status"] = "error"
        answer["message"] = f"SCIP ended its enumeration with status {status}"
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
            held.rows.extend(job["rows"])
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
