"""puzzlebench's CPLEX driver (engine `cplex`, src/engines/licensed.rs).

Run with the argument `probe` it prints the version line and ends. Otherwise one process
serves a run's solves. It prints {"kind": "hello", "version": ...} once cplex is
imported and its licence known, then reads messages, one JSON object a line, on standard
input (the protocol of the gurobi driver, without its enumeration):

* {"op": "model", "mps": ..., "maximize": ...}: the path of the model as free MPS
  (columns named C0, C1, ... by position) and the objective's sense; it replaces the
  model held, which stays live until the next "model";
* {"op": "rows", "rows": [[columns, coefficients, lower or null, upper or null], ...]}:
  rows added to the live model (row generation);
* {"op": "solve", "deadline": ..., "gap": ..., "seed": ..., "presolve": ...,
  "threads": ..., "lazy": ...}: solves the live model from scratch, the time limit being
  what is left until the deadline (Unix seconds). With "lazy" true, a generic callback in
  CPLEX's candidate context first re-checks the lazy rows it already sent (rejecting the
  candidate with those it breaks), else prints the candidate ({"kind": "solution",
  "values": ...}) and waits for puzzlebench's reply ({"op": "reply", "more": true,
  "rows": [...]}): rows reject the candidate with them, none accept it; "more": false
  aborts the search.

The answer is one line {"kind": "answer", ...}: status in puzzlebench's words (a model
the licence will not take is "refused", with CPLEX's message and the model's size),
CPLEX's status, its solve time, the best bound, nodes, the values of the columns, and the
version (which names the licence: size-limited Community Edition or full). It ends when
its standard input ends.
"""
import json
import sys
import time
from importlib import metadata


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


try:
    import cplex
    from cplex.exceptions import CplexSolverError
except ImportError as e:
    if sys.argv[1:] == ["probe"]:
        print(f"not installed: cplex ({e}); run scripts/setup-python.sh", file=sys.stderr)
        sys.exit(1)
    emit({"kind": "answer", "status": "error", "seconds": 0.0, "version": "",
          "message": f"not installed: cplex ({e}); run scripts/setup-python.sh"})
    sys.exit(0)

# CPLEX's error for a model over the Community Edition's limits.
SIZE_LIMIT_ERROR = 1016
# The Community Edition's limits (variables; rows).
LIMIT = 1000


def quiet(c):
    for stream in (c.set_results_stream, c.set_log_stream, c.set_warning_stream,
                   c.set_error_stream):
        stream(None)
    return c


def licence():
    """"size-limited" when a model of LIMIT + 1 columns is refused, else "full"."""
    c = quiet(cplex.Cplex())
    c.variables.add(obj=[1.0] * (LIMIT + 1), types="B" * (LIMIT + 1))
    try:
        c.solve()
    except CplexSolverError as e:
        if e.args[2] == SIZE_LIMIT_ERROR:
            return "size-limited"
        raise
    finally:
        c.end()
    return "full"


LICENCE = licence()
if LICENCE == "size-limited":
    TERMS = "size-limited licence: Community Edition, 1,000 variables and 1,000 rows"
else:
    TERMS = "full licence"
VERSION = f"CPLEX {quiet(cplex.Cplex()).get_version()} (cplex {metadata.version('cplex')}; {TERMS})"

if sys.argv[1:] == ["probe"]:
    print(VERSION)
    sys.exit(0)


class Held:
    """The live model: CPLEX's problem and its columns in model order."""

    def __init__(self, job):
        self.c = quiet(cplex.Cplex())
        self.c.read(job["mps"], "mps")
        s = self.c.objective.sense
        self.c.objective.set_sense(s.maximize if job["maximize"] else s.minimize)
        names = self.c.variables.get_names()
        index = {n: i for i, n in enumerate(names)}
        self.x = [index[f"C{j}"] for j in range(len(names))]
        self.mip = self.c.get_problem_type() != self.c.problem_type.LP

    def add_rows(self, rows):
        lin, senses, rhs, ranges = [], [], [], []
        for idx, coefs, lo, hi in rows:
            pair = cplex.SparsePair([self.x[j] for j in idx], coefs)
            if lo is not None and hi is not None:
                lin.append(pair)
                if lo == hi:
                    senses.append("E"), rhs.append(lo), ranges.append(0.0)
                else:
                    senses.append("R"), rhs.append(lo), ranges.append(hi - lo)
            elif lo is not None:
                lin.append(pair), senses.append("G"), rhs.append(lo), ranges.append(0.0)
            elif hi is not None:
                lin.append(pair), senses.append("L"), rhs.append(hi), ranges.append(0.0)
        if lin:
            self.c.linear_constraints.add(lin_expr=lin, senses="".join(senses), rhs=rhs,
                                          range_values=ranges)

    def size(self):
        return (f"{self.c.variables.get_num():,} variables and "
                f"{self.c.linear_constraints.get_num():,} rows")


