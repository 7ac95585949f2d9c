"""Writes the PuLP model files the model_reader tests read (run from this folder).

Each model is written with writeLP and writeMPS; the tests check that the reader gives
the intended model (src/formats/mod.rs, tests `pulp_*`).
"""
import pulp

# 1. Minimise with a binary, a bounded general integer, a free continuous column and an
#    objective constant.
m = pulp.LpProblem("mixed", pulp.LpMinimize)
b = pulp.LpVariable("b", cat="Binary")
n = pulp.LpVariable("n", lowBound=1, upBound=9, cat="Integer")
y = pulp.LpVariable("y", lowBound=None, upBound=None)
z = pulp.LpVariable("z", lowBound=-2.5, upBound=4)
m += 3 * b + 2 * n - y + 0.5 * z + 10
m += b + n + y >= 2, "cover"
m += n - 2 * z <= 7, "cap"
m += b + y + z == 1, "balance"
m += y - z >= -5
m.writeLP("pulp_mixed.lp")
m.writeMPS("pulp_mixed.mps")

# 2. Maximise over integers with default bounds (0..inf) and a ranged pair of rows.
k = pulp.LpProblem("knap", pulp.LpMaximize)
x = [pulp.LpVariable(f"x_{i}", lowBound=0, cat="Integer") for i in range(3)]
w = [pulp.LpVariable(f"w{i}", cat="Binary") for i in range(2)]
k += 5 * x[0] + 4 * x[1] + 3 * x[2] + w[0] - w[1]
k += 2 * x[0] + 3 * x[1] + x[2] <= 5, "weight"
k += x[0] + x[1] + w[0] + w[1] >= 1, "some"
k.writeLP("pulp_knap.lp")
k.writeMPS("pulp_knap.mps")

# 3. An objective without variables (PuLP adds a column __dummy) and a fixed binary.
e = pulp.LpProblem("empty_objective", pulp.LpMinimize)
f = pulp.LpVariable("f", cat="Binary")
g = pulp.LpVariable("g", cat="Binary")
f.setInitialValue(1)
f.fixValue()
e += pulp.lpSum([])
e += f + g <= 1, "one"
e.writeLP("pulp_empty.lp")
e.writeMPS("pulp_empty.mps")
