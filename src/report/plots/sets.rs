//! The instance sets the comparative figures are drawn on, each with the configurations
//! that ran every one of its instances, so that no figure mixes instance sets:
//!
//! * the **comparison** set: the overview's comparison instances of the puzzle
//!   ([`Answer::keys`]) and its competing configurations, best first ([`Answer::standings`]);
//! * the **rest**: of the instances outside the comparison, the set (with its time limits)
//!   that the most configurations ran, chosen and ranked as the answer chooses and ranks a
//!   comparison without a suite's ([`answer::answer`]); with no comparison (plots made
//!   without the answers), of every instance.
//!
//! Each set names itself for titles ("comparison instances (2)"), and says in a caption
//! what it holds, which configurations ran only part of it (not drawn), and which of the
//! puzzle's tables its runs are in.

use super::Cells;
use crate::record::Record;
use crate::report::answer::{self, instance_key, Answer, Config, InstanceKey};
use crate::report::anytime;
use crate::table::{Table, TableFn};
use std::collections::BTreeSet;

/// Which set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// The overview's comparison instances.
    Comparison,
    /// The instances outside the comparison that the most configurations ran.
    Rest,
}

/// An instance set and the configurations drawn on it.
#[derive(Clone, Debug)]
pub(super) struct Set {
    /// The stem infix of its figures: `comparison` (`comparison2`, … for a puzzle whose
    /// overview has more than one line) or `rest`.
    pub tag: String,
    /// How titles name it: `comparison instances (2)`.
    pub name: String,
    /// Its instances: name and time limit in milliseconds.
    pub keys: BTreeSet<InstanceKey>,
    /// The configurations that ran every instance of the set, best first (instances
    /// solved, then shifted geometric mean).
    pub configs: Vec<Config>,
    /// What a caption says about it: the instances, the configurations left out, the
    /// tables its runs are in.
    pub caption: String,
    /// The configurations left out for running only part of it.
    pub left_out: Vec<Config>,
}

impl Set {
    /// The note under a figure's axes naming the configurations left out, if any: their
    /// names when short, else their number (the caption names them all).
    pub fn left_out_note(&self) -> Option<String> {
        if self.left_out.is_empty() {
            return None;
        }
        let names = join(&self.left_out);
        Some(if names.len() <= 60 {
            format!("not drawn, having run only some of these instances: {names}")
        } else {
            format!(
                "not drawn: {} configurations that ran only some of these instances",
                self.left_out.len()
            )
        })
    }
}

/// The configurations as `a on x, b on y`.
fn join(configs: &[Config]) -> String {
    configs
        .iter()
        .map(Config::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The time limits of `keys` as `2 s limit` or `limits 5 s, 60 s` (empty without one).
fn limits(keys: &BTreeSet<InstanceKey>) -> String {
    let ls: BTreeSet<u64> = keys.iter().filter_map(|k| k.1).collect();
    let s: Vec<String> = ls
        .iter()
        .map(|ms| format!("{} s", *ms as f64 / 1000.0))
        .collect();
    match s.len() {
        0 => String::new(),
        1 => format!("{} limit", s[0]),
        _ => format!("limits {}", s.join(", ")),
    }
}

/// What the figures of one puzzle are drawn from, for [`sets`].
pub(super) struct Source<'a> {
    pub puzzle: &'a str,
    /// The runs drawn (no counting, no refused run).
    pub rows: &'a [&'a Record],
    /// Their cells.
    pub cells: &'a Cells,
    /// Every row of the puzzle, for its tables.
    pub all: &'a [Record],
    /// The puzzles' table functions.
    pub tables: &'a [TableFn],
}

