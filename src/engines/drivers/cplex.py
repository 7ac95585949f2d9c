"""puzzlebench's CPLEX driver (engine `cplex`, cplex.toml beside it): CPLEX's part of
the protocol, which puzzlebench_driver serves (the messages, hello, answers, failures,
the version probe). Its version names the licence (size-limited Community Edition or
full).

* model: read into one CPLEX problem, which stays live until the next "model"; rows are
  added to it (row generation).
* solve: solves the live model from scratch, the time limit what is left until the
  deadline. With "lazy" true, a generic callback in CPLEX's candidate context hands each
  candidate over for lazy rows (puzzlebench_driver.LazyRows): rows reject the candidate
  with them, none accept it; a stop aborts the search.

The answer: status in puzzlebench's words (a model the licence will not take is
"refused", with CPLEX's message and the model's size), CPLEX's status, its solve time,
the best bound, nodes and the values of the columns.
"""
from importlib import metadata

import puzzlebench_driver as pb

try:
    import cplex
    from cplex.exceptions import CplexSolverError
except ImportError as e:
    pb.not_installed("cplex", e)

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


def linear(x, rows, ranged):
    """The rows [columns, coefficients, lower, upper] in CPLEX's terms: SparsePairs,
    senses, right-hand sides and ranges (`ranged`: a row with two sides is one ranged row;
    else two)."""
    lin, senses, rhs, ranges = [], [], [], []

    def add(pair, sense, side, width=0.0):
        lin.append(pair), senses.append(sense), rhs.append(side), ranges.append(width)

    for idx, coefs, lo, hi in rows:
        pair = cplex.SparsePair([x[j] for j in idx], coefs)
        if lo is not None and hi is not None and lo == hi:
            add(pair, "E", lo)
        elif lo is not None and hi is not None and ranged:
            add(pair, "R", lo, hi - lo)
        else:
            if lo is not None:
                add(pair, "G", lo)
            if hi is not None:
                add(pair, "L", hi)
    return lin, senses, rhs, ranges


class Lazy:
    """The candidate callback of a solve with lazy rows."""

    def __init__(self, x):
        self.x = x
        self.lazy = pb.LazyRows()

    def invoke(self, context):
        try:
            if (self.lazy.stopped or not context.in_candidate()
                    or not context.is_candidate_point()):
                return
            point = context.get_candidate_point()
            rows = self.lazy.separate([point[i] for i in self.x])
            if rows is None:
                context.abort()
            elif rows:
                lin, senses, rhs, _ = linear(self.x, rows, ranged=False)
                context.reject_candidate(constraints=lin, senses=senses, rhs=rhs)
        except Exception as e:  # a failure here must not pass for the solver's answer
            self.lazy.fail(e)
            context.abort()


class Cplex(pb.Driver):
    name = "cplex"
    version = (f"CPLEX {quiet(cplex.Cplex()).get_version()} "
               f"(cplex {metadata.version('cplex')}; {TERMS})")

    def model(self, job):
        self.c = quiet(cplex.Cplex())
        self.c.read(job["mps"], "mps")
        s = self.c.objective.sense
        self.c.objective.set_sense(s.maximize if job["maximize"] else s.minimize)
        names = self.c.variables.get_names()
        self.x = pb.by_position(range(len(names)), lambda i: names[i])
        self.mip = self.c.get_problem_type() != self.c.problem_type.LP

    def rows(self, rows):
        lin, senses, rhs, ranges = linear(self.x, rows, ranged=True)
        if lin:
            self.c.linear_constraints.add(lin_expr=lin, senses="".join(senses), rhs=rhs,
                                          range_values=ranges)

    def size(self):
        return (f"{self.c.variables.get_num():,} variables and "
                f"{self.c.linear_constraints.get_num():,} rows")

    def solve(self, job):
        c = self.c
        p = c.parameters
        p.threads.set(job.get("threads") or 1)
        p.randomseed.set(job.get("seed") or 0)
        p.preprocessing.presolve.set(1 if job.get("presolve", True) else 0)
        p.clocktype.set(2)  # wall clock
        if self.mip:
            p.mip.tolerances.mipgap.set(job.get("gap") or 0.0)
            c.MIP_starts.delete()
        left = pb.seconds_left(job)
        p.timelimit.set(1e75 if left is None else left)
        lazy = Lazy(self.x) if job.get("lazy") else None
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
                        "message": f"the {LICENCE} licence takes 1,000 variables and 1,000 "
                                   f"rows; this model has {self.size()} ({str(e).strip()})"}
            raise
        seconds = c.get_time() - started
        sol = c.solution
        st = sol.get_status()
        ss = sol.status
        text = sol.get_status_string()
        answer = {"solver_status": f"{st} {text}", "seconds": seconds}
        if self.mip:
            answer["nodes"] = int(sol.progress.get_num_nodes_processed())
        optimal = {ss.MIP_optimal, ss.optimal_tolerance, ss.optimal}
        infeasible = {ss.MIP_infeasible, ss.infeasible, ss.MIP_infeasible_or_unbounded,
                      ss.infeasible_or_unbounded}
        timed = {ss.MIP_time_limit_feasible, ss.MIP_time_limit_infeasible,
                 ss.abort_time_limit}
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
            answer["values"] = [values[i] for i in self.x]
        if self.mip and answer["status"] in ("optimal", "time_limit"):
            try:
                answer["bound"] = sol.MIP.get_best_objective()
            except CplexSolverError:
                pass
        if lazy is not None:
            answer["cuts"] = lazy.lazy.cuts
            if lazy.lazy.failure is not None:
                answer = {"status": "error", "seconds": seconds,
                          "message": lazy.lazy.failure}
        return answer


pb.serve(Cplex())
