//! `hitset`: the project's search for unit-cost set covering ("hitting sets"), in
//! process, in the order of McGuire et al.'s hitting-set enumeration (reference 18 of the
//! report 002, which showed that no 16-clue Sudoku exists): models whose columns are 0/1
//! with objective 1, minimised, whose rows are Σ x ≥ 1 over some columns (a set to hit,
//! all coefficients 1) or Σ x ≤ K over all columns (a cap). Minimum-clue Sudoku's leader is
//! such a model.
//!
//! * **Search**: iterative deepening on the number k of chosen columns, from the number of
//!   pairwise disjoint sets (a lower bound) up to the cap: a depth-first search that takes
//!   the unhit set with the fewest allowed columns and branches on each of its columns in
//!   turn, each tried column forbidden in the branches after it (so every hitting set of
//!   at most k columns is met once), and prunes a node when more pairwise disjoint unhit
//!   sets remain (counted greedily, smallest first) than columns left to choose. Sets are
//!   kept as bit sets of columns.
//! * **Rows added while solving** (row generation): every hitting set the search reaches
//!   goes to the separator; the rows it returns (sets to hit, at least one violated by the
//!   point, and caps Σ x ≤ K over every column) join the family and the search goes on
//!   from the same node. The first hitting set it accepts is optimal, since every smaller
//!   one was met and refused before; when the caps leave no k to search, the model is
//!   infeasible.
//! * **Bound**: at the time limit the bound is the k being searched (every smaller hitting
//!   set was met), with no incumbent. `nodes` counts the search's nodes, `rounds` the
//!   separator's calls.
//! * **Settings**: none (no presolve, seed, threads, gap or heuristics; one thread).

use super::{
    Budget, Capabilities, Clock, Declaration, Engine, EngineImpl, Outcome, Settings, Status,
};
use crate::lazy::{Cut, Separator};
use crate::model::{Model, Name, Sense, VarKind};
use std::time::Instant;

/// The engine.
pub const HITSET: Engine = Engine::new(&Hitset);

/// The hitting-set search.
pub struct Hitset;

/// Columns a model may have at most (bit sets of 128 words).
pub const MAX_COLUMNS: usize = 128 * 64;

static DECLARATION: Declaration = Declaration {
    key: "hitset",
    description: "the project's hitting-set search (McGuire et al.'s order), in process: unit-cost set covering only (0/1 columns, min sum x, rows sum x >= 1 and one cap sum x <= K), by iterative deepening with a disjoint-sets bound; rows added at its leaves",
    capabilities: Capabilities {
        kinds: &[super::Kind::Mip, super::Kind::RowGeneration],
        continuous: false,
        general_integers: false,
        fractional_coefficients: false,
        lp_relaxation: false,
        incumbent_at_limit: false,
        clock: Clock::Wall,
        presolve: false,
        seed: false,
        threads: false,
        mip_gap: false,
        heuristics: false,
        clausal: false,
        external: false,
        general: false,
        timeline: true,
    },
};

impl EngineImpl for Hitset {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        format!("puzzlebench hitset {}", env!("CARGO_PKG_VERSION"))
    }

    fn refuses(&self, model: &Model) -> Option<String> {
        refusal(model)
    }

    fn solve_mip(&self, model: &Model, _settings: &Settings, budget: &Budget) -> Outcome {
        let mut m = model.clone();
        search(&mut m, None, budget)
    }

    fn solve_rows(
        &self,
        model: &mut Model,
        separator: &mut dyn Separator,
        _settings: &Settings,
        budget: &Budget,
    ) -> Outcome {
        search(model, Some(separator), budget)
    }
}

/// A set of columns, in `W` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bits<const W: usize>([u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    fn set(&mut self, j: usize) {
        self.0[j / 64] |= 1 << (j % 64);
    }
    fn clear(&mut self, j: usize) {
        self.0[j / 64] &= !(1 << (j % 64));
    }
    fn meets(&self, o: &Self) -> bool {
        (0..W).any(|w| self.0[w] & o.0[w] != 0)
    }
    fn and(&self, o: &Self) -> Self {
        Bits(std::array::from_fn(|w| self.0[w] & o.0[w]))
    }
    fn minus(&self, o: &Self) -> Self {
        Bits(std::array::from_fn(|w| self.0[w] & !o.0[w]))
    }
    fn union(&mut self, o: &Self) {
        for w in 0..W {
            self.0[w] |= o.0[w];
        }
    }
    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// The point with 1 on these columns and 0 on the others of `columns`.
    fn values(&self, columns: usize) -> Vec<f64> {
        (0..columns)
            .map(|j| f64::from(u8::from(self.0[j / 64] >> (j % 64) & 1 == 1)))
            .collect()
    }
    fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// The sets and the cap of a set-covering model, or why it is not one.
