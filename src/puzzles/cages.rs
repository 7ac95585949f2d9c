//! Cages, shared by KenKen and killer Sudoku: a cage's operation ([`Op`]), the cage itself
//! ([`Cage`]), and its combination columns (the model of the paper "Nonokenken", section
//! 4): every multiset of values the cage can hold that meets its clue and can be placed
//! in its cells ([`multisets`]), one column each, chosen by one row and linked to the
//! cells' values ([`add_cage`]). KenKen's `combinations` formulation and killer Sudoku's
//! both build on it.

use crate::model::{Model, Name, VarId};

/// The operation of a cage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// A one-cell cage: the cell holds the target.
    Given,
    /// The values add up to the target.
    Add,
    /// Two cells whose values differ by the target.
    Sub,
    /// The values multiply to the target.
    Mul,
    /// Two cells: the larger value is the target times the smaller.
    Div,
}

impl Op {
    /// The symbol in the text format and in drawings (`+`, `-`, `*`, `/`, empty for a given).
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Given => "",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
        }
    }
}

/// A cage: an operation, its target and its cells (row, column), from 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// The operation.
    pub op: Op,
    /// The target.
    pub target: u64,
    /// The cells, (row, column) from 0, in reading order.
    pub cells: Vec<(usize, usize)>,
}

impl Cage {
    /// The clue as printed: target then operation, e.g. `11+`.
    pub fn clue(&self) -> String {
        format!("{}{}", self.target, self.op.symbol())
    }
}

/// The most multiset columns a model may have; larger models are refused (with the count)
/// before they are built.
pub const MAX_COLUMNS: usize = 250_000;

/// The most enumeration steps (partial multisets tried, placements tried) for one model.
pub const MAX_STEPS: u64 = 50_000_000;

/// The multisets of one cage that meet its clue and can be placed in its cells, each as
/// its values in increasing order. `differ(a, b)` says whether cells `a` and `b` (indices
/// into `cage.cells`) must hold different values. `steps` counts the work against
/// [`MAX_STEPS`]; more than `room` multisets that meet the clue is an error.
pub fn multisets(
    cage: &Cage,
    n: usize,
    differ: &dyn Fn(usize, usize) -> bool,
    steps: &mut u64,
    room: usize,
) -> Result<Vec<Vec<u32>>, String> {
    let size = cage.cells.len();
    let n32 = n as u32;
    let mut candidates: Vec<Vec<u32>> = Vec::new();
    match cage.op {
        Op::Given => {
            if (1..=u64::from(n32)).contains(&cage.target) {
                candidates.push(vec![cage.target as u32]);
            }
        }
        Op::Sub => {
            for a in 1..=n32 {
                if u64::from(a) + cage.target <= u64::from(n32) {
                    candidates.push(vec![a, a + cage.target as u32]);
                }
            }
        }
        Op::Div => {
            for a in 1..=n32 {
                if u64::from(a) * cage.target <= u64::from(n32) {
                    candidates.push(vec![a, a * cage.target as u32]);
                }
            }
        }
        Op::Add | Op::Mul => {
            let mut prefix = Vec::with_capacity(size);
            let mut walk = Walk {
                cage,
                n: n32,
                size,
                out: &mut candidates,
                steps,
                room,
            };
            walk.extend(1, &mut prefix)?;
        }
    }
    let mut out = Vec::with_capacity(candidates.len());
    for m in candidates {
        if placeable(&m, size, differ, steps)? {
            out.push(m);
        }
    }
    Ok(out)
}

/// The depth-first enumeration of nondecreasing value lists whose sum or product can
/// still reach a cage's target.
struct Walk<'a> {
    cage: &'a Cage,
    n: u32,
    size: usize,
    out: &'a mut Vec<Vec<u32>>,
    steps: &'a mut u64,
    room: usize,
}

