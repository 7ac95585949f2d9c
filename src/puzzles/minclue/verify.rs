//! The independent verifier of a minimum-clue answer. It shares no code with the
//! formulations (no SAT solver, no model, not even Sudoku's areas): it reads the answer's
//! clue lines, checks that every clue is G's value, counts the completions of the clues
//! with a backtracking search of its own (stopping at two): a value with one place left in
//! a row, column or box goes there, else the cell with the fewest candidates is branched on;
//! and requires exactly one, equal to G. A clue count below the file's known minimum is
//! refused; so is a claimed minimum that differs from it. On grids of 16 cells or fewer a
//! claimed minimum k is also checked by trying every set of k − 1 clues.

use super::MinClue;

/// Checks the answer `lines` (one string per row, G's value or `.` per cell) for grid `p`;
/// `optimal`: the run claims the clue count is the minimum.
pub fn check(p: &MinClue, lines: &[String], optimal: bool) -> Result<(), String> {
    let n = p.n();
    if lines.len() != n {
        return Err(format!("{} rows, expected {n}", lines.len()));
    }
    let mut clues = vec![false; n * n];
    for (i, line) in lines.iter().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != n {
            return Err(format!(
                "row {} has {} cells, expected {n}",
                i + 1,
                chars.len()
            ));
        }
        for (j, &c) in chars.iter().enumerate() {
            if c == '.' {
                continue;
            }
            let v = c.to_digit(36).filter(|&v| v >= 1);
            if v != Some(p.grid[i][j]) {
                return Err(format!(
                    "row {}, column {} shows '{c}', the grid has {}",
                    i + 1,
                    j + 1,
                    p.grid[i][j]
                ));
            }
            clues[i * n + j] = true;
        }
    }
    let count = clues.iter().filter(|&&c| c).count();
    let solver = Counter::new(p);
    match solver.completions(&clues, 2) {
        v if v.is_empty() => return Err("the clues have no completion".into()),
        v if v.len() > 1 => {
            return Err(format!(
                "the {count} clues have more than one completion, e.g. one differing from the grid in {} cells",
                v.iter()
                    .find(|g| **g != solver.grid)
                    .map_or(0, |g| g.iter().zip(&solver.grid).filter(|(a, b)| a != b).count())
            ))
        }
        v if v[0] != solver.grid => return Err("the clues' one completion is not the grid".into()),
        _ => {}
    }
    if let Some(k) = p.known {
        if count < k {
            return Err(format!("{count} clues, fewer than the known minimum {k}"));
        }
        if optimal && count != k {
            return Err(format!("claimed minimum {count}, the known minimum is {k}"));
        }
    }
    if optimal && n * n <= 16 && count > 0 {
        if let Some(smaller) = smaller_unique(&solver, count - 1) {
            return Err(format!(
                "claimed minimum {count}, but {} clues at cells {smaller:?} are unique",
                count - 1
            ));
        }
    }
    Ok(())
}

/// Checks that the cells `set` (row-major indices) are *unavoidable* in grid `p`: with
/// every cell outside `set` shown with G's value, the verifier's own count finds a
/// completion other than G. That is the witness of a row Σ_{c ∈ set} y_c ≥ 1 of the
/// minimum-clue search: a clue set that shows none of these cells leaves that other
/// completion, so it does not make G unique.
pub fn unavoidable(p: &MinClue, set: &[usize]) -> Result<(), String> {
    let n = p.n();
    let mut clues = vec![true; n * n];
    for &c in set {
        if c >= n * n {
            return Err(format!("cell {c} is not in the {n}x{n} grid"));
        }
        clues[c] = false;
    }
    let solver = Counter::new(p);
    if solver.completions(&clues, 2).len() < 2 {
        return Err(format!(
            "the cells {set:?} are not unavoidable: the grid outside them has G as its only completion"
        ));
    }
    Ok(())
}

/// A set of `k` cells whose clues make the grid unique, by trying every one.
fn smaller_unique(solver: &Counter, k: usize) -> Option<Vec<usize>> {
    let cells = solver.grid.len();
    let mut chosen: Vec<usize> = Vec::with_capacity(k);
    fn walk(
        solver: &Counter,
        cells: usize,
        k: usize,
        from: usize,
        chosen: &mut Vec<usize>,
    ) -> bool {
        if chosen.len() == k {
            let mut clues = vec![false; cells];
            for &c in chosen.iter() {
                clues[c] = true;
            }
            return solver.completions(&clues, 2).len() == 1;
        }
        for c in from..cells {
            chosen.push(c);
            if walk(solver, cells, k, c + 1, chosen) {
                return true;
            }
            chosen.pop();
        }
        false
    }
    walk(solver, cells, k, 0, &mut chosen).then_some(chosen)
}

/// A backtracking Sudoku solver on bit masks, for counting completions.
pub struct Counter {
    n: usize,
    /// The units of each cell (row-major): its row, column and box, numbered as units
    /// (rows 0..n, columns n..2n, boxes 2n..3n).
    units: Vec<[usize; 3]>,
    /// The cells of each unit.
    members: Vec<Vec<usize>>,
    /// G, row-major.
    pub grid: Vec<u32>,
}