struct Shape<const W: usize> {
    sets: Vec<Bits<W>>,
    cap: usize,
    forbidden: Bits<W>,
}

/// Why `model` is not unit-cost set covering, if it is not.
fn refusal(model: &Model) -> Option<String> {
    columns(model)
        .and_then(|_| {
            model.rows.iter().try_for_each(|r| {
                row_kind(&r.terms, r.lower, r.upper)
                    .map(|_| ())
                    .map_err(|e| format!("row {}: {e}", r.name))
            })
        })
        .err()
}

/// Checks the columns and the sense of `model`.
fn columns(model: &Model) -> Result<(), String> {
    let n = model.vars.len();
    if n > MAX_COLUMNS {
        return Err(format!(
            "hitset takes at most {MAX_COLUMNS} columns; the model has {n}"
        ));
    }
    if model.sense != Sense::Minimize {
        return Err("hitset minimises; the model maximises".into());
    }
    match model
        .vars
        .iter()
        .find(|v| v.kind != VarKind::Binary || v.objective != 1.0 || v.lower != 0.0)
    {
        Some(v) => Err(format!(
            "hitset takes 0/1 columns with objective 1; column {} is not one",
            v.name
        )),
        None => Ok(()),
    }
}

/// Reads `model` as unit-cost set covering.
fn shape<const W: usize>(model: &Model) -> Result<Shape<W>, String> {
    columns(model)?;
    let n = model.vars.len();
    let mut forbidden = Bits::default();
    for (j, v) in model.vars.iter().enumerate() {
        if v.upper < 0.5 {
            forbidden.set(j);
        }
    }
    let mut sets = Vec::new();
    let mut cap = n;
    for r in &model.rows {
        sets.extend(
            set_of(&r.terms, r.lower, r.upper).map_err(|e| format!("row {}: {e}", r.name))?,
        );
        if r.terms.len() == n && r.lower <= 0.0 && r.upper.is_finite() {
            cap = cap.min(r.upper.floor().max(0.0) as usize);
        }
    }
    Ok(Shape {
        sets,
        cap,
        forbidden,
    })
}

/// What a row is to hitset: a set to hit (`true`: Σ x ≥ 1) or a cap (`false`: Σ x ≤ K,
/// which the caller reads when it spans every column).
fn row_kind(terms: &[(crate::model::VarId, f64)], lower: f64, upper: f64) -> Result<bool, String> {
    if terms.iter().any(|&(_, c)| c != 1.0) {
        return Err("hitset takes rows whose coefficients are all 1".into());
    }
    if lower == 1.0 && upper == f64::INFINITY {
        return Ok(true);
    }
    if lower <= 0.0 && upper.is_finite() {
        return Ok(false);
    }
    Err(format!(
        "hitset takes rows sum x >= 1 and a cap sum x <= K; this one is {lower} <= sum x <= {upper}"
    ))
}

/// The set of a row "Σ x ≥ 1" (`None` for a cap over every column, which the caller reads).
fn set_of<const W: usize>(
    terms: &[(crate::model::VarId, f64)],
    lower: f64,
    upper: f64,
) -> Result<Option<Bits<W>>, String> {
    Ok(row_kind(terms, lower, upper)?.then(|| {
        let mut b = Bits::default();
        for &(v, _) in terms {
            b.set(v.0);
        }
        b
    }))
}

/// Why the depth-first search stopped early.
enum Stop {
    Deadline,
    Error(String),
    /// A row added while solving that the search cannot take.
    Refused(String),
}

