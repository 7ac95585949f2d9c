//! The model file formats, one module each, reading and writing together: CPLEX LP
//! ([`lp`]) and MPS ([`mps`]), read and written; OPB ([`opb`]) and DIMACS CNF ([`cnf`]),
//! written for the pseudo-Boolean and SAT programs of engine definitions. The model
//! export, the engines that hand a model to a program, the definitions and the user
//! formulations all use these modules.
//!
//! # Reading
//!
//! Users write their formulations with modelling tools (PuLP, Pyomo, JuMP, ...), which
//! write CPLEX LP or MPS files; [`read_model`] turns such a file into a [`Model`]. Every
//! bad input gives a [`ReadError`] naming the file, the line and what is wrong; no input
//! makes the readers panic.
//!
//! # What the model gets
//!
//! * Variables and rows are named `Name::Text` exactly as in the file. Columns are in
//!   the order of their first appearance in the file (objective, rows, bounds or
//!   integrality sections alike); rows in file order.
//! * A variable declared integer whose bounds end up exactly 0 and 1 is
//!   [`VarKind::Binary`]; any other integer variable is [`VarKind::Integer`] (so an
//!   integer column with bounds 0..1 reads back as binary); the rest are continuous.
//! * Row terms on the same variable are summed (one entry per variable, sorted by
//!   column); coefficients written as zero are kept. Contradictory bounds (lower above
//!   upper) are kept as written: deciding that the model is infeasible is the solver's
//!   job.
//! * Numbers are read as Rust reads `f64`; a value is infinite only when written as such
//!   (`inf`, `infinity`, or too large for an `f64`): `1e30` stays `1e30`. Coefficients
//!   must be finite; NaN is refused everywhere.
//!
//! The two formats read, their conventions and what is refused are described in [`lp`]
//! and [`mps`].

use crate::model::{Model, Name, Row, Sense, Var, VarId, VarKind};
use std::collections::HashMap;
use std::path::Path;

pub mod cnf;
pub mod lp;
pub mod mps;
pub mod opb;

pub use lp::parse_lp;
pub use mps::parse_mps;

/// The format of a model file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// CPLEX LP format (see [`lp`]).
    Lp,
    /// Free or fixed MPS format (see [`mps`]).
    Mps,
}

impl Format {
    /// The format a file name announces: `.lp` or `.mps`, in any case; `None` otherwise
    /// (compressed files such as `.lp.gz` are not recognised).
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "lp" => Some(Format::Lp),
            "mps" => Some(Format::Mps),
            _ => None,
        }
    }
}

/// A model file that could not be read: the file, the line (1-based; 0 = whole file)
/// and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The file, as given by the caller.
    pub file: String,
    /// 1-based line of the problem, or 0 when it concerns the whole file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads the model in `path`, written in `format`.