impl Walk<'_> {
    /// Extends `prefix` by values from `low` up.
    fn extend(&mut self, low: u32, prefix: &mut Vec<u32>) -> Result<(), String> {
        *self.steps += 1;
        if *self.steps > MAX_STEPS {
            return Err(too_many_steps());
        }
        let left = (self.size - prefix.len()) as u64;
        let t = self.cage.target;
        let n = self.n;
        if left == 0 {
            let value = if self.cage.op == Op::Add {
                Some(prefix.iter().map(|&v| u64::from(v)).sum())
            } else {
                prefix
                    .iter()
                    .try_fold(1u64, |p, &v| p.checked_mul(u64::from(v)))
            };
            if value == Some(t) {
                if self.out.len() >= self.room {
                    return Err(format!(
                        "more than {MAX_COLUMNS} combination columns (the cage {} at r{}c{} alone has more than {}); combinations is for cages of a few cells",
                        self.cage.clue(),
                        self.cage.cells[0].0 + 1,
                        self.cage.cells[0].1 + 1,
                        self.room
                    ));
                }
                self.out.push(prefix.clone());
            }
            return Ok(());
        }
        for v in low..=n {
            let fits = if self.cage.op == Op::Add {
                // The rest are at least v each and at most n each.
                let sum: u64 = prefix.iter().map(|&w| u64::from(w)).sum();
                if sum + u64::from(v) * left > t {
                    break;
                }
                sum + u64::from(v) + u64::from(n) * (left - 1) >= t
            } else {
                // v divides what is left of the target, and the rest are at least v each.
                let product = prefix.iter().map(|&w| u64::from(w)).product::<u64>();
                let rest = t / product;
                if u64::from(v)
                    .checked_pow(left as u32)
                    .is_none_or(|p| p > rest)
                {
                    break;
                }
                rest.is_multiple_of(u64::from(v))
            };
            if fits {
                prefix.push(v);
                self.extend(v, prefix)?;
                prefix.pop();
            }
        }
        Ok(())
    }
}

fn too_many_steps() -> String {
    format!(
        "the cages' combinations take more than {MAX_STEPS} enumeration steps; combinations is for cages of a few cells"
    )
}

/// Whether the multiset `m` can fill the cells 0..size so that any two cells that must
/// differ hold different values (backtracking over cells in order).
fn placeable(
    m: &[u32],
    size: usize,
    differ: &dyn Fn(usize, usize) -> bool,
    steps: &mut u64,
) -> Result<bool, String> {
    let mut values: Vec<u32> = m.to_vec();
    values.dedup();
    let mut left: Vec<usize> = values
        .iter()
        .map(|v| m.iter().filter(|w| *w == v).count())
        .collect();
    let mut placed: Vec<usize> = Vec::with_capacity(size);
    fn go(
        cell: usize,
        size: usize,
        left: &mut [usize],
        placed: &mut Vec<usize>,
        differ: &dyn Fn(usize, usize) -> bool,
        steps: &mut u64,
    ) -> Result<bool, String> {
        *steps += 1;
        if *steps > MAX_STEPS {
            return Err(too_many_steps());
        }
        if cell == size {
            return Ok(true);
        }
        for v in 0..left.len() {
            if left[v] == 0 || (0..cell).any(|c| placed[c] == v && differ(c, cell)) {
                continue;
            }
            left[v] -= 1;
            placed.push(v);
            if go(cell + 1, size, left, placed, differ, steps)? {
                return Ok(true);
            }
            placed.pop();
            left[v] += 1;
        }
        Ok(false)
    }
    go(0, size, &mut left, &mut placed, differ, steps)
}

/// The columns of one cage, for decoding and reports.
pub struct CageColumns {
    /// The multisets, each with its column f[c,m].
    pub choices: Vec<(VarId, Vec<u32>)>,
}