/// The search state of one run.
struct Search<'a, const W: usize> {
    /// The sets to hit: the model's, smallest first, then those added while solving.
    sets: Vec<Bits<W>>,
    /// The unhit lists of the nodes on the current path, one buffer per depth.
    buffers: Vec<Vec<u32>>,
    columns: usize,
    separator: Option<&'a mut (dyn Separator + 'a)>,
    /// The most columns a solution may have (the caps of the model and of rows added).
    cap: usize,
    model: &'a mut Model,
    budget: &'a Budget,
    nodes: u64,
    rounds: u64,
    cuts: u64,
    separating: f64,
}

impl<const W: usize> Search<'_, W> {
    /// Greedy count of pairwise disjoint sets among `unhit` (their allowed columns, in the
    /// list's order), stopping past `limit`; and the set with the fewest allowed columns.
    /// `None` for the set when the list is empty; a count above the limit when some set has
    /// no allowed column.
    fn look(&self, unhit: &[u32], forbidden: &Bits<W>, limit: usize) -> (usize, Option<Bits<W>>) {
        let mut packed = Bits::default();
        let mut disjoint = 0;
        let mut best: Option<(u32, Bits<W>)> = None;
        for &i in unhit {
            let allowed = self.sets[i as usize].minus(forbidden);
            let len = allowed.len();
            if len == 0 {
                return (limit + 1, None);
            }
            if !allowed.meets(&packed) {
                disjoint += 1;
                packed.union(&allowed);
                if disjoint > limit {
                    return (disjoint, None);
                }
            }
            if best.is_none_or(|(l, _)| len < l) {
                best = Some((len, allowed));
            }
        }
        (disjoint, best.map(|(_, b)| b))
    }

    /// Appends to `unhit` the sets from `from` on that `chosen` does not hit; returns the
    /// family's size.
    fn catch_up(&self, unhit: &mut Vec<u32>, chosen: &Bits<W>, from: usize) -> usize {
        for (i, s) in self.sets.iter().enumerate().skip(from) {
            if !s.meets(chosen) {
                unhit.push(i as u32);
            }
        }
        self.sets.len()
    }

    /// Every hitting set of at most `left` more columns below the node `chosen`, with the
    /// columns of `forbidden` out; the first the separator accepts. `parent` lists the sets
    /// the parent node left unhit (in order, smallest first as the family was at the start)
    /// as of family size `seen`; the node keeps its own list, made from the parent's and
    /// the sets added since, in a buffer per depth.
    fn dfs(
        &mut self,
        chosen: &mut Bits<W>,
        forbidden: &mut Bits<W>,
        left: usize,
        depth: usize,
        parent: &[u32],
        seen: usize,
    ) -> Result<Option<Bits<W>>, Stop> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.budget.expired() {
            return Err(Stop::Deadline);
        }
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut unhit = std::mem::take(&mut self.buffers[depth]);
        unhit.clear();
        unhit.extend(
            parent
                .iter()
                .copied()
                .filter(|&i| !self.sets[i as usize].meets(chosen)),
        );
        let mut seen = self.catch_up(&mut unhit, chosen, seen);
        let result = loop {
            // A cap added below may leave fewer columns to choose.
            let taken = chosen.len() as usize;
            if taken > self.cap {
                break Ok(None);
            }
            let left = left.min(self.cap - taken);
            let (disjoint, branch) = self.look(&unhit, forbidden, left);
            if disjoint > left {
                break Ok(None);
            }
            let Some(branch) = branch else {
                // A hitting set: the separator decides.
                let Some(sep) = self.separator.as_deref_mut() else {
                    break Ok(Some(*chosen));
                };
                let x = chosen.values(self.columns);
                self.rounds += 1;
                let asked = Instant::now();
                let rows = sep.separate(&x, true);
                self.separating += asked.elapsed().as_secs_f64();
                if rows.is_empty() {
                    break Ok(Some(*chosen));
                }
                if !rows.iter().any(|r| r.violation(&x) > 0.5) {
                    break Err(Stop::Error(
                        "the separator refused a point but returned no row it breaks".into(),
                    ));
                }
                if let Err(e) = rows.into_iter().try_for_each(|row| self.take(row)) {
                    break Err(e);
                }
                if self.budget.expired() {
                    break Err(Stop::Deadline);
                }
                seen = self.catch_up(&mut unhit, chosen, seen);
                continue;
            };
            // With one column left, it must hit every unhit set: only their common allowed
            // columns are worth a child.
            let branch = if left == 1 {
                let mut common = branch;
                for &i in &unhit {
                    common = common.and(&self.sets[i as usize]);
                }
                common
            } else {
                branch
            };
            let mut tried = Vec::new();
            let mut found = Ok(None);
            for j in branch.ones().collect::<Vec<_>>() {
                chosen.set(j);
                let r = self.dfs(chosen, forbidden, left - 1, depth + 1, &unhit, seen);
                chosen.clear(j);
                if !matches!(r, Ok(None)) {
                    found = r;
                    break;
                }
                // Sets the branch added count for the branches after it.
                seen = self.catch_up(&mut unhit, chosen, seen);
                forbidden.set(j);
                tried.push(j);
            }
            for j in tried {
                forbidden.clear(j);
            }
            break found;
        };
        self.buffers[depth] = unhit;
        result
    }

    /// Adds a row the separator returned to the family and to the model.
    fn take(&mut self, row: Cut) -> Result<(), Stop> {
        match set_of(&row.terms, row.lower, row.upper) {
            Ok(Some(b)) => {
                self.cuts += 1;
                self.model.add_row(
                    Name::idx("row", &[self.cuts as usize]),
                    row.terms,
                    row.lower,
                    row.upper,
                );
                self.sets.push(b);
                Ok(())
            }
            Ok(None) if row.terms.len() == self.columns => {
                self.cuts += 1;
                self.cap = self.cap.min(row.upper.floor().max(0.0) as usize);
                self.model.add_row(
                    Name::idx("row", &[self.cuts as usize]),
                    row.terms,
                    row.lower,
                    row.upper,
                );
                Ok(())
            }
            Ok(None) => Err(Stop::Refused(
                "unsupported by hitset: a row added while solving caps some columns only".into(),
            )),
            Err(e) => Err(Stop::Refused(format!(
                "unsupported by hitset: a row added while solving: {e}"
            ))),
        }
    }
}

