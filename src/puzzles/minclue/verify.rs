//! The independent verifier of a minimum-clue answer. It shares no code with the
//! formulations (no SAT solver, no model, not even Sudoku's areas): it reads the answer's
//! clue lines, checks that every clue is G's value, counts the completions of the clues
//! with a backtracking search of its own (most constrained cell first, stopping at two),
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
    box_rows: usize,
    box_cols: usize,
    /// G, row-major.
    pub grid: Vec<u32>,
}

impl Counter {
    /// The counter for `p`'s grid shape.
    pub fn new(p: &MinClue) -> Counter {
        Counter {
            n: p.n(),
            box_rows: p.box_rows,
            box_cols: p.box_cols,
            grid: p.grid.iter().flatten().copied().collect(),
        }
    }

    fn box_of(&self, k: usize) -> usize {
        let (i, j) = (k / self.n, k % self.n);
        (i / self.box_rows) * (self.n / self.box_cols) + j / self.box_cols
    }

    /// Up to `limit` completions of the grid's values at the cells of `clues`.
    pub fn completions(&self, clues: &[bool], limit: usize) -> Vec<Vec<u32>> {
        let n = self.n;
        let mut cells = vec![0u32; n * n];
        let (mut rows, mut cols, mut boxes) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
        for k in 0..n * n {
            if clues[k] {
                let v = self.grid[k];
                let bit = 1u64 << v;
                let (i, j, b) = (k / n, k % n, self.box_of(k));
                if (rows[i] | cols[j] | boxes[b]) & bit != 0 {
                    return Vec::new();
                }
                rows[i] |= bit;
                cols[j] |= bit;
                boxes[b] |= bit;
                cells[k] = v;
            }
        }
        let mut found = Vec::new();
        self.fill(
            &mut cells, &mut rows, &mut cols, &mut boxes, limit, &mut found,
        );
        found
    }

    fn fill(
        &self,
        cells: &mut [u32],
        rows: &mut [u64],
        cols: &mut [u64],
        boxes: &mut [u64],
        limit: usize,
        found: &mut Vec<Vec<u32>>,
    ) {
        let n = self.n;
        let all: u64 = ((1u64 << n) - 1) << 1;
        // The empty cell with the fewest candidates.
        let mut best: Option<(usize, u64)> = None;
        for k in 0..n * n {
            if cells[k] != 0 {
                continue;
            }
            let free = all & !(rows[k / n] | cols[k % n] | boxes[self.box_of(k)]);
            if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                best = Some((k, free));
                if free.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((k, mut free)) = best else {
            found.push(cells.to_vec());
            return;
        };
        let (i, j, b) = (k / n, k % n, self.box_of(k));
        while free != 0 && found.len() < limit {
            let v = free.trailing_zeros();
            free &= free - 1;
            let bit = 1u64 << v;
            cells[k] = v;
            rows[i] |= bit;
            cols[j] |= bit;
            boxes[b] |= bit;
            self.fill(cells, rows, cols, boxes, limit, found);
            rows[i] &= !bit;
            cols[j] &= !bit;
            boxes[b] &= !bit;
        }
        cells[k] = 0;
    }
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
}
