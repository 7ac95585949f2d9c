//! Constraint programs over finite domains: the [`CpModel`] that constraint-programming
//! formulations (Zebra's `cp`) build and the `propagate` engine solves, independent of any
//! engine, as [`crate::model::Model`] is for integer programs.

use crate::model::Counts;

/// A constraint between variables (indices into [`CpModel::vars`]) or on one variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// x = v (direct location).
    Is(usize, usize),
    /// x ≠ v (direct location).
    IsNot(usize, usize),
    /// x = y (connection).
    Same(usize, usize),
    /// x ≠ y (connection).
    Differ(usize, usize),
    /// y = x + d (indirect location; d = 1: x immediately left of y).
    Offset(usize, usize, i32),
    /// y ≠ x + d (indirect location).
    NotOffset(usize, usize, i32),
    /// |x − y| = 1 (indirect location).
    Adjacent(usize, usize),
    /// |x − y| ≠ 1 (indirect location).
    NotAdjacent(usize, usize),
}

/// The three classes of constraint the heuristics order by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Fixes or forbids a value (Zebra's DLC).
    Direct,
    /// Relates two variables' values directly (Zebra's ACC and its negation).
    Connection,
    /// Relates two variables through an offset (Zebra's ILC and negations).
    Indirect,
}

impl Constraint {
    /// The class the heuristics use.
    pub fn class(&self) -> Class {
        match self {
            Constraint::Is(..) | Constraint::IsNot(..) => Class::Direct,
            Constraint::Same(..) | Constraint::Differ(..) => Class::Connection,
            _ => Class::Indirect,
        }
    }

    /// The variables it mentions.
    pub fn vars(&self) -> Vec<usize> {
        match *self {
            Constraint::Is(x, _) | Constraint::IsNot(x, _) => vec![x],
            Constraint::Same(x, y)
            | Constraint::Differ(x, y)
            | Constraint::Offset(x, y, _)
            | Constraint::NotOffset(x, y, _)
            | Constraint::Adjacent(x, y)
            | Constraint::NotAdjacent(x, y) => vec![x, y],
        }
    }

    /// True when the search branches on it (a positive relation of two variables).
    pub fn branches(&self) -> bool {
        matches!(
            self,
            Constraint::Same(..) | Constraint::Offset(..) | Constraint::Adjacent(..)
        )
    }
}

/// A finite-domain model: variables over `0..width`, permutation groups and constraints.
#[derive(Clone, Debug, PartialEq)]
pub struct CpModel {
    /// Name, for messages.
    pub name: String,
    /// Values are `0..width` (1 ≤ width ≤ 64).
    pub width: usize,
    /// Variable names.
    pub vars: Vec<String>,
    /// Permutation groups: each holds `width` variables that take every value exactly once.
    pub groups: Vec<Vec<usize>>,
    /// The constraints, in the instance's order (the order of heuristics `none`).
    pub constraints: Vec<Constraint>,
}

impl CpModel {
    /// Size figures: its variables (all integer), its constraints (one per constraint plus
    /// one per permutation group) and their variable occurrences as nonzeros.
    pub fn counts(&self) -> Counts {
        Counts {
            variables: self.vars.len(),
            binaries: 0,
            integers: self.vars.len(),
            continuous: 0,
            constraints: self.constraints.len() + self.groups.len(),
            nonzeros: self
                .constraints
                .iter()
                .map(|c| c.vars().len())
                .sum::<usize>()
                + self.groups.iter().map(|g| g.len()).sum::<usize>(),
        }
    }
}

/// Checks that `model` is well formed: 1 to 64 values, full permutation groups, and
/// constraints on existing variables and values.
pub fn check(model: &CpModel) -> Result<(), String> {
    let w = model.width;
    if w == 0 || w > 64 {
        return Err(format!("a CP model takes 1 to 64 values, not {w}"));
    }
    let n = model.vars.len();
    for g in &model.groups {
        if g.len() != w || g.iter().any(|&x| x >= n) {
            return Err(format!("a permutation group needs {w} valid variables"));
        }
    }
    for c in &model.constraints {
        let bad_value = match *c {
            Constraint::Is(_, v) | Constraint::IsNot(_, v) => v >= w,
            Constraint::Offset(_, _, d) | Constraint::NotOffset(_, _, d) => d.unsigned_abs() >= 64,
            _ => false,
        };
        if bad_value || c.vars().iter().any(|&x| x >= n) {
            return Err(format!("constraint {c:?} is out of range"));
        }
    }
    Ok(())
}