/// Iterative deepening over k, as the module says, on bit sets of the fewest words that
/// hold the model's columns.
fn search<'a>(
    model: &'a mut Model,
    separator: Option<&'a mut (dyn Separator + 'a)>,
    budget: &'a Budget,
) -> Outcome {
    match model.vars.len().div_ceil(64) {
        0..=2 => search_in::<2>(model, separator, budget),
        3..=4 => search_in::<4>(model, separator, budget),
        5..=8 => search_in::<8>(model, separator, budget),
        9..=16 => search_in::<16>(model, separator, budget),
        17..=32 => search_in::<32>(model, separator, budget),
        33..=64 => search_in::<64>(model, separator, budget),
        _ => search_in::<128>(model, separator, budget),
    }
}

/// [`search`] with sets of `W` words.
fn search_in<'a, const W: usize>(
    model: &'a mut Model,
    separator: Option<&'a mut (dyn Separator + 'a)>,
    budget: &'a Budget,
) -> Outcome {
    let start = Instant::now();
    let shape = match shape::<W>(model) {
        Ok(s) => s,
        Err(e) => return Outcome::refused(format!("unsupported by hitset: {e}"), 0.0),
    };
    let with_rows = separator.is_some();
    let columns = model.vars.len();
    let mut s = Search::<W> {
        sets: Vec::new(),
        buffers: Vec::new(),
        columns,
        separator,
        cap: shape.cap,
        model,
        budget,
        nodes: 0,
        rounds: 0,
        cuts: 0,
        separating: 0.0,
    };
    let mut sets = shape.sets;
    sets.sort_by_key(|b| b.len());
    s.sets = sets;
    let mut forbidden = shape.forbidden;
    let all: Vec<u32> = (0..s.sets.len() as u32).collect();
    let (first, _) = s.look(&all, &forbidden, columns);
    let mut k = first;
    let ending = loop {
        if k > s.cap {
            break Ok(None);
        }
        if budget.expired() {
            break Err(Stop::Deadline);
        }
        // Every smaller k has been ruled out: k bounds the optimum.
        budget.bound(k as f64);
        match s.dfs(&mut Bits::default(), &mut forbidden, k, 0, &[], 0) {
            Ok(Some(x)) => break Ok(Some(x)),
            Ok(None) => k += 1,
            Err(e) => break Err(e),
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let mut o = match ending {
        Ok(Some(x)) => {
            budget.incumbent(x.len() as f64);
            let values = x.values(columns);
            Outcome {
                objective: Some(x.len() as f64),
                best_bound: Some(x.len() as f64),
                values: Some(values),
                ..Outcome::with_status(Status::Optimal, seconds)
            }
        }
        Ok(None) => Outcome::infeasible(seconds),
        Err(Stop::Deadline) => Outcome {
            best_bound: Some(k as f64),
            ..Outcome::time_limit(seconds)
        },
        Err(Stop::Error(e)) => Outcome::error(e, seconds),
        Err(Stop::Refused(e)) => Outcome::refused(e, seconds),
    };
    o.nodes = Some(s.nodes);
    if with_rows {
        o.rounds = Some(s.rounds);
        o.cuts = Some(s.cuts);
        o.separator_seconds = Some(s.separating);
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::VarId;

    /// A set-covering model over `n` columns with these sets.
    fn cover(n: usize, sets: &[&[usize]]) -> Model {
        let mut m = Model::new("t");
        let x: Vec<VarId> = (0..n)
            .map(|j| m.add_var(format!("x{j}"), VarKind::Binary, 0.0, 1.0, 1.0))
            .collect();
        for (i, s) in sets.iter().enumerate() {
            m.add_ge(format!("s{i}"), s.iter().map(|&j| (x[j], 1.0)), 1.0);
        }
        m
    }

    /// The smallest hitting set by trying every subset.
    fn brute(n: usize, sets: &[&[usize]]) -> Option<usize> {
        (0u32..1 << n)
            .filter(|m| sets.iter().all(|s| s.iter().any(|&j| m >> j & 1 == 1)))
            .map(|m| m.count_ones() as usize)
            .min()
    }

    #[test]
    fn finds_the_smallest_hitting_set_as_brute_force_does() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for case in 0..400 {
            let n = 3 + next() % 10;
            let count = 1 + next() % 12;
            let owned: Vec<Vec<usize>> = (0..count)
                .map(|_| {
                    let mut s: Vec<usize> = (0..n).filter(|_| next() % 3 == 0).collect();
                    if s.is_empty() {
                        s.push(next() % n);
                    }
                    s
                })
                .collect();
            let sets: Vec<&[usize]> = owned.iter().map(|s| s.as_slice()).collect();
            let want = brute(n, &sets);
            // Every other case spreads the columns over a wide model (column j becomes
            // j·spread + 5, up to 12·700 + 5 columns), so that every width of bit set is met.
            let spread = [1, 11, 23, 60, 150, 300, 700][case % 7];
            let wide: Vec<Vec<usize>> = owned
                .iter()
                .map(|s| s.iter().map(|&j| j * spread + 5).collect())
                .collect();
            let wide_sets: Vec<&[usize]> = wide.iter().map(|s| s.as_slice()).collect();
            let columns = (n - 1) * spread + 6;
            for (m, sets) in [
                (cover(n, &sets), &sets),
                (cover(columns, &wide_sets), &wide_sets),
            ] {
                let o = search(&mut m.clone(), None, &Budget::unlimited());
                assert_eq!(o.status, Status::Optimal);
                assert_eq!(o.objective.map(|v| v as usize), want, "{sets:?}");
                // The point found hits every set.
                let x = o.values.unwrap();
                assert!(
                    sets.iter().all(|s| s.iter().any(|&j| x[j] > 0.5)),
                    "{sets:?}"
                );
            }
        }
    }

    #[test]
    fn refuses_more_columns_than_it_holds() {
        let m = cover(MAX_COLUMNS + 1, &[&[0, MAX_COLUMNS]]);
        assert!(refusal(&m).unwrap().contains("at most"));
        assert_eq!(refusal(&cover(MAX_COLUMNS, &[&[0, MAX_COLUMNS - 1]])), None);
    }

    #[test]
    fn refuses_what_is_not_set_covering() {
        let mut m = cover(3, &[&[0, 1]]);
        m.add_le("two", [(VarId(0), 2.0)], 1.0);
        assert!(refusal(&m).unwrap().contains("coefficients are all 1"));
        let mut m = cover(3, &[&[0, 1]]);
        m.sense = Sense::Maximize;
        assert!(refusal(&m).unwrap().contains("maximises"));
    }
}