/// The instance sets of one puzzle: one per line of the overview (`comparisons`, its
/// answers), then the rest, ranked with the shift `shift`.
pub(super) fn sets(src: &Source, comparisons: &[&Answer], shift: f64) -> Vec<Set> {
    let mut out = Vec::new();
    let mut compared: BTreeSet<InstanceKey> = BTreeSet::new();
    for (i, a) in comparisons
        .iter()
        .filter(|a| !a.keys.is_empty())
        .enumerate()
    {
        let keys: BTreeSet<InstanceKey> = a.keys.iter().cloned().collect();
        compared.extend(keys.iter().cloned());
        let n = keys.len();
        // The instances by name where they are few.
        let mut detail: Vec<String> = Vec::new();
        if n <= 8 {
            detail.push(a.instances.join(", "));
        }
        detail.push(limits(&keys));
        let detail: String = detail
            .iter()
            .filter(|d| !d.is_empty())
            .map(|d| format!("; {d}"))
            .collect();
        let (tag, name) = match i {
            0 => (
                "comparison".to_string(),
                format!("comparison instances ({n})"),
            ),
            _ => (
                format!("comparison{}", i + 1),
                format!("comparison {} instances ({n})", i + 1),
            ),
        };
        out.push(set(
            src,
            Kind::Comparison,
            tag,
            name,
            format!("the overview's comparison instances ({n}{detail})"),
            keys,
            a.standings.iter().map(|s| s.config.clone()).collect(),
        ));
    }
    let rest: Vec<&Record> = src
        .rows
        .iter()
        .copied()
        .filter(|r| !compared.contains(&instance_key(&r.instance, r.time_limit)))
        .collect();
    // Where the rest asks several questions (formulations that share no instance), the
    // set of the question with the most instances.
    let Some(a) = answer::answer(src.puzzle, &rest, &[], shift)
        .into_iter()
        .rev()
        .max_by_key(|a| a.keys.len())
    else {
        return out;
    };
    let keys: BTreeSet<InstanceKey> = a.keys.iter().cloned().collect();
    let n = keys.len();
    let limit = limits(&keys);
    let within = if limit.is_empty() {
        String::new()
    } else {
        format!(", {limit}")
    };
    let (name, what) = if compared.is_empty() {
        (
            format!("instances every configuration shown ran ({n}{within})"),
            format!("the {n} instances that the most configurations ran"),
        )
    } else {
        (
            format!("instances outside the comparison ({n}{within})"),
            format!("the {n} instances outside the comparison that the most configurations ran"),
        )
    };
    let what = if limit.is_empty() {
        what
    } else {
        format!("{what} ({limit})")
    };
    let mut set = set(
        src,
        Kind::Rest,
        "rest".into(),
        name,
        what,
        keys,
        a.standings.iter().map(|s| s.config.clone()).collect(),
    );
    // The instances outside every set, which no figure draws.
    let mut others: BTreeSet<&InstanceKey> = BTreeSet::new();
    let mut by: Vec<Config> = Vec::new();
    for (c, per) in src.cells {
        let mine: Vec<&InstanceKey> = per
            .keys()
            .filter(|k| !compared.contains(*k) && !set.keys.contains(*k))
            .collect();
        if !mine.is_empty() {
            others.extend(mine);
            by.push(c.clone());
        }
    }
    if !others.is_empty() {
        let n = others.len();
        set.caption.push_str(&format!(
            " {n} other instance{} outside the comparison, run only by {}, {} in the tables and in no figure.",
            if n == 1 { "" } else { "s" },
            join(&by),
            if n == 1 { "is" } else { "are" },
        ));
    }
    out.push(set);
    out
}

/// A set of `src` with its caption: `what` says which instances it holds.
fn set(
    src: &Source,
    kind: Kind,
    tag: String,
    name: String,
    what: String,
    keys: BTreeSet<InstanceKey>,
    configs: Vec<Config>,
) -> Set {
    let left_out: Vec<Config> = src
        .cells
        .iter()
        .filter(|(c, per)| !configs.contains(c) && keys.iter().any(|k| per.contains_key(k)))
        .map(|(c, _)| c.clone())
        .collect();
    let order = match kind {
        Kind::Comparison => "in the overview's order",
        Kind::Rest => "best first (instances solved, then shifted geometric mean)",
    };
    let mut caption = format!(
        "On {what}: the {} configuration{} that ran all of them, {order}.",
        configs.len(),
        if configs.len() == 1 { "" } else { "s" }
    );
    if !left_out.is_empty() {
        caption.push_str(&format!(
            " Not drawn, having run only some of them: {}.",
            join(&left_out)
        ));
    }
    if src.all.iter().any(|r| r.count > 1) {
        caption.push_str(" Runs that count solutions do another task and are not drawn.");
    }
    if src.all.iter().any(Record::is_refused) {
        caption.push_str(" Refused runs (nothing searched) are not drawn.");
    }
    let in_set = |r: &Record| {
        !r.is_refused()
            && r.count <= 1
            && keys.contains(&instance_key(&r.instance, r.time_limit))
            && configs.contains(&Config {
                formulation: r.formulation.clone(),
                engine: r.backend_label(),
            })
    };
    let named = tables_of(src.all, in_set, src.puzzle, src.tables);
    if !named.is_empty() {
        let quoted: Vec<String> = named.iter().map(|t| format!("“{t}”")).collect();
        caption.push_str(&format!(
            " The runs drawn are also in the table{} {}.",
            if named.len() == 1 { "" } else { "s" },
            quoted.join("; ")
        ));
    }
    Set {
        tag,
        name,
        keys,
        configs,
        caption,
        left_out,
    }
}

/// The titles of the tables of `puzzle` (its own, from `tables`, and its `anytime` table)
/// that show the runs `in_set` picks out of `all`: those that change when these runs are
/// taken away.
fn tables_of(
    all: &[Record],
    in_set: impl Fn(&Record) -> bool,
    puzzle: &str,
    tables: &[TableFn],
) -> Vec<String> {
    let make = |rows: &[Record]| -> Vec<Table> {
        let mut out: Vec<Table> = tables.iter().flat_map(|f| f(rows)).collect();
        let refs: Vec<&Record> = rows.iter().collect();
        out.extend(anytime::anytime_table(puzzle, &refs));
        out
    };
    let without: Vec<Record> = all.iter().filter(|r| !in_set(r)).cloned().collect();
    if without.len() == all.len() {
        return Vec::new();
    }
    let others = make(&without);
    make(all)
        .into_iter()
        .filter(|t| !others.contains(t))
        .map(|t| t.title)
        .collect()
}
