"""A driver program for an engine definition (`input = "driver"`, scip-driver.toml): SCIP
through PySCIPOpt, written as a user would write one. puzzlebench's module
`puzzlebench_driver` speaks the protocol (docs/driver-protocol.md): it reads the messages,
keeps the model (self.mps, self.maximize and the rows added since, self.added), says
hello, writes the answers as strict JSON and turns a failure into an error answer. This
file is only SCIP's part: the version and one solve.
"""
import pyscipopt

import puzzlebench_driver as pb

STATUS = {"optimal": "optimal", "infeasible": "infeasible", "timelimit": "time_limit"}


class Scip(pb.Driver):
    version = f"SCIP {pyscipopt.Model(createscip=False).version()} via a user's driver"

    def solve(self, job):
        # A fresh SCIP per solve: the model file read again, the rows added since put back.
        m = pyscipopt.Model()
        m.hideOutput()
        m.readProblem(self.mps)
        if self.maximize:
            m.setMaximize()
        x = pb.by_position(m.getVars(), lambda v: v.name)  # columns C0, C1, ... in order
        for cols, coefs, lo, hi in self.added:
            expr = pyscipopt.quicksum(c * x[j] for j, c in zip(cols, coefs))
            if lo is not None:
                m.addCons(expr >= lo)
            if hi is not None:
                m.addCons(expr <= hi)
        left = pb.seconds_left(job)  # None: no limit (past the deadline: "not started")
        if left is not None:
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
        if answer["status"] in ("optimal", "time_limit") and not m.isInfinity(abs(m.getDualbound())):
            answer["bound"] = m.getDualbound()  # SCIP's "no bound" is its infinity, 1e20
        return answer


pb.serve(Scip())