/// Adds cage number `index` (from 1, for names) as combination columns and rows to `m`:
/// `cell_value(cell, k)` is the column x[cell, k] (k in 1..=n), `differ` says which of its
/// cells must differ, `columns` counts the multiset columns against [`MAX_COLUMNS`].
#[allow(clippy::too_many_arguments)]
pub fn add_cage(
    m: &mut Model,
    cell_value: &dyn Fn((usize, usize), usize) -> VarId,
    n: usize,
    cage: &Cage,
    index: usize,
    differ: &dyn Fn(usize, usize) -> bool,
    steps: &mut u64,
    columns: &mut usize,
) -> Result<CageColumns, String> {
    let sets = multisets(cage, n, differ, steps, MAX_COLUMNS - *columns)?;
    *columns += sets.len();
    let choices: Vec<(VarId, Vec<u32>)> = sets
        .into_iter()
        .enumerate()
        .map(|(j, set)| (m.add_binary(Name::idx("f", &[index, j + 1])), set))
        .collect();
    m.add_eq(
        Name::idx("pick", &[index]),
        choices.iter().map(|(f, _)| (*f, 1.0)),
        1.0,
    );
    for k in 1..=n {
        let cells = cage.cells.iter().map(|&c| (cell_value(c, k), 1.0));
        let sets = choices.iter().filter_map(|(f, set)| {
            let h = set.iter().filter(|&&v| v as usize == k).count();
            (h > 0).then_some((*f, -(h as f64)))
        });
        m.add_eq(Name::idx("link", &[index, k]), cells.chain(sets), 0.0);
    }
    Ok(CageColumns { choices })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cage(op: Op, target: u64, cells: &[(usize, usize)]) -> Cage {
        Cage {
            op,
            target,
            cells: cells.to_vec(),
        }
    }

    fn sets(c: &Cage, n: usize) -> Vec<Vec<u32>> {
        let cells = c.cells.clone();
        let differ = move |a: usize, b: usize| cells[a].0 == cells[b].0 || cells[a].1 == cells[b].1;
        multisets(c, n, &differ, &mut 0, MAX_COLUMNS).unwrap()
    }

    #[test]
    fn multisets_meet_the_clue_and_the_placement() {
        // An L of three cells: (0,0) and (1,1) may hold the same value, (0,1) differs
        // from both.
        let l = [(0, 0), (0, 1), (1, 1)];
        assert_eq!(
            sets(&cage(Op::Add, 5, &l), 4),
            vec![vec![1, 1, 3], vec![1, 2, 2]]
        );
        // Three cells of one row: all different.
        let row = [(0, 0), (0, 1), (0, 2)];
        assert_eq!(sets(&cage(Op::Add, 6, &row), 4), vec![vec![1, 2, 3]]);
        assert_eq!(sets(&cage(Op::Add, 5, &row), 4), Vec::<Vec<u32>>::new());
        assert_eq!(
            sets(&cage(Op::Mul, 12, &l), 4),
            vec![vec![1, 3, 4], vec![2, 2, 3]]
        );
        assert_eq!(sets(&cage(Op::Mul, 12, &row), 4), vec![vec![1, 3, 4]]);
        assert_eq!(sets(&cage(Op::Mul, 7, &row), 9), Vec::<Vec<u32>>::new());
        let pair = [(0, 0), (1, 0)];
        assert_eq!(
            sets(&cage(Op::Sub, 2, &pair), 5),
            vec![vec![1, 3], vec![2, 4], vec![3, 5]]
        );
        assert_eq!(
            sets(&cage(Op::Div, 2, &pair), 5),
            vec![vec![1, 2], vec![2, 4]]
        );
        assert_eq!(sets(&cage(Op::Given, 3, &[(0, 0)]), 5), vec![vec![3]]);
    }

    #[test]
    fn every_multiset_against_enumeration() {
        // Every assignment of values to the L's cells, collected as multisets.
        let l = [(0, 0), (0, 1), (1, 1), (1, 2)];
        for op in [Op::Add, Op::Mul] {
            for target in 1..=80u64 {
                let c = cage(op, target, &l);
                let mut want: Vec<Vec<u32>> = Vec::new();
                for code in 0..5u32.pow(4) {
                    let v: Vec<u32> = (0..4).map(|d| code / 5u32.pow(d) % 5 + 1).collect();
                    let ok_cells = v[0] != v[1] && v[1] != v[2] && v[2] != v[3];
                    let value: u64 = if op == Op::Add {
                        v.iter().map(|&x| u64::from(x)).sum()
                    } else {
                        v.iter().map(|&x| u64::from(x)).product()
                    };
                    if ok_cells && value == target {
                        let mut s = v.clone();
                        s.sort();
                        want.push(s);
                    }
                }
                want.sort();
                want.dedup();
                assert_eq!(sets(&c, 5), want, "{op:?} {target}");
            }
        }
    }

    #[test]
    fn the_limits_refuse_with_the_reason() {
        // A 9-cell sum cage of a 30x30 grid, cells in no common row or column.
        let cells: Vec<(usize, usize)> = (0..9).map(|i| (i, i)).collect();
        let c = cage(Op::Add, 135, &cells);
        let mut m = Model::new("t");
        let x: Vec<VarId> = (0..30)
            .map(|k| m.add_binary(Name::idx("x", &[k])))
            .collect();
        let e = add_cage(
            &mut m,
            &|_, k| x[k - 1],
            30,
            &c,
            1,
            &|_, _| false,
            &mut 0,
            &mut 0,
        )
        .err()
        .unwrap();
        assert!(e.contains("more than"), "{e}");
    }
}
