"""puzzlebench's driver protocol (docs/driver-protocol.md), once for every Python driver.

A driver puts a solver behind puzzlebench's messages. This module holds what every driver
does alike; the driver supplies only its solver's part, a subclass of `Driver`:

    import puzzlebench_driver as pb

    class MySolver(pb.Driver):
        version = "MySolver 1.0"

        def solve(self, job):          # the model is self.mps, self.maximize, self.added
            ...
            return {"status": "optimal", "seconds": 0.1, "values": [...]}

    pb.serve(MySolver())

`serve` says hello with the version, reads the messages, one JSON object a line on
standard input, until it ends, and calls the driver's method of each `op`:

* `model(job)`: the model as free MPS (`job["mps"]`, `job["maximize"]`). By default it
  keeps them as `self.mps` and `self.maximize` and empties `self.added`, for a driver
  that builds its solver's model afresh at each solve; a driver that keeps a live model
  loads it here (CP-SAT's gets its model in a message of its own shape).
* `rows(rows)`: rows `[columns, coefficients, lower or None, upper or None]` added to the
  model held. By default they are appended to `self.added`.
* `solve(job)`: solves the model as it stands; returns the answer as a dict (status,
  seconds, values, bound, nodes, ...). `serve` adds `kind` and `version` and prints it.
* `enumerate(job)` (optional, the built-in SCIP, Gurobi and CP-SAT drivers): counts the
  solutions in one search, each handed over by `nogood` or `ask`.

What `serve` does around them, so that no driver writes it again:

* A failure is an answer: an exception in `solve` or `enumerate` answers
  `{"status": "error", "message": "driver failed: ..."}`; one in `model` or `rows` is
  kept and answers the next solves so until the next `model` (the driver goes on), as
  does a solve before any model.
* A solve whose deadline has passed before it starts (`seconds_left` raises `NotStarted`)
  answers `time_limit`, "not started".
* `refused`, when a driver sets it (a licence that takes nothing), answers every solve
  `refused` with it.
* An op the driver has no method for answers an error naming it.
* Answers are strict JSON (puzzlebench's reader takes nothing else): a field whose value
  is an infinite or NaN number is left out (an infinite bound is no bound), and an answer
  that still cannot be written (a non-finite value in a list) becomes an error answer.
* With the single argument `probe` (`python driver.py probe`), the driver prints its
  version and ends, without the protocol (the licensed engines' version probe).

And helpers for the solver's part: `seconds_left` (the time limit from the deadline),
`by_position` (the columns C0, C1, ... in model order), `Timeline` (incumbents and bounds
as they come), `LazyRows` (lazy rows through a solver's callback), `nogood`, `ask` and
`Enumeration` (a search that hands its solutions over), `not_installed` (a solver's package
that is missing).

How a driver reaches this module: a built-in driver is run with the module registered
ahead of its own source (src/engines/driver_source.rs); a user's driver program finds it
on PYTHONPATH, in the folder puzzlebench names in PUZZLEBENCH_DRIVER_LIB.
"""
import json
import math
import sys
import time

# Seconds between two bounds a Timeline prints (a forced bound is printed at once).
BOUND_EVERY = 0.02


def _finite(message):
    """`message` without the fields whose value is an infinite or NaN number."""
    return {k: v for k, v in message.items()
            if not (isinstance(v, float) and not math.isfinite(v))}


def emit(message):
    """Prints `message` (a dict) as one line of strict JSON and flushes it. A field whose
    value is not a finite number is left out; a non-finite number deeper in (in a list)
    raises ValueError."""
    sys.stdout.write(json.dumps(_finite(message), allow_nan=False) + "\n")
    sys.stdout.flush()


def incumbent(value):
    """Reports a better solution's objective, without the objective's constant (a value
    that is not a finite number is not reported)."""
    if value is not None and math.isfinite(value):
        emit({"kind": "incumbent", "value": value})


def bound(value):
    """Reports a better proven bound (a value that is not a finite number is not
    reported)."""
    if value is not None and math.isfinite(value):
        emit({"kind": "bound", "value": value})


class Timeline:
    """Incumbents and bounds of one solve, as the solver's callback finds them: each
    incumbent at once, a bound when it changed and `BOUND_EVERY` seconds have passed since
    the last one printed (at once when forced, as with an incumbent). The driver passes
    None for a bound its solver calls infinite."""

    def __init__(self):
        self.last_bound = None
        self.printed_at = 0.0

    def incumbent(self, value):
        incumbent(value)

    def bound(self, value, force=False):
        if value is None or not math.isfinite(value) or value == self.last_bound:
            return
        now = time.monotonic()
        if force or now - self.printed_at >= BOUND_EVERY:
            self.last_bound = value
            self.printed_at = now
            bound(value)


class NotStarted(Exception):
    """The run's deadline passed before the solve started (`seconds_left`)."""


def seconds_left(job):
    """The solve's time limit: what is left until the job's deadline (Unix seconds), or
    None for no limit. Raises NotStarted when nothing is left: `serve` answers
    `time_limit`, "not started"."""
    deadline = job.get("deadline")
    if deadline is None:
        return None
    left = deadline - time.time()
    if left <= 0:
        raise NotStarted()
    return left


def by_position(items, name):
    """`items` (the solver's columns) in model order, C0, C1, ..., each found by `name`."""
    found = {name(item): item for item in items}
    return [found[f"C{j}"] for j in range(len(found))]


def ask(values):
    """Hands the point `values` (one number per column) to puzzlebench and waits for its
    reply: the reply (a dict) when it says go on, None when it says stop (or its messages
    ended)."""
    emit({"kind": "solution", "values": values})
    reply = json.loads(sys.stdin.readline() or '{"more": false}')
    return reply if reply.get("more") else None