pub fn read_model(path: &Path, format: Format) -> Result<Model, ReadError> {
    let whole = |message: String| ReadError {
        file: path.display().to_string(),
        line: 0,
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| whole(format!("cannot read the file: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        whole(format!(
            "the file is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    match format {
        Format::Lp => parse_lp(&text, path),
        Format::Mps => parse_mps(&text, path),
    }
}

/// Makes errors for one file.
#[derive(Clone)]
struct Errors {
    file: String,
}

impl Errors {
    fn new(file: &Path) -> Self {
        Errors {
            file: file.display().to_string(),
        }
    }

    fn at(&self, line: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            file: self.file.clone(),
            line,
            message: message.into(),
        }
    }
}

/// A column while the file is read.
struct VarDraft {
    name: String,
    integer: bool,
    /// Declared in an LP `Binaries` section: default bounds 0 and 1.
    binary_declared: bool,
    lower: Option<f64>,
    upper: Option<f64>,
    objective: f64,
}

/// A row while the file is read.
struct RowDraft {
    name: String,
    terms: Vec<(usize, f64)>,
    lower: f64,
    upper: f64,
}

/// The model as the readers collect it: columns by name in order of appearance, rows.
struct Draft {
    vars: Vec<VarDraft>,
    index: HashMap<String, usize>,
    rows: Vec<RowDraft>,
}

impl Draft {
    fn new() -> Self {
        Draft {
            vars: Vec::new(),
            index: HashMap::new(),
            rows: Vec::new(),
        }
    }

    /// The column named `name`, added (continuous, default bounds) when new.
    fn var(&mut self, name: &str) -> usize {
        if let Some(&j) = self.index.get(name) {
            return j;
        }
        self.vars.push(VarDraft {
            name: name.to_string(),
            integer: false,
            binary_declared: false,
            lower: None,
            upper: None,
            objective: 0.0,
        });
        self.index.insert(name.to_string(), self.vars.len() - 1);
        self.vars.len() - 1
    }

    fn finish(self, name: String, sense: Sense, offset: f64) -> Model {
        let vars = self
            .vars
            .into_iter()
            .map(|v| {
                let default_upper = if v.binary_declared {
                    1.0
                } else {
                    f64::INFINITY
                };
                let lower = v.lower.unwrap_or(0.0);
                let upper = v.upper.unwrap_or(default_upper);
                let kind = match (v.integer, lower == 0.0 && upper == 1.0) {
                    (true, true) => VarKind::Binary,
                    (true, false) => VarKind::Integer,
                    _ => VarKind::Continuous,
                };
                Var {
                    name: Name::Text(v.name),
                    kind,
                    lower,
                    upper,
                    objective: v.objective,
                }
            })
            .collect();
        let rows = self
            .rows
            .into_iter()
            .map(|r| Row {
                name: Name::Text(r.name),
                terms: merge_terms(r.terms),
                lower: r.lower,
                upper: r.upper,
            })
            .collect();
        Model {
            name,
            sense,
            objective_offset: offset,
            vars,
            rows,
        }
    }
}

/// Sorts terms by column and sums the coefficients of a repeated column.
fn merge_terms(mut terms: Vec<(usize, f64)>) -> Vec<(crate::model::VarId, f64)> {
    terms.sort_by_key(|t| t.0);
    let mut out: Vec<(crate::model::VarId, f64)> = Vec::with_capacity(terms.len());
    for (j, c) in terms {
        match out.last_mut() {
            Some(last) if last.0 .0 == j => last.1 += c,
            _ => out.push((crate::model::VarId(j), c)),
        }
    }
    out
}

/// The file's stem, as the name of a model whose file names none.
fn stem(file: &Path) -> String {
    file.file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("model")
        .to_string()
}

/// Shortest text that reads back as the same f64 (Rust's `Display` is round-trip exact).
pub(crate) fn num(x: f64) -> String {
    format!("{x}")
}

/// `model` as a minimisation: the objective negated when it maximises (the constant is
/// left out: an answer is costed on the model itself).
pub(crate) fn minimisation(model: &Model) -> Vec<f64> {
    let sign = if model.sense == Sense::Maximize {
        -1.0
    } else {
        1.0
    };
    model.vars.iter().map(|v| sign * v.objective).collect()
}

/// The objective of `model` as a minimisation over its columns, the terms with a
/// nonzero coefficient (for the objective bound of the CNF calls).
pub fn minimised_objective(model: &Model) -> Vec<(VarId, f64)> {
    minimisation(model)
        .into_iter()
        .enumerate()
        .filter(|(_, c)| *c != 0.0)
        .map(|(j, c)| (VarId(j), c))
        .collect()
}

#[cfg(test)]
/// max 3a + 2b s.t. a + b <= 1, 1 <= a + c <= 2, b = c (binary columns): the model
/// the minimisation writers and OPB are tested on.
pub(crate) fn maximising() -> Model {
    let mut m = Model::new("small");
    m.sense = Sense::Maximize;
    let a = m.add_var("a", VarKind::Binary, 0.0, 1.0, 3.0);
    let b = m.add_var("b", VarKind::Binary, 0.0, 1.0, 2.0);
    let c = m.add_var("c", VarKind::Binary, 0.0, 1.0, 0.0);
    m.add_le("r", [(a, 1.0), (b, 1.0)], 1.0);
    m.add_row("s", [(a, 1.0), (c, 1.0)], 1.0, 2.0);
    m.add_row("t", [(b, 1.0), (c, -1.0)], 0.0, 0.0);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::VarId;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[test]
    fn writers_are_deterministic_and_complete() {
        use crate::model::tests::small;
        let (a, b) = (small(), small());
        assert_eq!(mps::write(&a), mps::write(&b));
        assert_eq!(lp::write(&a), lp::write(&b));
        let text = mps::write(&a);
        assert!(text.contains(" E  r1"));
        assert!(text.contains(" L  r2"));
        assert!(text.contains("RNG r3 5"));
        assert!(text.contains(" MI BND z"));
        let text = lp::write(&a);
        assert!(text.contains(" r2: 3 y - z <= 7"), "{text}");
        assert!(text.contains("Binaries\n x\n"));
        assert!(text.contains("Generals\n y\n"));
    }

    #[test]
    fn mps_and_lp_minimise_with_positional_names() {
        let m = super::maximising();
        let text = mps::write_minimisation(&m);
        assert!(
            text.contains("C0 OBJ -3")
                && !text.contains("OBJSENSE")
                && text.starts_with("NAME small FREE\n"),
            "{text}"
        );
        let text = lp::write_minimisation(&m);
        assert!(
            text.starts_with("\\ Problem: small\nMinimize\n obj: - 3 C0 - 2 C1"),
            "{text}"
        );
        assert!(text.contains(" R1: C0 + C2 >= 1"), "{text}");
    }

    #[test]
    fn format_of_path() {
        assert_eq!(Format::of_path(Path::new("a/b.lp")), Some(Format::Lp));
        assert_eq!(Format::of_path(Path::new("B.MPS")), Some(Format::Mps));
        assert_eq!(Format::of_path(Path::new("b.Lp")), Some(Format::Lp));
        assert_eq!(Format::of_path(Path::new("b.lp.gz")), None);
        assert_eq!(Format::of_path(Path::new("lp")), None);
    }

    #[test]
    fn error_display() {
        let e = ReadError {
            file: "m.lp".into(),
            line: 3,
            message: "bad".into(),
        };
        assert_eq!(e.to_string(), "m.lp:3: bad");
        let e = ReadError { line: 0, ..e };
        assert_eq!(e.to_string(), "m.lp: bad");
    }

    #[test]
    fn read_model_reports_missing_files() {
        let e = read_model(Path::new("/nonexistent/x.lp"), Format::Lp).unwrap_err();
        assert_eq!(e.line, 0);
        assert!(e.message.contains("cannot read"), "{e}");
    }

    #[test]
    fn merge_sums_and_sorts() {
        let t = merge_terms(vec![(2, 1.0), (0, 2.0), (2, 3.0)]);
        assert_eq!(t, vec![(VarId(0), 2.0), (VarId(2), 4.0)]);
    }

    /// Columns by name (kind, bounds, objective); rows in order with terms by name.
    type Canon = (
        Sense,
        u64,
        BTreeMap<String, (VarKind, u64, u64, u64)>,
        Vec<(String, Vec<(String, u64)>, u64, u64)>,
    );

    /// A model compared by names, independent of column order; floats bit for bit.
    fn canon(m: &Model) -> Canon {
        let vars = m
            .vars
            .iter()
            .map(|v| {
                (
                    v.name.to_string(),
                    (
                        v.kind,
                        v.lower.to_bits(),
                        v.upper.to_bits(),
                        v.objective.to_bits(),
                    ),
                )
            })
            .collect();
        let rows = m
            .rows
            .iter()
            .map(|r| {
                let mut t: Vec<(String, u64)> = r
                    .terms
                    .iter()
                    .map(|&(v, c)| (m.vars[v.0].name.to_string(), c.to_bits()))
                    .collect();
                t.sort();
                (r.name.to_string(), t, r.lower.to_bits(), r.upper.to_bits())
            })
            .collect();
        (m.sense, m.objective_offset.to_bits(), vars, rows)
    }

    /// The reader's rule: an integer column with bounds 0 and 1 is binary.
    fn binary_rule(m: &mut Model) {
        for v in &mut m.vars {
            if v.kind == VarKind::Integer && v.lower == 0.0 && v.upper == 1.0 {
                v.kind = VarKind::Binary;
            }
        }
    }

    /// What `to_lp` makes of a model: ranged rows split into `r` and `r_ub`.
    fn as_written_lp(m: &Model) -> Model {
        let mut e = m.clone();
        binary_rule(&mut e);
        e.rows.clear();
        for r in &m.rows {
            if r.lower.is_finite() && r.upper.is_finite() && r.lower != r.upper {
                let mut lo = r.clone();
                lo.upper = f64::INFINITY;
                let mut up = r.clone();
                up.lower = f64::NEG_INFINITY;
                up.name = Name::Text(format!("{}_ub", r.name));
                e.rows.push(lo);
                e.rows.push(up);
            } else {
                e.rows.push(r.clone());
            }
        }
        e
    }

    /// What `to_mps` makes of a model: free rows dropped (a second N row). (A column with
    /// lower bound 0 and a negative upper bound gets `LO 0` beside its `UP`, so that the
    /// classic rule, `UP` below 0 alone sets the lower bound to -inf, does not apply.)
    fn as_written_mps(m: &Model, plain: bool) -> Model {
        let mut e = m.clone();
        binary_rule(&mut e);
        if plain {
            for (j, v) in e.vars.iter_mut().enumerate() {
                v.name = Name::Text(format!("C{j}"));
            }
            for (i, r) in e.rows.iter_mut().enumerate() {
                r.name = Name::Text(format!("R{i}"));
            }
            e.sense = Sense::Minimize;
            e.objective_offset = 0.0;
        }
        e.rows
            .retain(|r| r.lower.is_finite() || r.upper.is_finite());
        e
    }

    const NAME_TAILS: [&str; 6] = ["", "_a", "(1,2)", "#", "{k}", ".b"];
    const LOWERS: [f64; 5] = [f64::NEG_INFINITY, -3.0, 0.0, 0.0, 2.0];
    const UPPERS: [f64; 6] = [f64::INFINITY, -1.0, 0.0, 1.0, 5.0, 2.5];
    const COEFS: [f64; 7] = [-2.0, -1.0, 0.5, 1.0, 4.0, 1e-3, 12345.678];

    prop_compose! {
        fn arb_model()(
            sense in any::<bool>(),
            offset in prop::sample::select(vec![0.0, 1.5, -7.0]),
            vars in prop::collection::vec((0usize..3, 0usize..5, 0usize..6, 0usize..8, 0usize..6), 0..7),
            rows in prop::collection::vec((prop::collection::vec((0usize..7, 0usize..7), 0..5), 0usize..5, -3i32..4, 0i32..4, 0usize..6), 0..6),
        ) -> Model {
            let mut m = Model::new("rt");
            m.sense = if sense { Sense::Maximize } else { Sense::Minimize };
            m.objective_offset = offset;
            for (j, &(k, lo, up, obj, tail)) in vars.iter().enumerate() {
                let name = format!("v{j}{}", NAME_TAILS[tail]);
                let objective = if obj >= COEFS.len() { 0.0 } else { COEFS[obj] };
                match k {
                    0 => { m.add_var(name, VarKind::Binary, 0.0, 1.0, objective); }
                    1 => { m.add_var(name, VarKind::Integer, LOWERS[lo], UPPERS[up], objective); }
                    _ => { m.add_var(name, VarKind::Continuous, LOWERS[lo], UPPERS[up], objective); }
                }
            }
            let n = m.vars.len();
            for (i, (terms, kind, lo, width, tail)) in rows.into_iter().enumerate() {
                let terms: Vec<(VarId, f64)> = if n == 0 {
                    Vec::new()
                } else {
                    terms.iter().map(|&(v, c)| (VarId(v % n), COEFS[c])).collect()
                };
                let lo = lo as f64;
                let (l, u) = match kind {
                    0 => (lo, lo),
                    1 => (f64::NEG_INFINITY, lo),
                    2 => (lo, f64::INFINITY),
                    3 => (lo, lo + 1.0 + width as f64),
                    _ => (f64::NEG_INFINITY, f64::INFINITY),
                };
                m.add_row(format!("r{i}{}", NAME_TAILS[tail]), terms, l, u);
            }
            m
        }
    }

    fn check_round_trip(m: &Model) {
        let lp_text = lp::write(m);
        let back =
            parse_lp(&lp_text, Path::new("rt.lp")).unwrap_or_else(|e| panic!("{e}\n{lp_text}"));
        let want = as_written_lp(m);
        assert_eq!(canon(&back), canon(&want), "{lp_text}");
        assert_eq!(back.counts(), want.counts());
        for plain in [false, true] {
            let text = if plain {
                mps::write_plain(m)
            } else {
                mps::write(m)
            };
            let back =
                parse_mps(&text, Path::new("rt.mps")).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let want = as_written_mps(m, plain);
            assert_eq!(canon(&back), canon(&want), "{text}");
            assert_eq!(back.counts(), want.counts());
            if !plain {
                // Free MPS keeps the column order.
                let names = |m: &Model| {
                    m.vars
                        .iter()
                        .map(|v| v.name.to_string())
                        .collect::<Vec<_>>()
                };
                assert_eq!(names(&back), names(&want));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn writers_round_trip(m in arb_model()) {
            check_round_trip(&m);
        }
    }

    /// Runs both readers; either answer is fine, a panic is not, and an error names the
    /// file.
    fn no_panic(text: &str) {
        for r in [
            parse_lp(text, Path::new("f.lp")),
            parse_mps(text, Path::new("f.lp")),
        ] {
            if let Err(e) = r {
                assert!(e.to_string().starts_with("f.lp"), "{e}");
            }
        }
    }

    #[derive(Clone, Debug)]
    enum Mutation {
        DropToken(usize),
        DuplicateLine(usize),
        SwapChars(usize, usize),
        Insert(usize, char),
    }

    fn mutate(text: &str, muts: &[Mutation]) -> String {
        let mut s: Vec<char> = text.chars().collect();
        for m in muts {
            match *m {
                Mutation::DropToken(k) => {
                    let t: String = s.iter().collect();
                    let toks: Vec<&str> = t.split(' ').collect();
                    if !toks.is_empty() {
                        let k = k % toks.len();
                        let kept: Vec<&str> = toks
                            .iter()
                            .enumerate()
                            .filter(|&(i, _)| i != k)
                            .map(|(_, x)| *x)
                            .collect();
                        s = kept.join(" ").chars().collect();
                    }
                }
                Mutation::DuplicateLine(k) => {
                    let t: String = s.iter().collect();
                    let mut lines: Vec<&str> = t.lines().collect();
                    if !lines.is_empty() {
                        let k = k % lines.len();
                        lines.insert(k, lines[k]);
                    }
                    s = lines.join("\n").chars().collect();
                }
                Mutation::SwapChars(i, j) => {
                    if !s.is_empty() {
                        let n = s.len();
                        s.swap(i % n, j % n);
                    }
                }
                Mutation::Insert(i, c) => {
                    let i = i % (s.len() + 1);
                    s.insert(i, c);
                }
            }
        }
        s.into_iter().collect()
    }

    fn arb_mutation() -> impl Strategy<Value = Mutation> {
        prop_oneof![
            any::<usize>().prop_map(Mutation::DropToken),
            any::<usize>().prop_map(Mutation::DuplicateLine),
            (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapChars(i, j)),
            (
                any::<usize>(),
                prop::sample::select(vec![
                    '-', '[', ':', '\\', '*', '<', '=', '\n', ' ', 'e', '9', '.', '\''
                ])
            )
                .prop_map(|(i, c)| Mutation::Insert(i, c)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn fuzz_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            no_panic(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn fuzz_random_text(text in "[ \\n\\\\*:<=>+\\-\\[\\]0-9.eExyzMINROWSCOLUMNSRHSBOUNDSENDATAstbound]{0,120}") {
            no_panic(&text);
        }

        #[test]
        fn fuzz_mutated_files(m in arb_model(), muts in prop::collection::vec(arb_mutation(), 1..4)) {
            for text in [lp::write(&m), mps::write(&m), mps::write_plain(&m)] {
                no_panic(&mutate(&text, &muts));
            }
        }
    }

    fn data(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/model_reader")
            .join(name)
    }

    fn both(stem: &str) -> [Model; 2] {
        let lp =
            read_model(&data(&format!("{stem}.lp")), Format::Lp).unwrap_or_else(|e| panic!("{e}"));
        let mps = read_model(&data(&format!("{stem}.mps")), Format::Mps)
            .unwrap_or_else(|e| panic!("{e}"));
        [lp, mps]
    }

    fn find<'m>(m: &'m Model, name: &str) -> &'m Var {
        m.vars
            .iter()
            .find(|v| v.name.to_string() == name)
            .unwrap_or_else(|| panic!("no {name}"))
    }

    #[test]
    fn pulp_mixed() {
        for m in both("pulp_mixed") {
            let c = m.counts();
            assert_eq!(
                (
                    c.variables,
                    c.binaries,
                    c.integers,
                    c.continuous,
                    c.constraints,
                    c.nonzeros
                ),
                (4, 1, 1, 2, 4, 10)
            );
            assert_eq!(m.sense, Sense::Minimize);
            // PuLP drops the objective's constant (10) from both files.
            assert_eq!(m.objective_offset, 0.0);
            let n = find(&m, "n");
            assert_eq!(
                (n.kind, n.lower, n.upper, n.objective),
                (VarKind::Integer, 1.0, 9.0, 2.0)
            );
            let y = find(&m, "y");
            assert_eq!(
                (y.kind, y.lower, y.upper, y.objective),
                (VarKind::Continuous, f64::NEG_INFINITY, f64::INFINITY, -1.0)
            );
            let z = find(&m, "z");
            assert_eq!((z.lower, z.upper, z.objective), (-2.5, 4.0, 0.5));
            assert_eq!(find(&m, "b").kind, VarKind::Binary);
            let c1 = m.rows.iter().find(|r| r.name.to_string() == "_C1").unwrap();
            assert_eq!(
                (c1.lower, c1.upper, c1.terms.len()),
                (-5.0, f64::INFINITY, 2)
            );
            let bal = m
                .rows
                .iter()
                .find(|r| r.name.to_string() == "balance")
                .unwrap();
            assert_eq!((bal.lower, bal.upper), (1.0, 1.0));
        }
    }

    #[test]
    fn pulp_knap() {
        for m in both("pulp_knap") {
            let c = m.counts();
            assert_eq!(
                (
                    c.variables,
                    c.binaries,
                    c.integers,
                    c.continuous,
                    c.constraints,
                    c.nonzeros
                ),
                (5, 2, 3, 0, 2, 7)
            );
            // The MPS file has the sense only in PuLP's `*SENSE:Maximize` comment.
            assert_eq!(m.sense, Sense::Maximize);
            let x = find(&m, "x_1");
            assert_eq!(
                (x.kind, x.lower, x.upper, x.objective),
                (VarKind::Integer, 0.0, f64::INFINITY, 4.0)
            );
            assert_eq!(find(&m, "w1").objective, -1.0);
            let w = m
                .rows
                .iter()
                .find(|r| r.name.to_string() == "weight")
                .unwrap();
            assert_eq!((w.lower, w.upper), (f64::NEG_INFINITY, 5.0));
        }
    }

    #[test]
    fn pulp_empty_objective() {
        for (m, dummy_objective) in both("pulp_empty").into_iter().zip([1.0, 0.0]) {
            let c = m.counts();
            // f (fixed to 1: integer, not binary), g (binary), and PuLP's __dummy.
            assert_eq!(
                (
                    c.variables,
                    c.binaries,
                    c.integers,
                    c.continuous,
                    c.constraints
                ),
                (3, 1, 1, 1, 1)
            );
            let f = find(&m, "f");
            assert_eq!((f.kind, f.lower, f.upper), (VarKind::Integer, 1.0, 1.0));
            let d = find(&m, "__dummy");
            // The LP file says `OBJ: __dummy`, the MPS file `__dummy OBJ 0`.
            assert_eq!((d.lower, d.upper, d.objective), (0.0, 0.0, dummy_objective));
        }
    }

    /// A model with every kind, infinite and negative bounds, ranged rows and an offset.
    fn rich(sense: Sense) -> Model {
        let mut m = Model::new("rich");
        m.sense = sense;
        m.objective_offset = 2.5;
        let b = m.add_var("b", VarKind::Binary, 0.0, 1.0, 3.0);
        let n = m.add_var("n", VarKind::Integer, -4.0, 6.0, -1.0);
        let y = m.add_var("y", VarKind::Continuous, f64::NEG_INFINITY, 8.0, 0.5);
        let z = m.add_var("z", VarKind::Continuous, -2.0, f64::INFINITY, 1.0);
        m.add_row("r0", [(b, 1.0), (n, 1.0), (y, 1.0)], 1.0, 7.0);
        m.add_le("r1", [(n, 2.0), (z, -1.0)], 5.0);
        m.add_ge("r2", [(y, 1.0), (z, 1.0)], -3.0);
        m.add_eq("r3", [(b, 1.0), (z, 2.0)], 1.0);
        m
    }

    /// Has HiGHS read `model` (through our free MPS), solve it and write it as `ext`.
    fn highs_round(model: &Model, dir: &Path, ext: &str) -> (f64, Model) {
        use std::ffi::CString;
        let src = dir.join("in.mps");
        std::fs::write(&src, mps::write(model)).unwrap();
        let out = dir.join(format!("out.{ext}"));
        let c = |p: &Path| CString::new(p.to_str().unwrap()).unwrap();
        // SAFETY: a fresh HiGHS instance used only here and destroyed at the end; the
        // strings outlive the calls.
        let objective = unsafe {
            let h = highs_sys::Highs_create();
            highs_sys::Highs_setBoolOptionValue(h, c"output_flag".as_ptr(), 0);
            assert_eq!(highs_sys::Highs_readModel(h, c(&src).as_ptr()), 0);
            assert_eq!(highs_sys::Highs_run(h), 0);
            let v = highs_sys::Highs_getObjectiveValue(h);
            assert!(highs_sys::Highs_writeModel(h, c(&out).as_ptr()) >= 0);
            highs_sys::Highs_destroy(h);
            v
        };
        let format = Format::of_path(&out).unwrap();
        let back = read_model(&out, format).unwrap_or_else(|e| {
            panic!("{e}\n{}", std::fs::read_to_string(&out).unwrap_or_default())
        });
        (objective, back)
    }

    #[test]
    fn files_written_by_highs() {
        let dir = tempfile::tempdir().unwrap();
        let mut models = vec![rich(Sense::Minimize), rich(Sense::Maximize)];
        models.push(crate::engines::test_models::model_of(
            3,
            (-2, 3),
            &[1, -2, 3],
            Sense::Maximize,
            &[
                (vec![1, 1, 1], 0.0, 4.0),
                (vec![2, -1, 0], f64::NEG_INFINITY, 1.0),
            ],
        ));
        models.push(crate::engines::test_models::binary_model(
            4,
            &[1, 2, 3, 4],
            Sense::Minimize,
            &[(vec![1, 1, 1, 1], 2.0, f64::INFINITY)],
        ));
        for m in &models {
            for ext in ["lp", "mps"] {
                let (highs_objective, back) = highs_round(m, dir.path(), ext);
                let text = std::fs::read_to_string(dir.path().join(format!("out.{ext}"))).unwrap();
                let mut want = m.counts();
                if ext == "lp" {
                    // HiGHS writes a ranged row as two rows (`r0lo`, `r0up`).
                    let ranged: Vec<&crate::model::Row> = m
                        .rows
                        .iter()
                        .filter(|r| {
                            r.lower.is_finite() && r.upper.is_finite() && r.lower != r.upper
                        })
                        .collect();
                    want.constraints += ranged.len();
                    want.nonzeros += ranged.iter().map(|r| r.terms.len()).sum::<usize>();
                }
                assert_eq!(back.counts(), want, "{ext}\n{text}");
                assert_eq!(back.sense, m.sense, "{text}");
                assert_eq!(back.objective_offset, m.objective_offset, "{text}");
                for v in &m.vars {
                    let w = find(&back, &v.name.to_string());
                    assert_eq!(
                        (w.kind, w.lower, w.upper, w.objective),
                        (v.kind, v.lower, v.upper, v.objective),
                        "{text}"
                    );
                }
                // The model read back has the optimum HiGHS found for the original.
                let settings = crate::engines::Settings::default();
                let budget = crate::engines::budget::Budget::unlimited();
                let ours = crate::engines::highs::solve(&back, &settings, &budget);
                // The engine leaves the constant to its caller.
                let got = ours.objective.unwrap_or(f64::NAN) + back.objective_offset;
                assert!(
                    (got - highs_objective).abs() < 1e-6,
                    "{got} vs {highs_objective}\n{text}"
                );
            }
        }
    }
}