impl Counter {
    /// The counter for `p`'s grid shape.
    pub fn new(p: &MinClue) -> Counter {
        let n = p.n();
        let units: Vec<[usize; 3]> = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                let b = (i / p.box_rows) * (n / p.box_cols) + j / p.box_cols;
                [i, n + j, 2 * n + b]
            })
            .collect();
        let mut members = vec![Vec::new(); 3 * n];
        for (k, cell_units) in units.iter().enumerate() {
            for &u in cell_units {
                members[u].push(k);
            }
        }
        Counter {
            n,
            units,
            members,
            grid: p.grid.iter().flatten().copied().collect(),
        }
    }

    /// Up to `limit` completions of the grid's values at the cells of `clues`.
    pub fn completions(&self, clues: &[bool], limit: usize) -> Vec<Vec<u32>> {
        let n = self.n;
        let mut s = Search {
            cells: vec![0u32; n * n],
            used: vec![0u64; 3 * n],
            once: vec![0u64; 3 * n],
            twice: vec![0u64; 3 * n],
            limit,
            found: Vec::new(),
        };
        for (k, _) in clues.iter().enumerate().filter(|(_, &shown)| shown) {
            let v = self.grid[k];
            let bit = 1u64 << v;
            if self.free(&s, k) & bit == 0 {
                return Vec::new();
            }
            self.units[k].iter().for_each(|&u| s.used[u] |= bit);
            s.cells[k] = v;
        }
        self.fill(&mut s);
        s.found
    }

    /// The values cell `k` can still take, as a bit mask (bit v for value v).
    fn free(&self, s: &Search, k: usize) -> u64 {
        let all: u64 = ((1u64 << self.n) - 1) << 1;
        let [r, c, b] = self.units[k];
        all & !(s.used[r] | s.used[c] | s.used[b])
    }

    /// Fills the empty cells of `s` in every way, up to `s.limit` completions.
    fn fill(&self, s: &mut Search) {
        let n = self.n;
        let all: u64 = ((1u64 << n) - 1) << 1;
        // The empty cell with the fewest candidates; on the way, for each unit (rows
        // 0..n, columns n..2n, boxes 2n..3n) the values some empty cell of it can take
        // (`once`) and those two or more can (`twice`).
        s.once.fill(0);
        s.twice.fill(0);
        let mut best: Option<(usize, u64)> = None;
        let mut scanned = true;
        for k in 0..n * n {
            if s.cells[k] != 0 {
                continue;
            }
            let free = self.free(s, k);
            if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                best = Some((k, free));
                if free.count_ones() <= 1 {
                    scanned = false;
                    break;
                }
            }
            for u in self.units[k] {
                s.twice[u] |= s.once[u] & free;
                s.once[u] |= free;
            }
        }
        let Some((mut k, mut free)) = best else {
            s.found.push(s.cells.clone());
            return;
        };
        if scanned {
            // A value missing from a unit with no place left in it ends the branch; one
            // with a single place goes there.
            for u in 0..3 * n {
                let missing = all & !s.used[u];
                if missing & !s.once[u] != 0 {
                    return;
                }
                let single = missing & !s.twice[u];
                if single != 0 {
                    let bit = 1u64 << single.trailing_zeros();
                    k = *self.members[u]
                        .iter()
                        .find(|&&c| s.cells[c] == 0 && self.free(s, c) & bit != 0)
                        .expect("a value with one place has a place");
                    free = bit;
                    break;
                }
            }
        }
        while free != 0 && s.found.len() < s.limit {
            let v = free.trailing_zeros();
            free &= free - 1;
            let bit = 1u64 << v;
            s.cells[k] = v;
            self.units[k].iter().for_each(|&u| s.used[u] |= bit);
            self.fill(s);
            self.units[k].iter().for_each(|&u| s.used[u] &= !bit);
        }
        s.cells[k] = 0;
    }
}

/// The state of one count: values placed (0: empty), the values used in each unit (bit v
/// for value v), scratch masks per unit, and the completions found.
struct Search {
    cells: Vec<u32>,
    used: Vec<u64>,
    once: Vec<u64>,
    twice: Vec<u64>,
    limit: usize,
    found: Vec<Vec<u32>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid4() -> MinClue {
        super::super::parse::parse_line("1234341221434321")
            .unwrap()
            .0
    }

    #[test]
    fn counts_completions_of_the_empty_4x4_grid() {
        let c = Counter::new(&grid4());
        assert_eq!(c.completions(&[false; 16], 1000).len(), 288);
    }

    #[test]
    fn refuses_what_is_not_a_unique_minimum() {
        let p = grid4();
        let lines = |s: &str| -> Vec<String> {
            s.as_bytes()
                .chunks(4)
                .map(|c| String::from_utf8(c.to_vec()).unwrap())
                .collect()
        };
        // Three clues never make a 4x4 grid unique.
        assert!(check(&p, &lines("12.............."), false).is_err());
        // Every clue: unique, but not a minimum.
        assert!(check(&p, &lines("1234341221434321"), false).is_ok());
        let e = check(&p, &lines("1234341221434321"), true).unwrap_err();
        assert!(e.contains("claimed minimum 16"), "{e}");
        // A wrong value.
        let e = check(&p, &lines("2234341221434321"), false).unwrap_err();
        assert!(e.contains("shows '2'"), "{e}");
    }

    #[test]
    fn tells_an_unavoidable_set_from_one_that_is_not() {
        // 1 2 | 3 4 / 3 4 | 1 2 / 2 1 | 4 3 / 4 3 | 2 1: swapping 1 and 2 in the corners of
        // rows 1 and 3, columns 1 and 2 gives another grid, so those four cells are
        // unavoidable; one cell alone, or three of the four, are not.
        let p = grid4();
        assert!(unavoidable(&p, &[0, 1, 8, 9]).is_ok());
        assert!(unavoidable(&p, &[0]).is_err());
        assert!(unavoidable(&p, &[0, 1, 8]).is_err());
        assert!(unavoidable(&p, &[16])
            .unwrap_err()
            .contains("not in the 4x4 grid"));
    }
}
