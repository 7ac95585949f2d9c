//! The engine-neutral model: variables, linear rows and a linear objective.
//!
//! A formulation builds one [`Model`] per instance; every engine solves the
//! same model, either as the integer program or as its LP relaxation
//! ([`Model::relax`]). The files it is written as and read from (MPS, CPLEX LP, OPB,
//! DIMACS CNF) are in [`crate::formats`], one module per format.

/// The name of a variable or row. Indexed names (`x_3_4_9`) are kept as a prefix and up
/// to four indices and only turned into text when written, so that building a large
/// model does not spend its time formatting strings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Name {
    /// A name given as text.
    Text(String),
    /// `prefix` followed by `_i` for each index.
    Indexed(&'static str, [u32; 4], u8),
}

impl Name {
    /// `prefix_i_j_...` for up to four indices.
    pub fn idx(prefix: &'static str, indices: &[usize]) -> Name {
        assert!(indices.len() <= 4, "at most four indices in a name");
        let mut a = [0u32; 4];
        for (slot, &i) in a.iter_mut().zip(indices) {
            *slot = i as u32;
        }
        Name::Indexed(prefix, a, indices.len() as u8)
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Name::Text(s) => f.write_str(s),
            Name::Indexed(prefix, a, n) => {
                f.write_str(prefix)?;
                for i in &a[..*n as usize] {
                    write!(f, "_{i}")?;
                }
                Ok(())
            }
        }
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        Name::Text(s)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name::Text(s.to_string())
    }
}

/// The domain of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// Integer with bounds 0 and 1.
    Binary,
    /// Integer with arbitrary bounds.
    Integer,
    /// Real-valued.
    Continuous,
}

/// One variable: its name (unique within a model), kind, bounds and objective coefficient.
#[derive(Clone, Debug, PartialEq)]
pub struct Var {
    /// Name used in exported files; unique within the model.
    pub name: Name,
    /// Binary, integer or continuous.
    pub kind: VarKind,
    /// Lower bound (may be `f64::NEG_INFINITY`).
    pub lower: f64,
    /// Upper bound (may be `f64::INFINITY`).
    pub upper: f64,
    /// Coefficient in the objective.
    pub objective: f64,
}

/// A handle to a variable of a [`Model`] (its column index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub usize);

/// One linear row `lower <= sum(coef * var) <= upper`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Name used in exported files; unique within the model.
    pub name: Name,
    /// Sparse coefficients, one entry per variable at most, sorted by variable.
    pub terms: Vec<(VarId, f64)>,
    /// Lower bound (may be `f64::NEG_INFINITY`).
    pub lower: f64,
    /// Upper bound (may be `f64::INFINITY`).
    pub upper: f64,
}

/// Direction of the objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// Minimise the objective.
    Minimize,
    /// Maximise the objective.
    Maximize,
}

/// Size figures of a model, as written into every result row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// All variables.
    pub variables: usize,
    /// Variables declared binary.
    pub binaries: usize,
    /// Variables declared general integer (whatever their bounds).
    pub integers: usize,
    /// Continuous variables.
    pub continuous: usize,
    /// Linear rows.
    pub constraints: usize,
    /// Nonzero coefficients in the rows.
    pub nonzeros: usize,
}

/// The largest size of a coefficient [`Model::check`] lets through: beyond it solvers
/// lose the model's precision or abort (HiGHS's own limit on matrix values is 1e15).
pub const HUGE_COEFFICIENT: f64 = 1e15;

/// The largest size of a finite bound [`Model::check`] lets through: solvers take 1e20
/// and beyond for infinity (CPLEX's and Gurobi's convention), or abort on it (CBC).
pub const HUGE_BOUND: f64 = 1e19;

/// A linear or mixed-integer program, independent of any solver.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Name written into exported files.
    pub name: String,
    /// Minimise or maximise.
    pub sense: Sense,
    /// Constant added to the objective.
    pub objective_offset: f64,
    /// The columns.
    pub vars: Vec<Var>,
    /// The rows.
    pub rows: Vec<Row>,
}