def violated(row, values):
    idx, coefs, lo, hi = row
    a = sum(c * values[j] for j, c in zip(idx, coefs))
    return (lo is not None and a < lo - 1e-6) or (hi is not None and a > hi + 1e-6)


class Lazy:
    """The candidate callback of a solve with lazy rows (see the module's docstring)."""

    def __init__(self, held):
        self.held = held
        self.rows = []  # lazy rows sent so far, re-checked at each candidate
        self.cuts = 0
        self.stopped = False
        self.failure = None

    def reject(self, context, rows):
        lin, senses, rhs = [], [], []
        for idx, coefs, lo, hi in rows:
            pair = cplex.SparsePair([self.held.x[j] for j in idx], coefs)
            if lo is not None and hi is not None and lo == hi:
                lin.append(pair), senses.append("E"), rhs.append(lo)
                continue
            if lo is not None:
                lin.append(pair), senses.append("G"), rhs.append(lo)
            if hi is not None:
                lin.append(pair), senses.append("L"), rhs.append(hi)
        context.reject_candidate(constraints=lin, senses=senses, rhs=rhs)

    def invoke(self, context):
        try:
            if self.stopped or not context.in_candidate() or not context.is_candidate_point():
                return
            point = context.get_candidate_point()
            values = [point[i] for i in self.held.x]
            again = [r for r in self.rows if violated(r, values)]
            if again:
                self.reject(context, again)
                return
            emit({"kind": "solution", "values": values})
            reply = json.loads(sys.stdin.readline() or '{"more": false}')
            if not reply.get("more"):
                self.stopped = True
                context.abort()
                return
            rows = reply.get("rows") or []
            if rows:
                self.rows.extend(rows)
                self.cuts += len(rows)
                self.reject(context, rows)
        except Exception as e:  # a failure here must not pass for the solver's answer
            self.failure = f"driver callback failed: {type(e).__name__}: {e}"
            self.stopped = True
            context.abort()


def solve(held, job):
    c = held.c
    p = c.parameters
    p.threads.set(job.get("threads") or 1)
    p.randomseed.set(job.get("seed") or 0)
    p.preprocessing.presolve.set(1 if job.get("presolve", True) else 0)
    p.clocktype.set(2)  # wall clock
    if held.mip:
        p.mip.tolerances.mipgap.set(job.get("gap") or 0.0)
        c.MIP_starts.delete()
    deadline = job.get("deadline")
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return {"status": "time_limit", "solver_status": "not started", "seconds": 0.0}
        p.timelimit.set(left)
    else:
        p.timelimit.set(1e75)
    lazy = Lazy(held) if job.get("lazy") else None
    if lazy is not None:
        c.set_callback(lazy, cplex.callbacks.Context.id.candidate)
    else:
        c.set_callback(None)
    started = c.get_time()
    try:
        c.solve()
    except CplexSolverError as e:
        if e.args[2] == SIZE_LIMIT_ERROR:
            return {"status": "refused", "solver_status": f"error {e.args[2]}",
                    "seconds": 0.0,
                    "message": f"the {LICENCE} licence takes 1,000 variables and 1,000 rows; "
                               f"this model has {held.size()} ({str(e).strip()})"}
        raise
    seconds = c.get_time() - started
    sol = c.solution
    st = sol.get_status()
    ss = sol.status
    text = sol.get_status_string()
    answer = {"solver_status": f"{st} {text}", "seconds": seconds}
    if held.mip:
        answer["nodes"] = int(sol.progress.get_num_nodes_processed())
    optimal = {ss.MIP_optimal, ss.optimal_tolerance, ss.optimal}
    infeasible = {ss.MIP_infeasible, ss.infeasible, ss.MIP_infeasible_or_unbounded,
                  ss.infeasible_or_unbounded}
    timed = {ss.MIP_time_limit_feasible, ss.MIP_time_limit_infeasible, ss.abort_time_limit}
    if st in optimal:
        answer["status"] = "optimal"
    elif st in infeasible:
        answer["status"] = "infeasible"
    elif st in timed:
        answer["status"] = "time_limit"
    else:
        answer["status"] = "error"
        answer["message"] = f"CPLEX ended with status {st} ({text})"
    if sol.is_primal_feasible():
        values = sol.get_values()
        answer["values"] = [values[i] for i in held.x]
    if held.mip and answer["status"] in ("optimal", "time_limit"):
        try:
            answer["bound"] = sol.MIP.get_best_objective()
        except CplexSolverError:
            pass
    if lazy is not None:
        answer["cuts"] = lazy.cuts
        if lazy.failure is not None:
            answer = {"status": "error", "seconds": seconds, "message": lazy.failure}
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
            if op == "model":
                held = Held(job)
                continue
            elif op == "rows":
                held.add_rows(job["rows"])
                continue
            elif op == "solve":
                answer = solve(held, job)
            else:
                answer = {"status": "error", "seconds": 0.0,
                          "message": f"the cplex driver has no '{op}'"}
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