def violated(row, values):
    """True when `values` break the row [columns, coefficients, lower, upper] (by 1e-6)."""
    idx, coefs, lo, hi = row
    a = sum(c * values[j] for j, c in zip(idx, coefs))
    return (lo is not None and a < lo - 1e-6) or (hi is not None and a > hi + 1e-6)


class LazyRows:
    """The lazy rows of one solve (`"lazy": true`), for the solver's callback at each
    candidate solution: `separate` gives the rows to add (the solver's way: cbLazy, a
    rejected candidate), `cuts` counts puzzlebench's rows, `stopped` says puzzlebench
    stopped the search, `failure` why the callback failed (the answer becomes an error)."""

    def __init__(self):
        self.rows = []  # the rows sent so far, checked again at each candidate
        self.cuts = 0
        self.stopped = False
        self.failure = None

    def separate(self, values):
        """The rows to add at the candidate `values`: those sent before that it breaks (a
        solver may hand over a point that violates a lazy row it was given), else
        puzzlebench's rows for it ([]: it is a solution); None once puzzlebench said stop
        (the callback then stops the search)."""
        again = [r for r in self.rows if violated(r, values)]
        if again:
            return again
        reply = ask(values)
        if reply is None:
            self.stopped = True
            return None
        rows = reply.get("rows") or []
        self.rows.extend(rows)
        self.cuts += len(rows)
        return rows

    def fail(self, e):
        """Records the callback's failure `e` (the callback then stops the search): a
        failure must not pass for the solver's answer."""
        self.failure = f"driver callback failed: {type(e).__name__}: {e}"
        self.stopped = True


def nogood(values):
    """Hands the solution `values` of an enumeration over; the no-good row puzzlebench
    answers (to add for good, cutting it off), or None to stop."""
    reply = ask(values)
    return None if reply is None else reply.get("row")


class Enumeration:
    """An enumeration's solutions handed over (`nogood`), counted."""

    def __init__(self):
        self.reported = 0
        self.stopped = False

    def nogood(self, values):
        """`nogood(values)`; a None answer (stop) sets `stopped`."""
        self.reported += 1
        row = nogood(values)
        if row is None:
            self.stopped = True
        return row

    def ended(self, infeasible):
        """True when the search is over as puzzlebench counts it ("optimal"): stopped by
        puzzlebench, or ended `infeasible` after handing solutions over (every solution
        cut off)."""
        return self.stopped or (infeasible and self.reported > 0)


def not_installed(package, error, hint="run scripts/setup-python.sh"):
    """Ends a driver whose solver's package `package` cannot be imported (`error`): an
    error answer "not installed: ..." (with `probe`, the message on standard error and
    exit status 1)."""
    message = f"not installed: {package} ({error}); {hint}"
    if sys.argv[1:] == ["probe"]:
        print(message, file=sys.stderr)
        sys.exit(1)
    emit({"kind": "answer", "status": "error", "seconds": 0.0, "version": "",
          "message": message})
    sys.exit(0)


class Driver:
    """A solver's part of a driver (see the module's docstring); `name` names it in
    messages, `version` is its solver's name and version, `refused` why its licence
    takes no model (None: it takes them)."""

    name = "driver"
    version = ""
    refused = None

    def model(self, job):
        self.mps, self.maximize, self.added = job["mps"], job["maximize"], []

    def rows(self, rows):
        self.added.extend(rows)

    def solve(self, job):
        raise NotImplementedError(f"the {self.name} driver cannot solve")


def _answer(driver, op, job, failure):
    """The answer to the solve request `job` (op `op`)."""
    method = getattr(driver, op, None) if op in ("solve", "enumerate") else None
    if method is None:
        return {"status": "error", "seconds": 0.0,
                "message": f"the {driver.name} driver has no '{op}'"}
    if driver.refused is not None:
        return {"status": "refused", "seconds": 0.0,
                "message": f"licence refused: {driver.refused}"}
    if failure is not None:
        return {"status": "error", "seconds": 0.0, "message": f"driver failed: {failure}"}
    try:
        return method(job)
    except NotStarted:
        return {"status": "time_limit", "solver_status": "not started", "seconds": 0.0}
    except Exception as e:  # a bug here must not pass for the solver's answer
        return {"status": "error", "seconds": 0.0,
                "message": f"driver failed: {type(e).__name__}: {e}"}


def _emit_answer(answer, version):
    answer = _finite(answer)
    answer.setdefault("status", "error")
    answer.setdefault("seconds", 0.0)
    answer["kind"] = "answer"
    answer["version"] = version
    try:
        emit(answer)
    except (TypeError, ValueError) as e:
        emit({"kind": "answer", "status": "error", "seconds": answer["seconds"],
              "version": version,
              "message": f"driver failed: its answer is not strict JSON: {e}"})


def serve(driver):
    """Runs `driver` (a Driver) on puzzlebench's messages until standard input ends (see
    the module's docstring); with the argument `probe`, prints its version and ends."""
    if sys.argv[1:] == ["probe"]:
        print(driver.version)
        sys.exit(0)
    emit({"kind": "hello", "version": driver.version})
    failure = "no model came before it"  # why there is no model to solve
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        job = json.loads(line)
        op = job.get("op")
        if op in ("model", "rows"):
            try:
                if op == "model":
                    failure = None
                    driver.model(job)
                elif failure is None:
                    driver.rows(job["rows"])
            except Exception as e:
                failure = f"{type(e).__name__}: {e}"
            continue
        _emit_answer(_answer(driver, op, job, failure), driver.version)