impl Model {
    /// An empty minimisation model.
    pub fn new(name: impl Into<String>) -> Self {
        Model {
            name: name.into(),
            sense: Sense::Minimize,
            objective_offset: 0.0,
            vars: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// Adds a variable and returns its handle.
    pub fn add_var(
        &mut self,
        name: impl Into<Name>,
        kind: VarKind,
        lower: f64,
        upper: f64,
        objective: f64,
    ) -> VarId {
        let (lower, upper) = match kind {
            VarKind::Binary => (lower.max(0.0), upper.min(1.0)),
            _ => (lower, upper),
        };
        self.vars.push(Var {
            name: name.into(),
            kind,
            lower,
            upper,
            objective,
        });
        VarId(self.vars.len() - 1)
    }

    /// Adds a binary variable with objective coefficient 0.
    pub fn add_binary(&mut self, name: impl Into<Name>) -> VarId {
        self.add_var(name, VarKind::Binary, 0.0, 1.0, 0.0)
    }

    /// Adds the row `lower <= sum(terms) <= upper`. Terms on the same variable are merged
    /// and zero coefficients dropped.
    pub fn add_row(
        &mut self,
        name: impl Into<Name>,
        terms: impl IntoIterator<Item = (VarId, f64)>,
        lower: f64,
        upper: f64,
    ) {
        let mut terms: Vec<(VarId, f64)> = terms.into_iter().collect();
        if !terms.windows(2).all(|w| w[0].0 < w[1].0) {
            terms.sort_unstable_by_key(|t| t.0);
            // Merge terms on the same variable, in place.
            terms.dedup_by(|later, earlier| {
                let same = later.0 == earlier.0;
                if same {
                    earlier.1 += later.1;
                }
                same
            });
        }
        terms.retain(|t| t.1 != 0.0);
        self.rows.push(Row {
            name: name.into(),
            terms,
            lower,
            upper,
        });
    }

    /// Adds `sum(terms) == rhs`.
    pub fn add_eq(
        &mut self,
        name: impl Into<Name>,
        terms: impl IntoIterator<Item = (VarId, f64)>,
        rhs: f64,
    ) {
        self.add_row(name, terms, rhs, rhs);
    }

    /// Adds `sum(terms) <= rhs`.
    pub fn add_le(
        &mut self,
        name: impl Into<Name>,
        terms: impl IntoIterator<Item = (VarId, f64)>,
        rhs: f64,
    ) {
        self.add_row(name, terms, f64::NEG_INFINITY, rhs);
    }

    /// Adds `sum(terms) >= rhs`.
    pub fn add_ge(
        &mut self,
        name: impl Into<Name>,
        terms: impl IntoIterator<Item = (VarId, f64)>,
        rhs: f64,
    ) {
        self.add_row(name, terms, rhs, f64::INFINITY);
    }

    /// Counts variables by kind, rows and nonzeros.
    pub fn counts(&self) -> Counts {
        let mut c = Counts {
            variables: self.vars.len(),
            constraints: self.rows.len(),
            nonzeros: self.rows.iter().map(|r| r.terms.len()).sum(),
            ..Counts::default()
        };
        for v in &self.vars {
            match v.kind {
                VarKind::Binary => c.binaries += 1,
                VarKind::Integer => c.integers += 1,
                VarKind::Continuous => c.continuous += 1,
            }
        }
        c
    }

    /// True when every column has finite bounds (no objective can then be unbounded).
    pub fn is_bounded(&self) -> bool {
        self.vars
            .iter()
            .all(|v| v.lower.is_finite() && v.upper.is_finite())
    }

    /// Checks the numbers of the model before any engine sees it ([`crate::engines::Engine`]
    /// calls it): every coefficient (objective, rows, constant) finite and at most
    /// [`HUGE_COEFFICIENT`] in size; every bound a number (not NaN), finite bounds at most
    /// [`HUGE_BOUND`] in size (beyond it solvers take a number for infinity, or abort), no
    /// lower bound of +∞ nor upper bound of −∞, and no empty range: a column whose
    /// bounds (rounded inward for an integer) leave no value, or a row whose lower bound
    /// is above its upper. Engines differ on such models (a panic, an abort, `optimal` on
    /// an infinite value), so the run is an `error` that names the column or row.
    pub fn check(&self) -> Result<(), String> {
        let coefficient = |what: &dyn Fn() -> String, c: f64| -> Result<(), String> {
            if c.is_finite() && c.abs() <= HUGE_COEFFICIENT {
                Ok(())
            } else {
                Err(format!(
                    "{} is {c}: coefficients must be finite and at most {HUGE_COEFFICIENT:e} in size",
                    what()
                ))
            }
        };
        let range = |what: &dyn Fn() -> String, lower: f64, upper: f64| -> Result<(), String> {
            for (side, b) in [("lower", lower), ("upper", upper)] {
                if b.is_nan() {
                    return Err(format!("{}: its {side} bound is NaN", what()));
                }
                if b.is_finite() && b.abs() > HUGE_BOUND {
                    return Err(format!(
                        "{}: its {side} bound {b} is beyond {HUGE_BOUND:e} (write an infinite bound as infinite)",
                        what()
                    ));
                }
            }
            if lower == f64::INFINITY || upper == f64::NEG_INFINITY {
                return Err(format!(
                    "{}: its bounds {lower} ..= {upper} leave no value",
                    what()
                ));
            }
            if lower > upper {
                return Err(format!(
                    "{}: its lower bound {lower} is above its upper bound {upper}",
                    what()
                ));
            }
            Ok(())
        };
        coefficient(
            &|| "the objective's constant".to_string(),
            self.objective_offset,
        )?;
        for v in &self.vars {
            let name = || format!("column {}", v.name);
            coefficient(
                &|| format!("the objective coefficient of {}", name()),
                v.objective,
            )?;
            range(&name, v.lower, v.upper)?;
            let (lo, up) = match v.kind {
                VarKind::Continuous => (v.lower, v.upper),
                VarKind::Integer => (v.lower.ceil(), v.upper.floor()),
                VarKind::Binary => (v.lower.max(0.0).ceil(), v.upper.min(1.0).floor()),
            };
            if lo > up {
                return Err(format!(
                    "{}: no {} value lies within its bounds {} ..= {}",
                    name(),
                    if v.kind == VarKind::Binary {
                        "0/1"
                    } else {
                        "integer"
                    },
                    v.lower,
                    v.upper
                ));
            }
        }
        for r in &self.rows {
            let name = || format!("row {}", r.name);
            for &(var, c) in &r.terms {
                coefficient(
                    &|| {
                        format!(
                            "the coefficient of column {} in {}",
                            self.vars[var.0].name,
                            name()
                        )
                    },
                    c,
                )?;
            }
            range(&name, r.lower, r.upper)?;
        }
        Ok(())
    }

    /// True when some variable must take an integer value.
    pub fn has_integers(&self) -> bool {
        self.vars.iter().any(|v| v.kind != VarKind::Continuous)
    }

    /// The LP relaxation: the same model with every variable continuous (bounds kept).
    pub fn relax(&self) -> Model {
        let mut m = self.clone();
        for v in &mut m.vars {
            v.kind = VarKind::Continuous;
        }
        m
    }

    /// The rows in compressed sparse column form: `(starts, row_indices, values)`,
    /// with row indices sorted within each column.
    pub fn to_csc(&self) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
        let mut per_col = vec![0usize; self.vars.len() + 1];
        for r in &self.rows {
            for (v, _) in &r.terms {
                per_col[v.0 + 1] += 1;
            }
        }
        for i in 0..self.vars.len() {
            per_col[i + 1] += per_col[i];
        }
        let starts = per_col.clone();
        let nnz = starts[self.vars.len()];
        let mut fill = per_col;
        let mut index = vec![0usize; nnz];
        let mut value = vec![0f64; nnz];
        for (ri, r) in self.rows.iter().enumerate() {
            for (v, c) in &r.terms {
                let k = fill[v.0];
                index[k] = ri;
                value[k] = *c;
                fill[v.0] += 1;
            }
        }
        (starts, index, value)
    }

    /// Whether `x` (one value per column) lies within every column's bounds and every
    /// row's sides, to 1e-9.
    pub fn feasible(&self, x: &[f64]) -> bool {
        let tol = 1e-9;
        let within =
            |value: f64, lower: f64, upper: f64| lower - tol <= value && value <= upper + tol;
        self.vars
            .iter()
            .zip(x)
            .all(|(v, &value)| within(value, v.lower, v.upper))
            && self.rows.iter().all(|r| {
                let a: f64 = r.terms.iter().map(|&(v, c)| c * x[v.0]).sum();
                within(a, r.lower, r.upper)
            })
    }

    /// The objective's terms: the columns with a nonzero coefficient, in column order.
    pub fn objective_terms(&self) -> Vec<(VarId, f64)> {
        self.vars
            .iter()
            .enumerate()
            .filter(|(_, v)| v.objective != 0.0)
            .map(|(j, v)| (VarId(j), v.objective))
            .collect()
    }

    /// Objective value of a point (including the offset).
    pub fn objective_value(&self, values: &[f64]) -> f64 {
        self.objective_offset
            + self
                .vars
                .iter()
                .zip(values)
                .map(|(v, x)| v.objective * x)
                .sum::<f64>()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// x binary, y integer in 0..5, z ≤ 3.5 free below; an equality, a row with a
    /// repeated term and a ranged row (the formats' writers are tested on it too).
    pub(crate) fn small() -> Model {
        let mut m = Model::new("small");
        let x = m.add_binary("x");
        let y = m.add_var("y", VarKind::Integer, 0.0, 5.0, 1.0);
        let z = m.add_var("z", VarKind::Continuous, f64::NEG_INFINITY, 3.5, -2.0);
        m.add_eq("r1", [(x, 1.0), (y, 1.0)], 3.0);
        m.add_le("r2", [(y, 2.0), (z, -1.0), (y, 1.0)], 7.0);
        m.add_row("r3", [(x, 1.0), (z, 1.0)], -1.0, 4.0);
        m
    }

    #[test]
    fn counts_by_kind() {
        let c = small().counts();
        assert_eq!(c.variables, 3);
        assert_eq!(c.binaries, 1);
        assert_eq!(c.integers, 1);
        assert_eq!(c.continuous, 1);
        assert_eq!(c.constraints, 3);
        assert_eq!(c.nonzeros, 6);
    }

    #[test]
    fn duplicate_terms_are_merged() {
        let m = small();
        assert_eq!(m.rows[1].terms, vec![(VarId(1), 3.0), (VarId(2), -1.0)]);
    }

    #[test]
    fn relax_drops_integrality_only() {
        let r = small().relax();
        assert!(!r.has_integers());
        assert_eq!(r.vars[1].upper, 5.0);
        assert_eq!(r.counts().continuous, 3);
    }

    #[test]
    fn csc_matches_rows() {
        let m = small();
        let (starts, index, value) = m.to_csc();
        assert_eq!(starts, vec![0, 2, 4, 6]);
        assert_eq!(index, vec![0, 2, 0, 1, 1, 2]);
        assert_eq!(value, vec![1.0, 1.0, 1.0, 3.0, -1.0, 1.0]);
    }
}
